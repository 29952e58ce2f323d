import { checkDefinition } from '../cli/check-definition.ts';
import type { Cluster } from '../cluster/cluster.ts';
import { readBot, readWritten, type BotSource } from '../load-bot.ts';
import type { Clock } from '../ports/clock.ts';
import type { Logger } from '../ports/logger.ts';
import type { RestingUsers } from '../ports/resting-users.ts';
import type { AuditTrail } from '../ports/studio/audit.ts';
import type { VersionsRoom } from '../ports/studio/versions.ts';
import { mongoRestingUsers } from '../stores/mongo/mongo-resting-users.ts';
import type { MongoStore } from '../stores/mongo/mongo-store.ts';
import { mongoVersions } from '../stores/mongo/studio/mongo-versions.ts';
import { sqliteRestingUsers } from '../stores/sqlite/sqlite-resting-users.ts';
import type { SqliteStore } from '../stores/sqlite/sqlite-store.ts';
import { sqliteVersions } from '../stores/sqlite/studio/sqlite-versions.ts';
import { planFile, startingSource, type FilePlan } from '../studio/versions/file-import.ts';
import { catchUp } from '../studio/versions/publishing.ts';
import type { VersionsDeps } from '../studio/versions/versions-deps.ts';
import type { BotService, ReloadOutcome } from './bot-service.ts';

/** How often a cluster node checks the published version itself, in case it missed the signal (Redis away, a restart). */
const PUBLISHED_CHECK_MS = 5_000;
const TOPIC = 'versions';

export interface VersionRooms {
  readonly room: VersionsRoom;
  readonly resting: RestingUsers;
}

/** The versions room and the resting-users count, on the store's own connection. */
export async function openVersionRooms(store: SqliteStore | MongoStore): Promise<VersionRooms> {
  return store.kind === 'sqlite'
    ? { room: sqliteVersions(store.db), resting: sqliteRestingUsers(store.db) }
    : { room: await mongoVersions(store.db, store.locks), resting: mongoRestingUsers(store.db) };
}

export interface VersionsSetup {
  readonly rooms: VersionRooms;
  readonly audit: AuditTrail;
  readonly clock: Clock;
  readonly logger: Logger;
  /** BOT_DEFINITION. */
  readonly file: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The bot's tests, run on a version before it is published (the plan shows each). */
  readonly runTests?: VersionsDeps['runTests'];
}

/** At start: the file reconciled with the store, and the published version to run (server/studio/versions/file-import.ts). */
export function publishedAtStart(setup: VersionsSetup, file: BotSource): Promise<BotSource> {
  return startingSource({ ...setup, room: setup.rooms.room }, file);
}

/** The bot's versions in service: publishes and rollbacks on this node and from the others, and the file's reloads. */
export interface VersionsInService {
  readonly deps: VersionsDeps;
  /** SIGHUP and `npm run dev`: the file read again; a changed one is imported and published on every node. */
  reload(): Promise<ReloadOutcome>;
  /** The version in service prepared again with the environment as it is now (a studio secret changed). */
  reprepare(reason: string): Promise<ReloadOutcome>;
  close(): void;
}

export function versionsInService(
  setup: VersionsSetup,
  bot: BotService,
  cluster: Cluster | undefined,
): VersionsInService {
  const { room } = setup.rooms;
  const deps: VersionsDeps = {
    room,
    resting: setup.rooms.resting,
    audit: setup.audit,
    clock: setup.clock,
    logger: setup.logger,
    file: setup.file,
    env: setup.env,
    check: (written) => checkDefinition(written, setup.file, { env: setup.env }),
    live: () => bot.current,
    ...(setup.runTests ? { runTests: setup.runTests } : {}),
    putInService: (read, origin) => bot.swap(read, origin),
    announce: (versionId) => {
      // Lost while Redis is away: the other nodes' own check of the published version catches up.
      void cluster?.signals.publish(TOPIC, JSON.stringify({ node: cluster.nodeId, versionId })).catch(() => undefined);
    },
  };
  let timer: NodeJS.Timeout | undefined;
  if (cluster) {
    const follow = catchUp(deps);
    void cluster.signals
      .subscribe(TOPIC, (message) => {
        const { node } = JSON.parse(message) as { node: string };
        if (node !== cluster.nodeId) void follow();
      })
      .catch((error: unknown) =>
        setup.logger.warn(
          { event: 'cluster_subscribe_failed', error: (error as Error).message },
          'could not listen for publishes on other nodes; the periodic check still catches up',
        ),
      );
    timer = setInterval(() => void follow(), PUBLISHED_CHECK_MS);
    timer.unref();
  }
  return {
    deps,
    async reload() {
      let plan: FilePlan | undefined;
      const outcome = await bot.swap(
        async () => {
          plan = await planFile(deps, await readBot(setup.file, setup.env));
          return plan.source;
        },
        { kind: 'file', label: setup.file, commit: () => plan!.commit() },
      );
      if (outcome.ok && plan?.imports && bot.current.version) deps.announce(bot.current.version.id);
      return outcome;
    },
    reprepare(reason) {
      return bot.swap(
        async () => {
          const current = bot.current;
          const label = current.version ? `version ${current.version.id}` : setup.file;
          const source = await readWritten(current.written, setup.file, label, setup.env);
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
