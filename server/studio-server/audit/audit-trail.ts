import { randomBytes } from 'node:crypto';
import type { AuditEntry, AuditEntryInput, AuditLog, AuditQuery, AuditStore } from '../../ports/audit.ts';

/** Detail keys that could carry a secret: their values are never kept, whichever room sent them. */
const SECRET_KEYS = new Set([
  'password',
  'newpassword',
  'secret',
  'value',
  'token',
  'apikey',
  'clientsecret',
  'accesstoken',
  'refreshtoken',
  'idtoken',
  'cookie',
  'authorization',
  'csrftoken',
  'passwordhash',
  'tokenhash',
]);
const MAX_STRING = 500;
const MAX_DEPTH = 6;
const MAX_KEYS = 50;

/**
 * Keeps what an entry's details may hold: plain values, bounded in depth, keys and length, and
 * no value under a key that names a secret (belt and braces: rooms name secrets, never send them).
 */
export function cleanDetails(value: unknown, depth = 0): unknown {
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'string') return value.length > MAX_STRING ? `${value.slice(0, MAX_STRING)}…` : value;
  if (depth >= MAX_DEPTH) return '…';
  if (Array.isArray(value)) return value.slice(0, MAX_KEYS).map((item) => cleanDetails(item, depth + 1));
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value).slice(0, MAX_KEYS)) {
      out[key] = SECRET_KEYS.has(key.toLowerCase().replace(/[^a-z]/g, ''))
        ? '[redacted]'
        : cleanDetails(item, depth + 1);
    }
    return out;
  }
  return String(value).slice(0, MAX_STRING);
}

/**
 * The audit room: appends entries with an id that sorts as they were recorded (the time, then a
 * counter of this process, then randomness so two nodes never collide).
 */
export function auditLog(store: AuditStore, now: () => number): AuditLog {
  let counter = 0;
  let lastAt = 0;
  return {
    async record(input: AuditEntryInput) {
      // Never earlier than the last entry of this process, so ids and times agree even if the clock steps back.
      const at = Math.max(now(), lastAt);
      counter = at === lastAt ? counter + 1 : 0;
      lastAt = at;
      const id = `${String(at).padStart(13, '0')}-${counter.toString(36).padStart(4, '0')}-${randomBytes(4).toString('hex')}`;
      const entry: AuditEntry = {
        id,
        at,
        actor: {
          kind: input.actor.kind,
          ...(input.actor.accountId ? { accountId: input.actor.accountId } : {}),
          ...(input.actor.email ? { email: input.actor.email } : {}),
        },
        ...(input.ip ? { ip: input.ip } : {}),
        action: input.action.slice(0, 64),
        ...(input.target !== undefined ? { target: input.target.slice(0, 256) } : {}),
        ...(input.details ? { details: cleanDetails(input.details) as Record<string, unknown> } : {}),
      };
      await store.appendAudit(entry);
    },
    read: (query: AuditQuery) => store.readAudit(query),
  };
}
