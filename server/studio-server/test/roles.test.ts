import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../ports/roles.ts';
import { startTestServer, type TestServer } from '../../test/start-test-server.ts';
import { invite, PASSWORD, setUpOwner, StudioClient } from './studio-client.ts';

/**
 * Each role signs in over real HTTP and tries every people-side route: what it may do answers
 * 2xx, what it may not answers 403 `forbidden` naming the role needed.
 */
describe('the studio API by role', () => {
  let server: TestServer;
  const as = {} as Record<Role, StudioClient>;

  beforeAll(async () => {
    server = await startTestServer();
    as.owner = await setUpOwner(server.url, server.studio.setupLink!);
    for (const role of ['editor', 'analyst', 'viewer'] as const)
      as[role] = await invite(as.owner, `${role}@example.com`, role);
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('when each role reads its session, then it is told its own account and role and gets a CSRF token', async () => {
    for (const role of ['owner', 'editor', 'analyst', 'viewer'] as const) {
      const res = await as[role].get('/studio/api/session');
      expect(res.status).toBe(200);
      expect(res.body.account).toMatchObject({ email: `${role === 'owner' ? 'owner' : role}@example.com`, role });
      expect(res.body.csrfToken).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    }
  });

  it('when a role other than owner lists accounts, invites someone, changes a role or reads the audit trail, then it gets 403 forbidden naming the owner role', async () => {
    const editorId = (await as.owner.get('/studio/api/accounts')).body.accounts.find(
      (a: { role: string }) => a.role === 'editor',
    ).id;
    for (const role of ['editor', 'analyst', 'viewer'] as const) {
      const attempts = [
        await as[role].get('/studio/api/accounts'),
        await as[role].post('/studio/api/accounts', { email: 'x@example.com', role: 'owner' }),
        await as[role].patch(`/studio/api/accounts/${editorId}`, { role: 'owner' }),
        await as[role].delete(`/studio/api/accounts/${editorId}`),
        await as[role].get('/studio/api/audit'),
      ];
      for (const res of attempts) {
        expect(res.status).toBe(403);
        expect(res.body.error).toMatchObject({ code: 'forbidden', details: { needed: ['owner'], role } });
        expect(res.body.error.message).toContain('the owner role');
        expect(res.body.error.requestId).toEqual(expect.any(String));
      }
    }
  });

  it('when each role lists, sets and deletes secrets, then owners do all, editors only list, analysts and viewers nothing', async () => {
    expect((await as.owner.put('/studio/api/secrets/ROLE_TEST_TOKEN', { value: 'role-test-value-123' })).status).toBe(
      200,
    );
    expect((await as.owner.get('/studio/api/secrets')).status).toBe(200);
    expect((await as.editor.get('/studio/api/secrets')).status).toBe(200);
    const editorSet = await as.editor.put('/studio/api/secrets/ROLE_TEST_TOKEN', { value: 'x' });
    expect(editorSet.status).toBe(403);
    expect(editorSet.body.error.details.needed).toEqual(['owner']);
    expect((await as.editor.delete('/studio/api/secrets/ROLE_TEST_TOKEN')).status).toBe(403);
    for (const role of ['analyst', 'viewer'] as const) {
      const list = await as[role].get('/studio/api/secrets');
      expect(list.status).toBe(403);
      expect(list.body.error).toMatchObject({ code: 'forbidden', details: { needed: ['owner', 'editor'], role } });
      expect(list.body.error.message).toContain('the owner or editor role');
      expect((await as[role].put('/studio/api/secrets/ROLE_TEST_TOKEN', { value: 'x' })).status).toBe(403);
    }
    expect((await as.owner.delete('/studio/api/secrets/ROLE_TEST_TOKEN')).status).toBe(200);
  });

  it('when the owner lists accounts, changes a role and reads the audit trail, then each works and the change is in the trail', async () => {
    const list = await as.owner.get('/studio/api/accounts');
    expect(list.status).toBe(200);
    expect(list.body.accounts.map((a: { role: string }) => a.role).sort()).toEqual([
      'analyst',
      'editor',
      'owner',
      'viewer',
    ]);
    expect(JSON.stringify(list.body)).not.toContain('argon2');
    const viewer = list.body.accounts.find((a: { role: string }) => a.role === 'viewer');
    const changed = await as.owner.patch(`/studio/api/accounts/${viewer.id}`, { role: 'analyst' });
    expect(changed.status).toBe(200);
    expect(changed.body.role).toBe('analyst');
    // The viewer's next request already carries the new role.
    expect((await as.viewer.get('/studio/api/session')).body.account.role).toBe('analyst');
    await as.owner.patch(`/studio/api/accounts/${viewer.id}`, { role: 'viewer' });
    const trail = await as.owner.get('/studio/api/audit?limit=1000');
    expect(trail.status).toBe(200);
    const actions = trail.body.entries.map((e: { action: string }) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['setup_link_created', 'account_created', 'login', 'role_changed']));
    const roleChange = trail.body.entries.find((e: { action: string }) => e.action === 'role_changed');
    expect(roleChange).toMatchObject({
      actor: { kind: 'account', email: 'owner@example.com' },
      ip: '127.0.0.1',
      target: viewer.id,
      details: { from: 'viewer', to: 'analyst' },
    });
  });

  it('when any role makes, lists and revokes its own API token, then it works and the token signs in with that role until revoked', async () => {
    for (const role of ['owner', 'editor', 'analyst', 'viewer'] as const) {
      const made = await as[role].post('/studio/api/tokens', { name: `${role} CI` });
      expect(made.status).toBe(201);
      expect(made.body.token).toMatch(/^cbst_/);
      const listed = await as[role].get('/studio/api/tokens');
      expect(listed.body.map((t: { id: string }) => t.id)).toContain(made.body.id);
      expect(listed.text).not.toContain(made.body.token);
      const bot = new StudioClient(server.url);
      bot.bearer = made.body.token;
      expect((await bot.get('/studio/api/session')).body.account.role).toBe(role);
      expect((await as[role].delete(`/studio/api/tokens/${made.body.id}`)).status).toBe(204);
      const after = await bot.get('/studio/api/session');
      expect(after.status).toBe(401);
      expect(after.body.error.code).toBe('unauthenticated');
    }
  });

  it('when an API token of a viewer is used for an owner route, then it is refused like the viewer', async () => {
    const made = await as.viewer.post('/studio/api/tokens', { name: 'viewer script' });
    const bot = new StudioClient(server.url);
    bot.bearer = made.body.token;
    const res = await bot.get('/studio/api/accounts');
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('forbidden');
  });

  it('when nobody is signed in, then every guarded route answers 401 unauthenticated', async () => {
    const stranger = new StudioClient(server.url);
    for (const res of [
      await stranger.get('/studio/api/session'),
      await stranger.get('/studio/api/accounts'),
      await stranger.get('/studio/api/tokens'),
      await stranger.post('/studio/api/logout'),
    ]) {
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('unauthenticated');
    }
  });

  it('when the only owner would lose the role or be deleted, then it is refused with last_owner', async () => {
    const list = await as.owner.get('/studio/api/accounts');
    const ownerId = list.body.accounts.find((a: { role: string }) => a.role === 'owner').id;
    const res = await as.owner.patch(`/studio/api/accounts/${ownerId}`, { role: 'editor' });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('last_owner');
  });

  it('when someone signs in with a wrong password, then 401 invalid_credentials, and the failure is in the audit trail without the password', async () => {
    const someone = new StudioClient(server.url);
    const wrong = await someone.login('editor@example.com', 'not the password at all');
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.code).toBe('invalid_credentials');
    const unknown = await someone.login('nobody@example.com', 'not the password at all');
    expect(unknown.status).toBe(401);
    expect(unknown.body.error.message).toBe(wrong.body.error.message);
    const right = await someone.login('editor@example.com', PASSWORD);
    expect(right.status).toBe(200);
    const trail = (await as.owner.get('/studio/api/audit?limit=1000')).text;
    expect(trail).toContain('login_failed');
    expect(trail).not.toContain('not the password at all');
  });
});
