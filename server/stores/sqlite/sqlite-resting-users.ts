import type { Database } from './database.ts';
import type { RestingUsers } from '../../ports/resting-users.ts';

/*
 * One pass over the users, grouped by position: a publish plan asks rarely, so no index is kept
 * for it (an index on the position would cost every turn's write). 100,000 users take about
 * 0.3 s of one core (bench/versions.ts).
 */
export function sqliteRestingUsers(db: Database): RestingUsers {
  const grouped = db.prepare<[], { dialog_id: string; step_id: string; users: number }>(
    `SELECT json_extract(position, '$.dialogId') AS dialog_id, json_extract(position, '$.stepId') AS step_id, count(*) AS users
     FROM users WHERE position IS NOT NULL AND preview IS NULL GROUP BY dialog_id, step_id`,
  );
  return {
    async countResting(positions) {
      if (positions.length === 0) return [];
      const counts = new Map<string, number>();
      for (const row of grouped.iterate()) counts.set(JSON.stringify([row.dialog_id, row.step_id]), row.users);
      return positions.map((p) => counts.get(JSON.stringify([p.dialogId, p.stepId])) ?? 0);
    },
  };
}
