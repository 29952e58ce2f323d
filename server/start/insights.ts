import { InsightsRecorder } from '../app/insights/recorder.ts';
import type { Clock } from '../ports/clock.ts';
import type { InsightsRoom } from '../ports/insights.ts';
import type { Logger } from '../ports/logger.ts';
import type { MongoStore } from '../stores/mongo/mongo-store.ts';
import { mongoInsights } from '../stores/mongo/studio/mongo-insights.ts';
import type { SqliteStore } from '../stores/sqlite/sqlite-store.ts';
import { sqliteInsights } from '../stores/sqlite/studio/sqlite-insights.ts';

export interface InsightsSetup {
  /** false: the room opens (the studio still reads it) but no turn records anything. */
  readonly enabled: boolean;
  readonly logger: Logger;
  readonly clock: Clock;
  readonly windowMs: number;
  /** The published version in service now. */
  readonly version: () => string;
}

export interface Insights {
  readonly room: InsightsRoom;
  readonly recorder?: InsightsRecorder;
}

/** The insights room on the store's own connection, and the recorder turns report to. */
export async function openInsights(store: SqliteStore | MongoStore, setup: InsightsSetup): Promise<Insights> {
  const room = store.kind === 'sqlite' ? sqliteInsights(store.db) : await mongoInsights(store.db);
  if (!setup.enabled) return { room };
  const recorder = new InsightsRecorder({
    room,
    logger: setup.logger,
    now: () => setup.clock.now(),
    version: setup.version,
    isPreview: async (userId) => (await store.getUser(userId))?.preview === true,
    windowMs: setup.windowMs,
  });
  return { room, recorder };
}
