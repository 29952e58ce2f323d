import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, storeLegs, type TestServer } from '../../../test/start-test-server.ts';
import { BOT_ID, KEY, encodeAddress, seedUser, snapshotStore, startManagementServer } from './helpers.ts';

interface Case {
  readonly title: string;
  readonly method?: string;
  readonly path: string;
  readonly key?: string | null;
  readonly headers?: Record<string, string>;
  readonly body?: string;
  readonly status: number;
  readonly code: string;
}

const addr = (value: unknown) => encodeAddress(value);
const victim = (user: string) => addr({ bot: BOT_ID, user, channelId: 'webchat' });
const json = { 'content-type': 'application/json' };

const CASES: Case[] = [
  { title: 'a missing key', path: '/api/management/export/userData', key: null, status: 401, code: 'unauthorized' },
  {
    title: 'a wrong key',
    path: '/api/management/export/userData',
    key: 'wrong-key-0123456789abcdef',
    status: 401,
    code: 'unauthorized',
  },
  {
    title: 'a missing key on a trigger',
    method: 'POST',
    path: `/api/management/trigger/${victim('bad-0')}/operationFailed`,
    key: null,
    status: 401,
    code: 'unauthorized',
  },
  {
    title: 'a timestamp that is not an integer',
    path: '/api/management/export/userData?fromTimestamp=12.5',
    status: 400,
    code: 'invalid_parameter',
  },
  {
    title: 'a timestamp in words',
    path: '/api/management/export/nlpLog?toTimestamp=yesterday',
    status: 400,
    code: 'invalid_parameter',
  },
  {
    title: 'a negative timestamp',
    path: '/api/management/export/userData?fromTimestamp=-1',
    status: 400,
    code: 'invalid_parameter',
  },
  {
    title: 'from > to',
    path: '/api/management/export/userData?fromTimestamp=200&toTimestamp=100',
    status: 400,
    code: 'invalid_parameter',
  },
  {
    title: 'an unknown where-field',
    path: '/api/management/export/userData?whereShoeSize=42',
    status: 400,
    code: 'invalid_parameter',
  },
  {
    title: 'an unknown notEmpty field',
    path: '/api/management/export/userDataSnapshot?notEmpty=shoeSize',
    status: 400,
    code: 'invalid_parameter',
  },
  {
    title: 'a where filter on a log export',
    path: '/api/management/export/nlpLog?whereEmail=x',
    status: 400,
    code: 'invalid_parameter',
  },
  { title: 'a limit of 0', path: '/api/management/export/userData?limit=0', status: 400, code: 'invalid_parameter' },
  {
    title: 'a limit over 10000',
    path: '/api/management/export/userData?limit=10001',
    status: 400,
    code: 'invalid_parameter',
  },
  {
    title: 'a forged cursor',
    path: '/api/management/export/userData?cursor=abc',
    status: 400,
    code: 'invalid_parameter',
  },
  { title: 'an unknown export name', path: '/api/management/export/passwords', status: 404, code: 'not_found' },
  {
    title: 'a wrong method on an export',
    method: 'POST',
    path: '/api/management/export/userData',
    status: 405,
    code: 'method_not_allowed',
  },
  { title: 'a wrong method on /metrics', method: 'POST', path: '/metrics', status: 405, code: 'method_not_allowed' },
  {
    title: 'a wrong method on the OpenAPI document',
    method: 'DELETE',
    path: '/api/management/openapi.json',
    key: null,
    status: 405,
    code: 'method_not_allowed',
  },
  {
    title: 'a wrong method on a trigger',
    method: 'GET',
    path: `/api/management/trigger/${victim('bad-1')}/operationFailed`,
    status: 405,
    code: 'method_not_allowed',
  },
  {
    title: 'bad base64',
    method: 'POST',
    path: '/api/management/trigger/%%%not*base64/operationFailed',
    status: 400,
    code: 'invalid_parameter',
  },
  {
    title: 'base64 with stray characters',
    method: 'POST',
    path: '/api/management/trigger/ab$cd/operationFailed',
    status: 400,
    code: 'invalid_address',
  },
  {
    title: 'base64 of something that is not JSON',
    method: 'POST',
    path: `/api/management/trigger/${Buffer.from('hello there').toString('base64')}/operationFailed`,
    status: 400,
    code: 'invalid_address',
  },
  {
    title: 'JSON without bot',
    method: 'POST',
    path: `/api/management/trigger/${addr({ user: 'bad-2', channelId: 'webchat' })}/operationFailed`,
    status: 400,
    code: 'invalid_address',
  },
  {
    title: 'JSON without user',
    method: 'POST',
    path: `/api/management/trigger/${addr({ bot: BOT_ID, channelId: 'webchat' })}/operationFailed`,
    status: 400,
    code: 'invalid_address',
  },
  {
    title: 'JSON without channelId',
    method: 'POST',
    path: `/api/management/trigger/${addr({ bot: BOT_ID, user: 'bad-3' })}/operationFailed`,
    status: 400,
    code: 'invalid_address',
  },
  {
    title: 'a JSON array address',
    method: 'POST',
    path: `/api/management/trigger/${addr([BOT_ID])}/operationFailed`,
    status: 400,
    code: 'invalid_address',
  },
  {
    title: "another bot's id",
    method: 'POST',
    path: `/api/management/trigger/${addr({ bot: 'other-bot', user: 'bad-4', channelId: 'webchat' })}/operationFailed`,
    status: 404,
    code: 'bot_not_found',
  },
  {
    title: "another bot's id in the short form",
    method: 'POST',
    path: '/api/trigger/other-bot/operationFailed?userId=bad-5',
    status: 404,
    code: 'bot_not_found',
  },
  {
    title: 'an unknown dialog',
    method: 'POST',
    path: `/api/management/trigger/${victim('bad-6')}/noSuchDialog`,
    status: 404,
    code: 'dialog_not_found',
  },
  {
    title: 'a mode other than clear',
    method: 'POST',
    path: `/api/management/trigger/${victim('bad-7')}/operationFailed/wipe`,
    status: 400,
    code: 'invalid_parameter',
  },
  {
    title: 'a short form without userId',
    method: 'POST',
    path: `/api/trigger/${BOT_ID}/operationFailed`,
    status: 400,
    code: 'invalid_parameter',
  },
  {
    title: 'a body that is not JSON',
    method: 'POST',
    path: `/api/management/trigger/${victim('bad-8')}/operationFailed`,
    headers: json,
    body: '{"transactionId":',
    status: 400,
    code: 'invalid_body',
  },
  {
    title: 'a JSON array body',
    method: 'POST',
    path: `/api/management/trigger/${victim('bad-9')}/operationFailed`,
    headers: json,
    body: '[1,2]',
    status: 400,
    code: 'invalid_body',
  },
  {
    title: 'a JSON string body',
    method: 'POST',
    path: `/api/management/trigger/${victim('bad-10')}/operationFailed`,
    headers: json,
    body: '"hi"',
    status: 400,
    code: 'invalid_body',
  },
  {
    title: 'a 70 KiB body',
    method: 'POST',
    path: `/api/management/trigger/${victim('bad-11')}/operationFailed`,
    headers: json,
    body: JSON.stringify({ blob: 'x'.repeat(70 * 1024) }),
    status: 413,
    code: 'payload_too_large',
  },
  {
    title: 'a body that is not JSON by content type',
    method: 'POST',
    path: `/api/management/trigger/${victim('bad-12')}/operationFailed`,
    headers: { 'content-type': 'text/plain' },
    body: 'hello',
    status: 415,
    code: 'unsupported_media_type',
  },
];

const TRIGGERED_USERS = Array.from({ length: 13 }, (_, i) => `bad-${i}`);

for (const leg of storeLegs()) {
  describe.skipIf(leg.skip)(`bad input (${leg.name})`, () => {
    let server: TestServer;
    let before: string;

    beforeAll(async () => {
      server = await startManagementServer(leg.env());
      await seedUser(server.store, 'existing', Date.UTC(2026, 0, 1), { email: 'a@example.com' });
      before = await snapshotStore(server.store, ['existing', ...TRIGGERED_USERS]);
    });
    afterAll(async () => {
      await server?.stop();
    });

    for (const c of CASES) {
      it(`when ${c.title} is sent, then ${c.status} ${c.code}`, async () => {
        const headers: Record<string, string> = { ...c.headers };
        if (c.key !== null) headers['x-functions-key'] = c.key ?? KEY;
        const res = await fetch(`${server.url}${c.path}`, { method: c.method ?? 'GET', headers, body: c.body });
        expect(res.status).toBe(c.status);
        const body = (await res.json()) as { error: { code: string; message: string } };
        expect(body.error.code).toBe(c.code);
        expect(body.error.message.length).toBeGreaterThan(10);
        if (c.status === 405) expect(res.headers.get('allow')).toBeTruthy();
        expect(JSON.stringify(body)).not.toContain(KEY);
      });
    }

    it('when every bad request has been answered, then no data changed and the key is in no log line', async () => {
      // A good trigger behind them: once it has run, any job a bad request had slipped in would have run too.
      const res = await fetch(`${server.url}/api/trigger/${BOT_ID}/operationFailed?userId=sentinel&code=${KEY}`, {
        method: 'POST',
      });
      expect(res.status).toBe(202);
      await eventually(
        'the sentinel trigger',
        async () => (await server.store.readTranscript('sentinel', 0, 10)).length > 0,
      );
      const after = await snapshotStore(server.store, ['existing', ...TRIGGERED_USERS]);
      const withoutSentinel = JSON.parse(after) as { users: unknown[]; extra: unknown[] };
      expect(JSON.stringify(withoutSentinel)).toBe(before);
      expect(server.logText()).not.toContain(KEY);
    });
  });
}
