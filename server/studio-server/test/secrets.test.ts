import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPORT_NAMES } from '../../app/export-records.ts';
import { json, startUpstream, type Upstream } from '../../integrations/test/upstream.ts';
import {
  eventually,
  startTestServer,
  storeLegs,
  TEST_FUNCTION_KEY,
  type TestServer,
} from '../../test/start-test-server.ts';
import { findSecret } from './secret-search.ts';
import { invite, setUpOwner, type StudioClient } from './studio-client.ts';

/** Characters that every encoding changes: a slash, a plus, an equals sign, quotes. */
const SECRET = 'studio-secret/Tok+en="x9"-7f3a';
const SECOND = 'second-secret/Rot+ated=="y8"';

const bot = (withCrm: boolean, upstream: string) => ({
  settings: { id: 'secrets-bot', name: 'Secrets bot', startDialog: 'home' },
  ...(withCrm
    ? {
        integrations: {
          services: { crm: { baseUrl: `${upstream}/`, auth: { type: 'bearer', tokenEnv: 'CRM_TOKEN' } } },
        },
      }
    : {}),
  dialogs: [
    {
      id: 'home',
      steps: [
        { id: 'hi', type: 'message', text: 'Home.' },
        { id: 'end', type: 'end' },
      ],
    },
    ...(withCrm
      ? [
          {
            id: 'lookup',
            steps: [
              {
                id: 'call',
                type: 'integration',
                integration: 'listUserEvents',
                service: 'crm',
                params: { userId: '{{userId}}' },
                output: 'events',
                onError: 'flag:failed',
              },
              { id: 'say', type: 'message', text: 'Looked up.' },
              { id: 'end', type: 'end' },
            ],
          },
        ]
      : []),
  ],
});

for (const leg of storeLegs()) {
  describe.skipIf(leg.skip)(`a secret set in the studio (${leg.name})`, () => {
    let upstream: Upstream;
    let server: TestServer;
    let owner: StudioClient;
    let editor: StudioClient;
    let file: string;
    const everything: string[] = [];

    const trigger = async (userId: string) => {
      const res = await fetch(`${server.url}/api/trigger/secrets-bot/lookup?userId=${userId}`, {
        method: 'POST',
        headers: { 'x-functions-key': TEST_FUNCTION_KEY },
      });
      everything.push(await res.text());
      expect(res.status).toBe(202);
    };

    beforeAll(async () => {
      upstream = await startUpstream((_req, res) => json(res, 200, []));
      file = path.join(await mkdtemp(path.join(tmpdir(), 'secrets-bot-')), 'bot.json');
      await writeFile(file, JSON.stringify(bot(false, upstream.url)));
      server = await startTestServer({
        ...leg.env(),
        BOT_DEFINITION: file,
        INTEGRATION_ALLOWED_HOSTS: '127.0.0.1',
        SECRETS_KEY: 'a-secrets-key-for-tests-0123456789abcdef',
      });
      owner = await setUpOwner(server.url, server.studio.setupLink!);
      editor = await invite(owner, 'editor@example.com', 'editor');
    }, 60_000);
    afterAll(async () => {
      await server?.stop();
      await upstream?.close();
    });

    it('when the owner sets a secret the definition then names, then an integration call authenticates with it', async () => {
      const set = await owner.put('/studio/api/secrets/CRM_TOKEN', { value: SECRET });
      expect(set.status).toBe(200);
      expect(set.body).toMatchObject({ name: 'CRM_TOKEN', set: true, fromEnvironment: false });
      await writeFile(file, JSON.stringify(bot(true, upstream.url)));
      expect(await server.reload()).toEqual({ ok: true });
      await trigger('u-1');
      const call = await eventually(
        'the call to the CRM',
        () => upstream.seen.find((req) => req.url.includes('/u-1/')),
        10_000,
      );
      expect(call.headers.authorization).toBe(`Bearer ${SECRET}`);
    });

    it('when the owner changes the secret, then the bot in service uses the new value at its next call, without a restart', async () => {
      const set = await owner.put('/studio/api/secrets/CRM_TOKEN', { value: SECOND });
      expect(set.body.botReloaded).toBe(true);
      await trigger('u-2');
      const call = await eventually(
        'the call to the CRM',
        () => upstream.seen.find((req) => req.url.includes('/u-2/')),
        10_000,
      );
      expect(call.headers.authorization).toBe(`Bearer ${SECOND}`);
      await owner.put('/studio/api/secrets/CRM_TOKEN', { value: SECRET });
    });

    it('when an editor lists secrets, then it sees the name and status but no value, and may not set one', async () => {
      const list = await editor.get('/studio/api/secrets');
      expect(list.status).toBe(200);
      expect(list.body).toEqual([
        { name: 'CRM_TOKEN', set: true, fromEnvironment: false, usedBy: ['integrations.services.crm.auth.tokenEnv'] },
      ]);
      const refused = await editor.put('/studio/api/secrets/CRM_TOKEN', { value: 'editor-was-here' });
      expect(refused.status).toBe(403);
      expect(refused.body.error).toMatchObject({ code: 'forbidden', details: { needed: ['owner'] } });
      const owners = await owner.get('/studio/api/secrets');
      expect(owners.body[0]).toMatchObject({
        name: 'CRM_TOKEN',
        updatedBy: 'owner@example.com',
        updatedAt: expect.any(String),
      });
    });

    it('when bad secret requests come, then each gets a catalogue error that does not echo the value', async () => {
      const badName = await owner.put('/studio/api/secrets/crm-token', { value: SECRET });
      expect(badName.status).toBe(400);
      const unknownKey = await owner.put('/studio/api/secrets/CRM_TOKEN', { value: SECRET, [SECRET]: 1 });
      expect(unknownKey.status).toBe(400);
      const tooLong = await owner.put('/studio/api/secrets/CRM_TOKEN', { value: SECRET.repeat(2000) });
      expect(tooLong.status).toBe(400);
      const notJson = await owner.request('PUT', '/studio/api/secrets/CRM_TOKEN', `{"value":"${SECRET}"`, {
        'content-type': 'application/json',
      });
      expect(notJson.status).toBe(400);
      for (const res of [badName, unknownKey, tooLong, notJson]) expect(findSecret(res.text, SECRET)).toEqual([]);
    });

    it('when every answer, log line, audit entry, export and the definition are searched, then the secret is in none, in any encoding', async () => {
      for (const name of EXPORT_NAMES) {
        const res = await fetch(`${server.url}/api/management/export/${name}`, {
          headers: { 'x-functions-key': TEST_FUNCTION_KEY },
        });
        expect(res.status).toBe(200);
        everything.push(await res.text());
      }
      const audit = await owner.get('/studio/api/audit?limit=1000');
      expect(
        audit.body.entries
          .filter((e: { action: string }) => e.action === 'secret_set')
          .map((e: { target: string }) => e.target),
      ).toEqual(['CRM_TOKEN', 'CRM_TOKEN', 'CRM_TOKEN']);
      everything.push(JSON.stringify(await server.studio.rooms.audit.read({ limit: 10_000 })));
      for (const url of ['/api/management/openapi.json', '/studio/', '/definition.schema.json'])
        everything.push(await (await fetch(`${server.url}${url}`)).text());
      for (const client of [owner, editor])
        everything.push(...client.answers.map((answer) => `${[...answer.headers].join('\n')}\n${answer.text}`));
      everything.push(server.logText());
      everything.push(await readFile(file, 'utf8'));
      const haystack = everything.join('\n');
      expect(haystack.length).toBeGreaterThan(10_000);
      // The search itself finds what it looks for.
      expect(findSecret(`x ${Buffer.from(`Bearer ${SECRET}`).toString('base64')} y`, SECRET)).not.toEqual([]);
      expect(findSecret(haystack, SECRET)).toEqual([]);
      expect(findSecret(haystack, SECOND)).toEqual([]);
      // Only the CRM ever saw it, and the store holds it sealed.
      expect(upstream.seen.some((req) => req.headers.authorization === `Bearer ${SECRET}`)).toBe(true);
      const stored = JSON.stringify(await server.studio.rooms.rooms.secrets.listSecrets());
      expect(findSecret(stored, SECRET)).toEqual([]);
    });
  });
}
