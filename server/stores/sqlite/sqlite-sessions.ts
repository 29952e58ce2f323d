import type { Database } from './database.ts';
import type { Sessions, StudioSession } from '../../ports/sessions.ts';

interface SessionRow {
  id: string;
  account_id: string;
  csrf_token: string;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
  ip: string;
  user_agent: string;
  method: string;
}

const toSession = (row: SessionRow): StudioSession => ({
  id: row.id,
  accountId: row.account_id,
  csrfToken: row.csrf_token,
  createdAt: row.created_at,
  lastSeenAt: row.last_seen_at,
  expiresAt: row.expires_at,
  ip: row.ip,
  userAgent: row.user_agent,
  method: row.method as StudioSession['method'],
});

/** The studio's sessions on the embedded store (migration 9). */
export function sqliteSessions(db: Database): Sessions {
  const insert = db.prepare(
    `INSERT INTO studio_sessions (id, account_id, csrf_token, created_at, last_seen_at, expires_at, ip, user_agent, method)
     VALUES (@id, @accountId, @csrfToken, @createdAt, @lastSeenAt, @expiresAt, @ip, @userAgent, @method)`,
  );
  const byId = db.prepare<[string], SessionRow>('SELECT * FROM studio_sessions WHERE id = ?');
  // Never moves activity backwards (two nodes touching the same session out of order).
  const touch = db.prepare<[number, string, number]>(
    'UPDATE studio_sessions SET last_seen_at = ? WHERE id = ? AND last_seen_at < ?',
  );
  const remove = db.prepare<[string]>('DELETE FROM studio_sessions WHERE id = ?');
  const removeOf = db.prepare<[string, string]>('DELETE FROM studio_sessions WHERE account_id = ? AND id <> ?');
  const of = db.prepare<[string], SessionRow>(
    'SELECT * FROM studio_sessions WHERE account_id = ? ORDER BY last_seen_at DESC, id',
  );
  const purge = db.prepare<[number, number]>('DELETE FROM studio_sessions WHERE expires_at <= ? OR last_seen_at <= ?');
  return {
    async createSession(session) {
      insert.run(session);
    },
    async sessionById(id) {
      const row = byId.get(id);
      return row ? toSession(row) : null;
    },
    async touchSession(id, at) {
      touch.run(at, id, at);
    },
    async deleteSession(id) {
      return remove.run(id).changes === 1;
    },
    async deleteSessionsOf(accountId, except) {
      return removeOf.run(accountId, except ?? '').changes;
    },
    async listSessions(accountId) {
      return of.all(accountId).map(toSession);
    },
    async purgeExpiredSessions(now, idleMs) {
      return purge.run(now, now - idleMs).changes;
    },
  };
}
