import { ObjectId, type Db } from 'mongodb';
import type { LogEntry, LogKind, NewLogEntry, RangeQuery, RangeRead, Store } from '../../ports/store.ts';
import { encodeCursor } from '../common/range-cursor.ts';
import { seekRead } from '../common/range-read.ts';
import { COLLECTIONS, fromJson, toJson } from './mongo-common.ts';
import { rangeFilter, objectIdStart } from './range-filter.ts';

export interface LogDoc {
  /**
   * Made here, in append order, so it doubles as the insertion order that
   * breaks timestamp ties. Strictly increasing within one process; across
   * processes still unique, so cursors never repeat or skip.
   */
  _id: ObjectId;
  kind: LogKind;
  userId: string;
  timestamp: number;
  data: string;
}

type LogOps = Pick<Store, 'appendLog' | 'appendLogs' | 'readLogs'>;

export function mongoLogs(db: Db): LogOps {
  const logs = db.collection<LogDoc>(COLLECTIONS.logs);

  const appendLogs = async (kind: LogKind, entries: readonly NewLogEntry[]): Promise<void> => {
    if (entries.length === 0) return;
    await logs.insertMany(
      entries.map((entry) => ({
        _id: new ObjectId(),
        kind,
        userId: entry.userId,
        timestamp: entry.timestamp,
        data: toJson(entry.data),
      })),
      { ordered: true },
    );
  };

  return {
    async appendLog(kind, entry) {
      await appendLogs(kind, [entry]);
    },
    appendLogs,
    readLogs(kind: LogKind, query: RangeQuery): RangeRead<LogEntry> {
      return seekRead(query.batchSize, {
        start: () => objectIdStart(query),
        fetch: (after, limit) =>
          logs
            .find(rangeFilter<LogDoc>('timestamp', '_id', query, after, { kind }))
            .sort({ timestamp: 1, _id: 1 })
            .limit(limit)
            .toArray(),
        positionOf: (doc) => ({ t: doc.timestamp, o: doc._id }),
        toRow: (doc): LogEntry => ({
          userId: doc.userId,
          timestamp: doc.timestamp,
          data: fromJson<Record<string, unknown>>(doc.data),
          cursor: encodeCursor({ t: doc.timestamp, o: doc._id.toHexString() }),
        }),
      });
    },
  };
}
