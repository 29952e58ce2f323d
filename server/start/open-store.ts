import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config.ts';
import type { ChannelInbox } from '../ports/channel-inbox.ts';
import type { InsightsRoom, InsightsRoomOptions } from '../ports/insights.ts';
import type { PreviewUsers } from '../ports/preview.ts';
import type { RestingUsers } from '../ports/resting-users.ts';
import type { Store } from '../ports/store.ts';
import type { BotTestsRoom } from '../ports/bot-tests.ts';
import type { PresenceBoard } from '../ports/presence.ts';
import type { VersionsRoom } from '../ports/versions.ts';
import { openEventRooms, type EventRooms } from '../stores/event-rooms.ts';
import { mongoChannelInbox } from '../stores/mongo/mongo-channel-inbox.ts';
import { mongoPreviewUsers } from '../stores/mongo/mongo-preview-users.ts';
import { mongoRestingUsers } from '../stores/mongo/mongo-resting-users.ts';
import { openMongoStore, type MongoStore, type StoreCommand } from '../stores/mongo/mongo-store.ts';
import { mongoBotTests } from '../stores/mongo/mongo-bot-tests.ts';
import { mongoInsights } from '../stores/mongo/mongo-insights.ts';
import { mongoPresence } from '../stores/mongo/mongo-presence.ts';
import { mongoVersions } from '../stores/mongo/mongo-versions.ts';
import { sqliteChannelInbox } from '../stores/sqlite/sqlite-channel-inbox.ts';
import { sqlitePreviewUsers } from '../stores/sqlite/sqlite-preview-users.ts';
import { sqliteRestingUsers } from '../stores/sqlite/sqlite-resting-users.ts';
import { openSqliteStore, type SqliteStore } from '../stores/sqlite/sqlite-store.ts';
import { sqliteBotTests } from '../stores/sqlite/sqlite-bot-tests.ts';
import { sqliteInsights } from '../stores/sqlite/sqlite-insights.ts';
import { sqlitePresence } from '../stores/sqlite/sqlite-presence.ts';
import { sqliteVersions } from '../stores/sqlite/sqlite-versions.ts';
import { openPeopleRooms, type PeopleRooms } from '../stores/studio-rooms.ts';

/** The store the configuration names, with its adapter-level handle (the rooms below open on its own connection). */
export type OpenedStore = SqliteStore | MongoStore;

/** The rooms beyond the Store port, each opened on the store's own connection. */
export interface StoreRooms {
  versions(): Promise<VersionsRoom> | VersionsRoom;
  resting(): RestingUsers;
  botTests(): BotTestsRoom;
  previewUsers(): PreviewUsers;
  presence(): Promise<PresenceBoard> | PresenceBoard;
  channelInbox(): Promise<ChannelInbox> | ChannelInbox;
  insights(options: InsightsRoomOptions): Promise<InsightsRoom> | InsightsRoom;
  people(): Promise<PeopleRooms>;
  events(): EventRooms;
}

/**
 * Opens the store the configuration names: MongoDB with MONGODB_URL, else the embedded SQLite
 * file in DATA_DIR. The one place that chooses between them; the server, the tests' servers and
 * the command line all open their store here.
 */
export async function openStore(
  config: Pick<Config, 'MONGODB_URL' | 'REDIS_URL' | 'DATA_DIR'>,
  options: {
    /** Each command the Mongo store sends (command monitoring). */
    readonly onCommand?: (command: StoreCommand) => void;
    /** Whether other processes write the database too (MongoStoreOptions.shared); a server alone is not. */
    readonly shared?: boolean;
  } = {},
): Promise<OpenedStore> {
  const { onCommand } = options;
  // Without REDIS_URL a server is the one process writing the database: its locks stay in memory.
  if (config.MONGODB_URL)
    return openMongoStore({
      url: config.MONGODB_URL,
      shared: options.shared ?? Boolean(config.REDIS_URL),
      ...(onCommand ? { onCommand } : {}),
    });
  // A fresh checkout has no data folder yet; the embedded store makes its own.
  // Personal data and secrets live here: a new folder is the server user's alone.
  const dataDir = path.resolve(config.DATA_DIR);
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  return openSqliteStore({ file: path.join(dataDir, 'chatbot.sqlite') });
}

/** A throw-away store in memory: a bot test run keeps its users there. */
export function openScratchStore(): Store {
  return openSqliteStore({ file: ':memory:' });
}

/** The rooms of an opened store, by its kind. */
export function storeRooms(store: OpenedStore): StoreRooms {
  const common = { people: () => openPeopleRooms(store), events: () => openEventRooms(store) };
  if (store.kind === 'sqlite') {
    const { db } = store;
    return {
      ...common,
      versions: () => sqliteVersions(db),
      resting: () => sqliteRestingUsers(db),
      botTests: () => sqliteBotTests(db),
      previewUsers: () => sqlitePreviewUsers(db),
      presence: () => sqlitePresence(db),
      channelInbox: () => sqliteChannelInbox(db),
      insights: (options) => sqliteInsights(db, options),
    };
  }
  const { db, locks } = store;
  return {
    ...common,
    versions: () => mongoVersions(db, locks),
    resting: () => mongoRestingUsers(db),
    botTests: () => mongoBotTests(db),
    previewUsers: () => mongoPreviewUsers(db),
    presence: () => mongoPresence(db),
    channelInbox: () => mongoChannelInbox(db),
    insights: (options) => mongoInsights(db, options, locks),
  };
}
