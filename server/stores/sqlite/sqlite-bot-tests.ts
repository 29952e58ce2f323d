import type { Database } from './database.ts';
import type { BotTestsRoom, StoredBotTests } from '../../ports/bot-tests.ts';

interface Row {
  body: string;
  revision: number;
  updated_at: number;
  updated_by: string;
}

const fromRow = (row: Row): StoredBotTests => ({
  body: row.body,
  revision: row.revision,
  updatedAt: row.updated_at,
  updatedBy: row.updated_by,
});

/** The bot's tests on the embedded store: the one row of studio_bot_tests (migration 14). */
export function sqliteBotTests(db: Database): BotTestsRoom {
  const read = db.prepare<[], Row>('SELECT body, revision, updated_at, updated_by FROM studio_bot_tests WHERE id = 1');
  const insert = db.prepare<[string, number, string]>(
    'INSERT OR IGNORE INTO studio_bot_tests (id, body, revision, updated_at, updated_by) VALUES (1, ?, 1, ?, ?)',
  );
  const update = db.prepare<[string, number, string, number]>(
    'UPDATE studio_bot_tests SET body = ?, revision = revision + 1, updated_at = ?, updated_by = ? WHERE id = 1 AND revision = ?',
  );
  return {
    async read() {
      const row = read.get();
      return row ? fromRow(row) : null;
    },
    async write(body, expected, by, at) {
      const changes = expected === null ? insert.run(body, at, by).changes : update.run(body, at, by, expected).changes;
      if (changes === 0) return 'conflict';
      return fromRow(read.get()!);
    },
  };
}
