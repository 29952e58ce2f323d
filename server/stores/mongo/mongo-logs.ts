import { ObjectId, type Db, type Filter } from 'mongodb';
import type { LogEntry, LogKind, NewLogEntry, RangeQuery, RangeRead, Store } from '../../ports/store.ts';
import { batchSizeOf, encodeCursor } from '../range-cursor.ts';
import { rangeRead } from '../range-read.ts';
import { COLLECTIONS, decodeObjectIdCursor, fromJson, toJson } from './mongo-common.ts';

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
      return rangeRead(() => {
        const batchSize = batchSizeOf(query.batchSize);
        let after = query.after === undefined ? null : decodeObjectIdCursor(query.after);
        const range: Filter<LogDoc> = { kind };
        if (query.fromMs !== undefined || query.toMs !== undefined) {
          range.timestamp = {
            ...(query.fromMs === undefined ? {} : { $gte: query.fromMs }),
            ...(query.toMs === undefined ? {} : { $lt: query.toMs }),
          };
        }
        let done = false;
        // A fresh query per batch: no server cursor outlives a slow consumer.
        return async () => {
          if (done) return [];
          const filter: Filter<LogDoc> =
            after === null
              ? range
              : {
                  $and: [
                    range,
                    { $or: [{ timestamp: { $gt: after.t } }, { timestamp: after.t, _id: { $gt: after.o } }] },
                  ],
                };
          const docs = await logs.find(filter).sort({ timestamp: 1, _id: 1 }).limit(batchSize).toArray();
          const last = docs.at(-1);
          if (last === undefined || docs.length < batchSize) done = true;
          else after = { t: last.timestamp, o: last._id };
          return docs.map((doc) => ({
            userId: doc.userId,
            timestamp: doc.timestamp,
            data: fromJson<Record<string, unknown>>(doc.data),
            cursor: encodeCursor({ t: doc.timestamp, o: doc._id.toHexString() }),
          }));
        };
      });
    },
  };
}
