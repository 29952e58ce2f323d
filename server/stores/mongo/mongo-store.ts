import { MongoClient, type Db } from 'mongodb';
import type { Store } from '../../ports/store.ts';
import { ensureIndexes } from './indexes.ts';
import { keyLocks, processLocks, type KeyLocks } from './key-lock.ts';
import { mongoDatasets } from './mongo-datasets.ts';
import { mongoJobPurge } from './mongo-job-purge.ts';
import { mongoJobStats } from './mongo-job-stats.ts';
import { mongoJobs } from './mongo-jobs.ts';
import { mongoLeases } from './mongo-leases.ts';
import { mongoLogs } from './mongo-logs.ts';
import { mongoPersonalData } from './mongo-personal-data.ts';
import { mongoTranscript } from './mongo-transcript.ts';
import { mongoTurns } from './mongo-turns.ts';
import { mongoUsers } from './mongo-users.ts';
import { userLockKey } from './user-doc.ts';
import { mongoOutboxes } from './turn-outbox.ts';
import { SettledTurns } from './unsent-entries.ts';
import { UserDocCache } from './user-doc-cache.ts';
import { retryingDb, retryTransient } from './transient.ts';
import { upgradeDocuments } from './upgrades.ts';

/** One command the driver sent, as command monitoring reports it. */
export interface StoreCommand {
  readonly name: string;
  readonly collection: string | undefined;
  /** The command document (its filter, updates, documents): for counting, never logged. */
  readonly command: Readonly<Record<string, unknown>>;
}

export interface MongoStoreOptions {
  /** A mongodb:// or mongodb+srv:// URL. */
  readonly url: string;
  /** Database name; defaults to the URL's path, else `chatbot`. */
  readonly dbName?: string;
  /** How long to look for a server before giving up (ms). Default 5000. */
  readonly serverSelectionTimeoutMs?: number;
  /**
   * Whether other processes write this database too (cluster mode: REDIS_URL set).
   * Then every read-check-write of a document holds a lock in the store (key-lock.ts),
   * two more writes each; one process alone orders them with locks in memory. Default
   * true, the safe side: a test or tool opening a database a server also writes.
   */
  readonly shared?: boolean;
  /** Called with each command the driver sends (command monitoring): the benches count a turn's round trips with it. */
  readonly onCommand?: (command: StoreCommand) => void;
}

/**
 * Connects to MongoDB (or a compatible server such as FerretDB 1.x) and
 * creates the indexes the adapter relies on. Rejects with a message naming
 * the host, never the credentials, when the server cannot be reached.
 */
export interface MongoStore extends Store {
  readonly kind: 'mongo';
  /**
   * The database (transient faults retried per operation) and the key locks, for the adapters
   * of stores with ports of their own (the studio's versions, accounts, audit, …) in this folder;
   * each ensures its own indexes with ensureCollectionIndexes. Never handed beyond the stores
   * and the composition root.
   */
  readonly db: Db;
  readonly locks: KeyLocks;
}

export async function openMongoStore(options: MongoStoreOptions): Promise<MongoStore> {
  const target = describeUrl(options.url);
  let client: MongoClient;
  try {
    client = new MongoClient(options.url, {
      serverSelectionTimeoutMS: options.serverSelectionTimeoutMs ?? 5000,
      // Bounded waits: an operation the server never answers, or a pool with no free
      // connection, fails (and is retried or reported) instead of holding a request forever.
      socketTimeoutMS: 20_000,
      waitQueueTimeoutMS: 10_000,
      appName: 'chatbot',
      monitorCommands: options.onCommand !== undefined,
    });
    if (options.onCommand) {
      const onCommand = options.onCommand;
      client.on('commandStarted', (event) => {
        const target = (event.command as Record<string, unknown>)[event.commandName];
        onCommand({
          name: event.commandName,
          collection: typeof target === 'string' ? target : undefined,
          command: event.command as Record<string, unknown>,
        });
      });
    }
    await client.connect();
  } catch (error) {
    throw new Error(
      `cannot connect to MongoDB at ${target.hosts}: ${redact(String((error as Error).message), options.url)}`,
    );
  }
  const plainDb = client.db(options.dbName ?? target.dbName ?? 'chatbot');
  // Transient faults (a busy FerretDB file, a MongoDB step-down) are retried per operation: see transient.ts.
  const db = retryingDb(plainDb);
  try {
    await ensureIndexes(db);
  } catch (error) {
    await client.close();
    throw new Error(`cannot create indexes in MongoDB at ${target.hosts}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  try {
    await upgradeDocuments(db);
  } catch (error) {
    await client.close();
    throw new Error(
      `cannot bring the documents in MongoDB at ${target.hosts} up to date: ${(error as Error).message}`,
      { cause: error },
    );
  }

  const locks = options.shared === false ? processLocks() : keyLocks(db);
  const outboxes = mongoOutboxes(db, locks, userLockKey);
  const settled = new SettledTurns();
  const cache = new UserDocCache();
  const writes = { locks, outboxes, settled, cache };
  const transcript = mongoTranscript(db, writes);
  const jobs = mongoJobs(db, locks);
  const datasets = mongoDatasets(db, locks);
  // Reads through cursors, which the per-operation retry does not cover: retried whole (they change nothing, or only repair).
  const again = { attempts: 3, firstPauseMs: 50, maxPauseMs: 500 };
  return {
    kind: 'mongo',
    db,
    locks,
    async ping() {
      await plainDb.command({ ping: 1 });
    },
    async close() {
      await client.close();
    },
    ...mongoUsers(db, locks, cache),
    ...transcript,
    readTranscript: (userId, afterSeq, limit) =>
      retryTransient(() => transcript.readTranscript(userId, afterSeq, limit), again),
    readReturning: (userId, afterSeq, limit) =>
      retryTransient(() => transcript.readReturning(userId, afterSeq, limit), again),
    ...mongoTurns(db, writes),
    ...mongoLogs(db),
    ...jobs,
    // The job runner polls here: the outboxes a crash left with nobody to touch their users are moved on the way.
    async claimJobs(request) {
      await outboxes.sweep(request.now).catch(() => undefined);
      return jobs.claimJobs(request);
    },
    ...datasets,
    readDataset: (name) => retryTransient(() => datasets.readDataset(name), again),
    ...mongoLeases(db),
    ...mongoPersonalData(db, locks),
    ...mongoJobStats(db),
    ...mongoJobPurge(db, locks),
  };
}

/** Hosts and database of a connection string, with the credentials left out. */
export function describeUrl(url: string): { hosts: string; dbName: string | undefined } {
  const match = /^[a-z+]+:\/\/(?:[^@/]*@)?([^/?]*)(?:\/([^?]*))?/i.exec(url);
  if (match === null) return { hosts: '(unparseable URL)', dbName: undefined };
  const dbName = match[2] === undefined || match[2] === '' ? undefined : decodeURIComponent(match[2]);
  return { hosts: match[1] ?? '', dbName };
}

/** Driver messages may echo the URL; keep its password out of logs. */
function redact(message: string, url: string): string {
  const password = /^[a-z+]+:\/\/[^:@/]*:([^@/]*)@/i.exec(url)?.[1];
  return password === undefined || password === '' ? message : message.split(password).join('***');
}
