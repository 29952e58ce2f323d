import type { Database } from './database.ts';
import type { LogEntry, LogKind, NewLogEntry, RangeQuery, RangeRead, Store } from '../../ports/store.ts';
import { encodeCursor, numericStart } from '../common/range-cursor.ts';
import { seekRead } from '../common/range-read.ts';
import { fromJson, toJson } from './json.ts';

const MIN = Number.MIN_SAFE_INTEGER;
const MAX = Number.MAX_SAFE_INTEGER;

type LogOps = Pick<Store, 'appendLog' | 'appendLogs' | 'readLogs'>;

export function sqliteLogs(db: Database): LogOps {
  const insert = db.prepare(
    'INSERT INTO logs (kind, user_id, timestamp, data) VALUES (@kind, @userId, @timestamp, @data)',
  );
  const insertAll = db.transaction((kind: LogKind, entries: readonly NewLogEntry[]) => {
    for (const entry of entries) {
      insert.run({ kind, userId: entry.userId, timestamp: entry.timestamp, data: toJson(entry.data) });
    }
  });
  // Seek to the cursor, not the range start: see the note in sqlite-exports.ts. Rows as
  // arrays (`raw`): no object per row for a million rows.
  const batch = db
    .prepare<[string, number, number, number, number, number, number], [number, string, number, string]>(
      `SELECT id, user_id, timestamp, data FROM logs
       WHERE kind = ? AND timestamp >= max(?, ?) AND timestamp < ?
         AND (timestamp, id) > (?, ?)
       ORDER BY timestamp, id LIMIT ?`,
    )
    .raw(true);

  return {
    async appendLog(kind, entry) {
      insertAll.immediate(kind, [entry]);
    },
    async appendLogs(kind, entries) {
      insertAll.immediate(kind, entries);
    },
    readLogs(kind: LogKind, query: RangeQuery): RangeRead<LogEntry> {
      const from = query.fromMs ?? MIN;
      const to = query.toMs ?? MAX;
      return seekRead(query.batchSize, {
        start: () => numericStart(query),
        fetch: (after, limit) => batch.all(kind, from, after.t, to, after.t, after.o, limit),
        positionOf: ([id, , timestamp]) => ({ t: timestamp, o: id }),
        toRow: ([id, userId, timestamp, data]): LogEntry => ({
          userId,
          timestamp,
          data: fromJson(data),
          cursor: encodeCursor({ t: timestamp, o: id }),
          dataJson: data,
        }),
      });
    },
  };
}
