import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { retentionJobHandler } from '../../jobs/handlers/retention.ts';
import { createLogger } from '../../logger.ts';
import { openSqliteStore } from '../../stores/sqlite/sqlite-store.ts';
import { sqliteAudit } from '../../stores/sqlite/sqlite-audit.ts';
import { startTestServer, storeLegs, TEST_FUNCTION_KEY, type TestServer } from '../../test/start-test-server.ts';
import { auditLog } from '../audit/audit-trail.ts';
import { setUpOwner, StudioClient } from './studio-client.ts';

const DAY = 86_400_000;
const keyed = { headers: { 'x-functions-key': TEST_FUNCTION_KEY } };

for (const leg of storeLegs()) {
  describe.skipIf(leg.skip)(`the audit trail through the management API (${leg.name})`, () => {
    let server: TestServer;

    beforeAll(async () => {
      server = await startTestServer(leg.env());
      await setUpOwner(server.url, server.studio.setupLink!);
      await new StudioClient(server.url).login('owner@example.com', 'a wrong password, typed in haste');
    }, 60_000);
    afterAll(async () => {
      await server?.stop();
    });

    it('when the trail is exported with the function key, then it lists who did what, when and from where, oldest first', async () => {
      const res = await fetch(`${server.url}/api/management/audit`, keyed);
      expect(res.status).toBe(200);
      const records = (await res.json()) as Array<Record<string, unknown>>;
      // The first start imports and publishes the bot's file before anyone signs in.
      expect(records.map((r) => r.action)).toEqual([
        'version_imported',
        'published',
        'setup_link_created',
        'account_created',
        'login',
        'login_failed',
      ]);
      expect(records[0]).toMatchObject({ actorKind: 'file', action: 'version_imported' });
      expect(records[5]).toMatchObject({
        actorKind: 'account',
        actorEmail: 'owner@example.com',
        ip: '127.0.0.1',
        action: 'login_failed',
        timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      });
      expect(JSON.stringify(records)).not.toContain('a wrong password');
      expect((await fetch(`${server.url}/api/management/audit`)).status).toBe(401);
    });

    it('when the trail is read in pages and as CSV, then pages follow X-Next-Cursor without gaps or repeats', async () => {
      const seen: string[] = [];
      let url = `${server.url}/api/management/audit?limit=1`;
      for (let page = 0; page < 10; page++) {
        const res = await fetch(url, keyed);
        seen.push(...((await res.json()) as Array<{ id: string }>).map((r) => r.id));
        const next = res.headers.get('x-next-cursor');
        if (!next) break;
        url = `${server.url}/api/management/audit?limit=1&cursor=${next}`;
      }
      expect(seen).toHaveLength(6);
      expect(new Set(seen).size).toBe(6);
      const csv = await (await fetch(`${server.url}/api/management/audit?format=csv&bom=false`, keyed)).text();
      expect(csv.split('\r\n')[0]).toBe('timestamp,id,actorKind,actorAccountId,actorEmail,ip,action,target,details');
      const bad = await fetch(`${server.url}/api/management/audit?cursor=nonsense!`, keyed);
      expect(bad.status).toBe(400);
      expect((await fetch(`${server.url}/api/management/audit?colour=red`, keyed)).status).toBe(400);
    });

    it('when a user is erased through the management API, then the trail records the erasure by the key, with a digest and not the id', async () => {
      const res = await fetch(`${server.url}/api/management/users/erase-me-42`, { method: 'DELETE', ...keyed });
      expect(res.status).toBe(200);
      const records = (await (await fetch(`${server.url}/api/management/audit`, keyed)).json()) as Array<
        Record<string, unknown>
      >;
      const erasure = records.find((r) => r.action === 'user_erased');
      expect(erasure).toMatchObject({
        actorKind: 'key',
        ip: '127.0.0.1',
        target: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
      });
      expect(JSON.stringify(records)).not.toContain('erase-me-42');
    });
  });
}

describe('retention of the audit trail', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'audit-retention-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('when RETENTION_AUDIT_DAYS is 30, then the hourly run removes entries older than 30 days and keeps the rest', async () => {
    const store = openSqliteStore({ file: path.join(dir, 'store.db') });
    const now = Date.UTC(2026, 5, 1);
    let clock = now - 40 * DAY;
    const rooms = sqliteAudit(store.db);
    const trail = auditLog(rooms, () => clock);
    await trail.record({ actor: { kind: 'system' }, action: 'old' });
    clock = now - 10 * DAY;
    await trail.record({ actor: { kind: 'system' }, action: 'recent' });
    const run = retentionJobHandler({
      store,
      clock: { now: () => now },
      logger: createLogger('silent'),
      settings: { auditDays: 30 },
      audit: rooms,
    });
    await run({ id: 'retention', kind: 'retention', payload: {}, attempts: 1, maxAttempts: 5, runAt: now } as never);
    expect((await trail.read({ limit: 10 })).map((e) => e.action)).toEqual(['recent']);
    await store.close();
  });
});
