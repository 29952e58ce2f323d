import { randomUUID } from 'node:crypto';
import type { Database } from './database.ts';
import type { Leases } from '../../ports/leases.ts';

/*
 * One row per held key. Each call is one statement or one immediate
 * transaction, so processes sharing the file see one holder at a time.
 */
export function sqliteLeases(db: Database): Leases {
  // Takes a free or run-out key in one statement: the conflict branch only fires on a run-out lease.
  const take = db.prepare<
    [{ key: string; token: string; owner: string; until: number; now: number }],
    { token: string }
  >(
    `INSERT INTO leases (key, token, owner, until) VALUES (@key, @token, @owner, @until)
     ON CONFLICT (key) DO UPDATE SET token = excluded.token, owner = excluded.owner, until = excluded.until
       WHERE leases.until <= @now
     RETURNING token`,
  );
  // A run-out lease nobody took yet is still the holder's: the token alone decides.
  const renew = db.prepare<[{ key: string; token: string; until: number }]>(
    'UPDATE leases SET until = @until WHERE key = @key AND token = @token',
  );
  const release = db.prepare<[{ key: string; token: string }]>(
    'DELETE FROM leases WHERE key = @key AND token = @token',
  );

  return {
    async acquireLease(key, owner, ttlMs, now) {
      const token = randomUUID();
      const until = now + ttlMs;
      const row = take.get({ key, token, owner, until, now });
      return row?.token === token ? { token, until } : null;
    },
    async renewLease(key, token, ttlMs, now) {
      return renew.run({ key, token, until: now + ttlMs }).changes === 1;
    },
    async releaseLease(key, token) {
      release.run({ key, token });
    },
  };
}
