import type { Database } from './database.ts';
import type { PreviewMark, PreviewUsers } from '../../ports/preview.ts';
import { fromJson } from './json.ts';

/** Preview users through the partial index on the mark (migration 14): only they are in it. */
export function sqlitePreviewUsers(db: Database): PreviewUsers {
  const list = db.prepare<[number, number], { user_id: string; preview: string; updated_at: number }>(
    `SELECT user_id, preview, updated_at FROM users WHERE preview IS NOT NULL AND updated_at < ? ORDER BY updated_at, user_id LIMIT ?`,
  );
  return {
    async listPreviewUsers(query) {
      const rows: { userId: string; accountId: string; updatedAt: number }[] = [];
      // The account is inside the mark's JSON: filtered here, over a handful of rows.
      for (const row of list.iterate(
        query.updatedBefore ?? Number.MAX_SAFE_INTEGER,
        query.accountId === undefined ? query.limit : -1,
      )) {
        const { accountId } = fromJson<PreviewMark>(row.preview);
        if (query.accountId !== undefined && accountId !== query.accountId) continue;
        rows.push({ userId: row.user_id, accountId, updatedAt: row.updated_at });
        if (rows.length >= query.limit) break;
      }
      return rows;
    },
  };
}
