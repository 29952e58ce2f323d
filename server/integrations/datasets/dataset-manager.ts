import type { Clock } from '../../ports/clock.ts';
import type { Logger } from '../../ports/logger.ts';
import type { DatasetInfo, DatasetRow, Store } from '../../ports/store.ts';
import { noAuth } from '../auth/authenticator.ts';
import { authorizedCall } from '../auth/authorized-call.ts';
import { IntegrationConfigError, IntegrationError } from '../http/integration-error.ts';
import type { SafeHttpClient } from '../http/safe-http-client.ts';
import { BACKGROUND_USER_ID, type CallRecorder } from '../http/integration-log.ts';
import { compileMapping, type CompiledMapping } from '../http/mapping.ts';
import type { CompiledService } from '../auth/services.ts';
import { jsonBody } from '../http/read-body.ts';
import type { DatasetCluster } from './dataset-cluster.ts';
import type { DatasetConfig } from './dataset-config.ts';
import { DatasetIndex, type DatasetHit, type DatasetQuery } from './dataset-index.ts';
import { toDatasetRow } from './row-mapping.ts';

export interface DatasetManagerDeps {
  readonly store: Store;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly http: SafeHttpClient;
  readonly services: ReadonlyMap<string, CompiledService>;
  readonly record: (userId: string) => CallRecorder;
  /** Pull timeout (ms): background sources may be slow, the user is not waiting. */
  readonly pullTimeoutMs?: number;
  /** Cluster mode: periodic pulls are leased to one node, and every change reaches every node's index. */
  readonly cluster?: DatasetCluster;
}

export type PullResult =
  | { readonly ok: true; readonly rowCount: number }
  | { readonly ok: false; readonly error: { readonly kind: string; readonly message: string } };

/** Raised for a push the dataset cannot take; the router turns it into a 400/404. */
export class DatasetInputError extends Error {
  constructor(
    readonly code: 'not_found' | 'invalid_body',
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

interface Dataset {
  readonly config: DatasetConfig;
  readonly rowsOf: CompiledMapping | undefined;
  index: DatasetIndex;
  pulling: Promise<PullResult> | undefined;
  timer: NodeJS.Timeout | undefined;
  /** Serialises writes (pull, push) so the index follows the store in order. */
  writes: Promise<unknown>;
}

/**
 * Call-on-background datasets (spec 1.2): rows live in the store and in an
 * in-memory index queried by tags and radius. Refreshed by periodic pull, by
 * push (full or incremental) and by a change signal that pulls. A failing
 * source keeps the last good rows and the failure is logged.
 *
 * The index is per process and the store is the shared truth. In a cluster a
 * periodic pull is leased to one node per interval, and a pull or push on any
 * node is announced, so every other node reloads its index from the store.
 */
export class DatasetManager {
  private readonly datasets = new Map<string, Dataset>();

  constructor(
    configs: readonly DatasetConfig[],
    private readonly deps: DatasetManagerDeps,
  ) {
    for (const config of configs) {
      if (this.datasets.has(config.name))
        throw new IntegrationConfigError(`integrations.datasets: "${config.name}" is defined twice.`);
      if (config.source?.service && !deps.services.has(config.source.service)) {
        throw new IntegrationConfigError(
          `integrations.datasets.${config.name}.source.service: no service named "${config.source.service}".`,
        );
      }
      this.datasets.set(config.name, {
        config,
        rowsOf: config.source?.rows
          ? compileMapping(config.source.rows, `integrations.datasets.${config.name}.source.rows`)
          : undefined,
        index: new DatasetIndex([]),
        pulling: undefined,
        timer: undefined,
        writes: Promise.resolve(),
      });
    }
  }

  /** Loads the stored rows, then pulls what is stale and starts the periodic pulls. Does not wait for the pulls. */
  async start(): Promise<void> {
    for (const [name, dataset] of this.datasets) {
      dataset.index = new DatasetIndex(await this.deps.store.readDataset(name));
      const { config } = dataset;
      if (!config.source) continue;
      const info = await this.deps.store.datasetInfo(name);
      const intervalMs = (config.refreshIntervalSec ?? 0) * 1000;
      if (!info || (intervalMs > 0 && info.updatedAt + intervalMs <= this.deps.clock.now()))
        void this.leasedPull(name, intervalMs);
      if (intervalMs > 0) {
        dataset.timer = setInterval(() => void this.leasedPull(name, intervalMs), intervalMs);
        dataset.timer.unref();
      }
    }
    this.deps.cluster?.onChange((name) => {
      const dataset = this.datasets.get(name);
      if (!dataset) return;
      void this.write(dataset, async () => {
        dataset.index = new DatasetIndex(await this.deps.store.readDataset(name));
      }).catch((error: unknown) =>
        this.deps.logger.warn(
          { event: 'dataset_reload_failed', dataset: name, error: (error as Error).message },
          'could not reload a dataset another node changed; the next change reloads it',
        ),
      );
    });
  }

  /** A periodic (or start-up) pull: in a cluster only the node holding the interval's lease pulls. */
  private async leasedPull(name: string, intervalMs: number): Promise<void> {
    // Held for most of an interval and never released early: the other nodes' timers in the same interval skip.
    const leaseMs = Math.max(5_000, Math.floor((intervalMs || 60_000) * 0.9));
    if (this.deps.cluster && !(await this.deps.cluster.lease(`dataset-pull:${name}`, leaseMs))) return;
    await this.pull(name);
  }

  async stop(): Promise<void> {
    for (const dataset of this.datasets.values()) clearInterval(dataset.timer);
    await Promise.allSettled([...this.datasets.values()].map((d) => d.writes));
  }

  names(): string[] {
    return [...this.datasets.keys()];
  }

  has(name: string): boolean {
    return this.datasets.has(name);
  }

  info(name: string): Promise<DatasetInfo | null> {
    this.get(name);
    return this.deps.store.datasetInfo(name);
  }

  query(name: string, query: DatasetQuery): DatasetHit[] {
    return this.get(name).index.query(query);
  }

  /** Pulls the source now (periodic pull and change signal). Concurrent pulls of one dataset share one request. */
  pull(name: string): Promise<PullResult> {
    const dataset = this.get(name);
    dataset.pulling ??= this.doPull(dataset).finally(() => {
      dataset.pulling = undefined;
    });
    return dataset.pulling;
  }

  /** Push: replaces every row. Throws DatasetInputError when a row is unusable (nothing is changed then). */
  replace(name: string, rawRows: unknown): Promise<{ rowCount: number }> {
    const dataset = this.get(name);
    const rows = this.mapRows(dataset, rawRows);
    return this.write(dataset, async () => {
      await this.deps.store.replaceDataset(name, rows, this.deps.clock.now());
      dataset.index = new DatasetIndex(rows);
      this.deps.cluster?.announce(name);
      return { rowCount: rows.length };
    });
  }

  /** Push: inserts or replaces rows by id, and deletes ids. */
  update(name: string, change: { upsert?: unknown; delete?: unknown }): Promise<{ rowCount: number }> {
    const dataset = this.get(name);
    const upserts = change.upsert === undefined ? [] : this.mapRows(dataset, change.upsert);
    const deletes = change.delete ?? [];
    if (!Array.isArray(deletes) || !deletes.every((id) => typeof id === 'string' || typeof id === 'number')) {
      throw new DatasetInputError('invalid_body', '"delete" must be a list of row ids (strings or numbers).');
    }
    const ids = deletes.map(String);
    return this.write(dataset, async () => {
      const now = this.deps.clock.now();
      if (upserts.length > 0) await this.deps.store.upsertDatasetRows(name, upserts, now);
      if (ids.length > 0) await this.deps.store.deleteDatasetRows(name, ids, now);
      const byId = new Map(dataset.index.rows.map((row) => [row.id, row]));
      for (const row of upserts) byId.set(row.id, row);
      for (const id of ids) byId.delete(id);
      dataset.index = new DatasetIndex([...byId.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)));
      this.deps.cluster?.announce(name);
      return { rowCount: byId.size };
    });
  }

  private get(name: string): Dataset {
    const dataset = this.datasets.get(name);
    if (!dataset)
      throw new DatasetInputError(
        'not_found',
        `There is no dataset named "${name}"; known: ${this.names().join(', ') || 'none'}.`,
      );
    return dataset;
  }

  private write<T>(dataset: Dataset, work: () => Promise<T>): Promise<T> {
    const next = dataset.writes.then(work, work);
    dataset.writes = next.catch(() => undefined);
    return next;
  }

  private mapRows(dataset: Dataset, rawRows: unknown): DatasetRow[] {
    if (!Array.isArray(rawRows))
      throw new DatasetInputError('invalid_body', 'The rows must be a JSON list of objects.');
    const rows: DatasetRow[] = [];
    const problems: string[] = [];
    rawRows.forEach((raw, i) => {
      const result = toDatasetRow(raw, dataset.config.fields);
      if (result.ok) rows.push(result.row);
      else if (problems.length < 10) problems.push(`row ${i} ${result.problem}`);
    });
    if (problems.length > 0) {
      throw new DatasetInputError('invalid_body', `Some rows cannot be stored: ${problems.join('; ')}.`, { problems });
    }
    return rows;
  }

  private async doPull(dataset: Dataset): Promise<PullResult> {
    const { name, source } = dataset.config;
    const { logger } = this.deps;
    if (!source)
      return {
        ok: false,
        error: {
          kind: 'invalid_params',
          message: `The dataset "${name}" has no source to pull from; it is filled by push.`,
        },
      };
    try {
      const service = source.service ? this.deps.services.get(source.service) : undefined;
      const url = service ? new URL(source.url.replace(/^\//, ''), service.baseUrl).href : source.url;
      const response = await authorizedCall({
        http: this.deps.http,
        request: {
          url,
          method: 'GET',
          headers: { accept: 'application/json' },
          timeoutMs: this.deps.pullTimeoutMs ?? 30_000,
          maxBytes: 20 * 1024 * 1024,
        },
        auth: service?.auth ?? noAuth,
        variables: {},
        record: this.deps.record(BACKGROUND_USER_ID),
      });
      if (response.status < 200 || response.status > 299) {
        throw new IntegrationError(
          'status',
          `The source of dataset "${name}" answered ${response.status}.`,
          response.status,
        );
      }
      const body = jsonBody(response);
      const raw = dataset.rowsOf ? await dataset.rowsOf(body) : body;
      let rows: DatasetRow[];
      try {
        rows = this.mapRows(dataset, raw);
      } catch (error) {
        throw new IntegrationError(
          'invalid_body',
          `The source of dataset "${name}" sent unusable rows: ${(error as Error).message}`,
        );
      }
      await this.write(dataset, async () => {
        await this.deps.store.replaceDataset(name, rows, this.deps.clock.now());
        dataset.index = new DatasetIndex(rows);
        this.deps.cluster?.announce(name);
      });
      logger.info({ event: 'dataset_pulled', dataset: name, rows: rows.length }, 'background dataset refreshed');
      return { ok: true, rowCount: rows.length };
    } catch (error) {
      const kind = error instanceof IntegrationError ? error.kind : 'network';
      const message = (error as Error).message;
      logger.warn(
        { event: 'dataset_pull_failed', dataset: name, kind, error: message },
        'background dataset pull failed; keeping the last good rows',
      );
      return { ok: false, error: { kind, message } };
    }
  }
}
