import type { Database } from './database.ts';
import type { PresenceBeat, PresenceBoard } from '../../ports/presence.ts';

interface PresenceRow {
  account_id: string;
  name: string;
  dialog: string | null;
  at: number;
}

/** Who has the designer open, on the embedded store (migration 13). */
export function sqlitePresence(db: Database): PresenceBoard {
  // The newest beat of an account wins, even when two of its tabs beat out of order.
  const upsert = db.prepare<[string, string, string | null, number]>(
    `INSERT INTO studio_presence (account_id, name, dialog, at) VALUES (?, ?, ?, ?)
     ON CONFLICT (account_id) DO UPDATE SET name = excluded.name, dialog = excluded.dialog, at = excluded.at WHERE excluded.at >= studio_presence.at`,
  );
  const since = db.prepare<[number], PresenceRow>(
    'SELECT account_id, name, dialog, at FROM studio_presence WHERE at >= ? ORDER BY at DESC, account_id',
  );
  const purge = db.prepare<[number]>('DELETE FROM studio_presence WHERE at < ?');
  return {
    async beat(beat) {
      upsert.run(beat.accountId, beat.name, beat.dialog ?? null, beat.at);
    },
    async list(from) {
      return since.all(from).map((row): PresenceBeat => ({
        accountId: row.account_id,
        name: row.name,
        ...(row.dialog === null ? {} : { dialog: row.dialog }),
        at: row.at,
      }));
    },
    async purge(before) {
      return purge.run(before).changes;
    },
  };
}
