import type { BotHost, CheckedDefinition, NodeSignals } from '../ports/bot-host.ts';
import type { Store } from '../ports/store.ts';
import type { BotTestsRoom } from '../ports/bot-tests.ts';
import type { BotService, ReloadOutcome } from './bot-service.ts';
import { catchUp } from './catch-up.ts';
import { checkDefinition } from './check-definition.ts';
import { planFile, type FileDeps, type FilePlan } from './file-import.ts';
import { readBot, readWritten } from './load-bot.ts';
import { runKeptTests } from './tests/kept-tests.ts';
import { sourceOfVersion } from './version-source.ts';

/** How often a cluster node checks the published version itself, in case it missed the signal (Redis away, a restart). */
const PUBLISHED_CHECK_MS = 5_000;
const TOPIC = 'versions';

export interface BotHostSetup extends FileDeps {
  /** The bot's kept tests (the studio keeps them), run on a version before it is published; none run when absent. */
  readonly tests?: BotTestsRoom;
  /** The throw-away store a test run keeps its users in. */
  readonly scratchStore: () => Store;
  /** Cluster mode: publishes on other nodes are heard here and this node's are told; absent on a single node. */
  readonly signals?: NodeSignals;
}

/** The bot host of a running server: the port, the bot service it swaps, and the file's reloads. */
export interface RunningBot extends BotHost {
  readonly service: BotService;
  /** SIGHUP and `npm run dev`: the file read again; a changed one is imported and published on every node. */
  reload(): Promise<ReloadOutcome>;
  /** The version in service prepared again with the environment as it is now (a studio secret changed). */
  reprepare(reason: string): Promise<ReloadOutcome>;
  /** Stops following the other nodes' publishes. */
  close(): void;
}

/**
 * The running bot behind its port: checks and tests a definition, puts stored versions in service
 * through the one swap, tells the other nodes, and (cluster mode) follows theirs: at each signal,
 * and every few seconds in case one was missed.
 */
export function botHost(setup: BotHostSetup, service: BotService): RunningBot {
  const { signals, file, env } = setup;
  const host: BotHost = {
    live: () => service.current,
    async check(written, options = {}): Promise<CheckedDefinition> {
      const checked = await checkDefinition(written, file, { env });
      if (!options.tests || !checked.definition || !checked.stepTypes || !setup.tests) return checked;
      const checkedBot = { definition: checked.definition, stepTypes: checked.stepTypes };
      return { ...checked, tests: await runKeptTests(setup.tests, checkedBot, setup.scratchStore) };
    },
    putInService: ({ version, moves, kind, commit }) =>
      service.swap(() => sourceOfVersion(setup, version, moves), {
        kind,
        label: version.id,
        ...(commit ? { commit: () => commit() } : {}),
      }),
    announce(versionId) {
      // Lost while Redis is away: the other nodes' own check of the published version catches up.
      void signals?.publish(TOPIC, JSON.stringify({ node: signals.nodeId, versionId })).catch(() => undefined);
    },
  };
  const follow = (signals: NodeSignals, catchUpNow: () => Promise<void>): NodeJS.Timeout => {
    void signals
      .subscribe(TOPIC, (message) => {
        const { node } = JSON.parse(message) as { node: string };
        if (node !== signals.nodeId) void catchUpNow();
      })
      .catch((error: unknown) =>
        setup.logger.warn(
          { event: 'cluster_subscribe_failed', error: (error as Error).message },
          'could not listen for publishes on other nodes; the periodic check still catches up',
        ),
      );
    return setInterval(() => void catchUpNow(), PUBLISHED_CHECK_MS).unref();
  };
  const timer = signals ? follow(signals, catchUp({ ...host, room: setup.room, logger: setup.logger })) : undefined;

  return {
    ...host,
    service,
    async reload() {
      let plan: FilePlan | undefined;
      const outcome = await service.swap(
        async () => {
          plan = await planFile(setup, await readBot(file, env));
          return plan.source;
        },
        { kind: 'file', label: file, commit: () => plan!.commit() },
      );
      if (outcome.ok && plan?.imports && service.current.version) host.announce(service.current.version.id);
      return outcome;
    },
    reprepare(reason) {
      return service.swap(
        async () => {
          const current = service.current;
          const label = current.version ? `version ${current.version.id}` : file;
          const source = await readWritten(current.written, file, label, env);
          return {
            ...source,
            ...(current.version ? { version: current.version } : {}),
            ...(current.moves ? { moves: current.moves } : {}),
          };
        },
        { kind: 'secrets', label: reason },
      );
    },
    close() {
      clearInterval(timer);
    },
  };
}
