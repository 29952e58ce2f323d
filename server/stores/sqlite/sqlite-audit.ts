import type { Database } from './database.ts';
import type { AuditEntry, AuditStore } from '../../ports/audit.ts';

/** The audit trail on the embedded store (migration 9): one JSON row per entry, ordered by id. */
export function sqliteAudit(db: Database): AuditStore {
  const insert = db.prepare<[string, number, string]>('INSERT INTO studio_audit (id, at, entry) VALUES (?, ?, ?)');
  const purge = db.prepare<[number]>('DELETE FROM studio_audit WHERE at < ?');
  return {
    async appendAudit(entry) {
      insert.run(entry.id, entry.at, JSON.stringify(entry));
    },
    async readAudit(query) {
      const where: string[] = [];
      const params: Record<string, string | number> = { limit: query.limit };
      if (query.fromAt !== undefined) {
        where.push('at >= @fromAt');
        params.fromAt = query.fromAt;
      }
      if (query.toAt !== undefined) {
        where.push('at < @toAt');
        params.toAt = query.toAt;
      }
      if (query.after !== undefined) {
        where.push('id > @after');
        params.after = query.after;
      }
      const rows = db
        .prepare<[Record<string, string | number>], { entry: string }>(
          `SELECT entry FROM studio_audit ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id LIMIT @limit`,
        )
        .all(params);
      return rows.map((row) => JSON.parse(row.entry) as AuditEntry);
    },
    async purgeAuditBefore(before) {
      return purge.run(before).changes;
    },
  };
}
