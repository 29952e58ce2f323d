import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BotMessage } from '../../shared/protocol.ts';
import { json, startUpstream, type Upstream } from '../integrations/test/upstream.ts';
import { connectClient, eventually, startTestServer, storeLegs, TEST_FUNCTION_KEY, type TestClient, type TestServer } from '../test/start-test-server.ts';

const TOKEN = 'bot-wide-token-3c1f9a';
const PASSWORD = 'basic-password-77e2d1';
const CLIENT_SECRET = 'oauth-client-secret-4b8e60';
const ISSUED = 'issued-access-token-a91d0c';
const USER_TOKEN = 'user-token-5d2e77';
const SECRETS = [TOKEN, PASSWORD, CLIENT_SECRET, ISSUED, USER_TOKEN];

/**
 * A bot's own module, as a customer writes it: a plain default export, no import from the product.
 * It is "advanced" (spec 1.1): two calls, their answers combined into one output.
 */
const MODULE = `
/** @type {import('${path.resolve('server/integrations/define-step-type.ts')}').StepTypeModule} */
export default {
  name: 'memberPoints',
  level: 'action',
  description: 'Reads a member and their tier, and returns points and tier together.',
  params: {
    type: 'object',
    properties: { member: { type: 'string', minLength: 1 }, mode: { enum: ['ok', 'throw', 'shape', 'hang'], default: 'ok' } },
    required: ['member'],
    additionalProperties: false,
  },
  output: {
    type: 'object',
    properties: { points: { type: 'integer' }, tier: { type: 'string' } },
    required: ['points', 'tier'],
    additionalProperties: false,
  },
  async call({ params, request, log }) {
    if (params.mode === 'throw') throw new Error('the CRM knows no member ' + params.member);
    if (params.mode === 'hang') await new Promise(() => {});
    const member = await request({ method: 'GET', url: 'members/' + encodeURIComponent(params.member) });
    const tier = await request({ method: 'POST', url: 'tiers/lookup', json: { points: member.body.points } });
    log.info('member points read');
    if (params.mode === 'shape') return { points: String(member.body.points) };
    return { points: member.body.points, tier: tier.body.tier };
  },
};
`;

const AUTH_KINDS = ['basic', 'bearer', 'user', 'oauth'] as const;
const FAILURES = { throw: 'step\\_code', shape: 'invalid\\_body', hang: 'timeout' } as const;
const POLICIES = ['fatal', 'dialog', 'flag'] as const;

function definition(up: string) {
  const api = `${up}/api/`;
  const authDialogs = AUTH_KINDS.map((service) => ({
    id: `points-${service}`,
    steps: [
      { id: 'call', type: 'integration', integration: 'memberPoints', service, params: { member: '{{userId}}' }, output: 'pts' },
      { id: 'say', type: 'message', text: 'You have {{pts.points}} points ({{pts.tier}}).' },
      { id: 'end', type: 'end' },
    ],
  }));
  const failing = Object.keys(FAILURES).flatMap((mode) =>
    POLICIES.map((policy) => ({
      id: `${mode}-${policy}`,
      steps: [
        {
          id: 'call',
          type: 'integration',
          integration: 'memberPoints',
          service: 'bearer',
          params: { member: 'm-1', mode },
          timeoutMs: 300,
          onError: policy === 'fatal' ? 'fatal' : policy === 'dialog' ? 'dialog:rescued' : 'flag:broke',
          ...(policy === 'fatal' ? { errorText: 'Points are out of reach.' } : {}),
        },
        { id: 'check', type: 'condition', branches: [{ when: { variable: 'broke', op: 'equals', value: true }, then: 'flagged' }] },
        { id: 'fine', type: 'message', text: 'Not flagged.', next: 'end' },
        { id: 'flagged', type: 'message', text: 'Flagged {{brokeError}}.' },
        { id: 'end', type: 'end' },
      ],
    })),
  );
  return {
    settings: { id: 'own-steps', name: 'Own step types bot', startDialog: 'home' },
    stepTypes: ['../steps/member-points.mjs'],
    integrations: {
      services: {
        basic: { baseUrl: api, auth: { type: 'basic', username: 'bot', passwordEnv: 'OWN_STEPS_PASSWORD' } },
        bearer: { baseUrl: api, auth: { type: 'bearer', tokenEnv: 'OWN_STEPS_TOKEN' } },
        user: { baseUrl: api, auth: { type: 'bearer-user' } },
        oauth: { baseUrl: api, auth: { type: 'oauth2-client-credentials', tokenUrl: `${up}/oauth/token`, clientId: 'bot-client', clientSecretEnv: 'OWN_STEPS_CLIENT_SECRET' } },
      },
    },
    dialogs: [
      { id: 'home', steps: [{ id: 'hi', type: 'message', text: 'Home.' }, { id: 'end', type: 'end' }] },
      { id: 'rescued', steps: [{ id: 'r', type: 'message', text: 'Rescued.' }, { id: 'end', type: 'end' }] },
      ...authDialogs,
      ...failing,
    ],
  };
}

for (const leg of storeLegs()) {
  describe.skipIf(leg.skip)(`a bot's own step type module (${leg.name})`, () => {
    let upstream: Upstream;
    let server: TestServer;
    let client: TestClient & { items: { from: string; message: unknown }[] };
    let dir: string;

    beforeAll(async () => {
      Object.assign(process.env, { OWN_STEPS_TOKEN: TOKEN, OWN_STEPS_PASSWORD: PASSWORD, OWN_STEPS_CLIENT_SECRET: CLIENT_SECRET });
      upstream = await startUpstream((req, res) => {
        if (req.url === '/oauth/token') return json(res, 200, { access_token: ISSUED, token_type: 'Bearer', expires_in: 3600 });
        if (req.url.startsWith('/api/members/')) return json(res, 200, { id: decodeURIComponent(req.url.slice('/api/members/'.length)), points: 1200 });
        if (req.url === '/api/tiers/lookup') return json(res, 200, { tier: (JSON.parse(req.body) as { points: number }).points >= 1000 ? 'gold' : 'silver' });
        return json(res, 404, {});
      });
      // The module sits outside the repository and beside, not under, the definition's folder.
      dir = await mkdtemp(path.join(tmpdir(), 'own-steps-'));
      await mkdir(path.join(dir, 'bot'));
      await mkdir(path.join(dir, 'steps'));
      await writeFile(path.join(dir, 'steps', 'member-points.mjs'), MODULE);
      const file = path.join(dir, 'bot', 'bot.json');
      await writeFile(file, JSON.stringify(definition(upstream.url)));
      server = await startTestServer({ ...leg.env(), BOT_DEFINITION: file, INTEGRATION_ALLOWED_HOSTS: '127.0.0.1', WEBCHAT_RATE_LIMIT: '10000' });
      client = connectClient(server.url, { user: { authToken: USER_TOKEN } });
      await new Promise((resolve) => client.once('session', resolve));
      await eventually('the greeting', () => client.items.some((i) => (i.message as BotMessage).type === 'text'));
    });
    afterAll(async () => {
      client?.disconnect();
      await server?.stop();
      await upstream?.close();
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    async function run(dialogId: string, done: (message: BotMessage) => boolean): Promise<BotMessage[]> {
      const before = client.items.length;
      await client.emitWithAck('start_dialog', { dialogId });
      const after = () => client.items.slice(before).flatMap((i) => (i.from === 'bot' ? [i.message as BotMessage] : []));
      await eventually(`the answer of ${dialogId}`, () => after().some(done));
      return after();
    }

    for (const service of AUTH_KINDS) {
      it(`when the module's step runs with ${service} auth, then both calls carry it and the combined output is saved and shown`, async () => {
        const before = upstream.seen.length;
        const messages = await run(`points-${service}`, (m) => m.type === 'text' && m.text.startsWith('You have'));
        expect(messages).toEqual([{ type: 'text', text: 'You have 1200 points (gold).' }]);
        const calls = upstream.seen.slice(before).filter((r) => r.url.startsWith('/api/'));
        expect(calls.map((r) => `${r.method} ${r.url.replace(/members\/.*/, 'members/…')}`)).toEqual(['GET /api/members/…', 'POST /api/tiers/lookup']);
        const expected = {
          basic: `Basic ${Buffer.from(`bot:${PASSWORD}`).toString('base64')}`,
          bearer: `Bearer ${TOKEN}`,
          user: `Bearer ${USER_TOKEN}`,
          oauth: `Bearer ${ISSUED}`,
        }[service];
        for (const call of calls) expect(call.headers.authorization).toBe(expected);
      });
    }

    for (const [mode, kind] of Object.entries(FAILURES)) {
      it(`when the module's code fails (${mode}), then fatal shows the notice, dialog goes there and flag sets the variable`, async () => {
        const fatal = await run(`${mode}-fatal`, (m) => m.type === 'notice');
        expect(fatal.at(-1)).toEqual({ type: 'notice', level: 'fatal', text: 'Points are out of reach.' });
        const rescued = await run(`${mode}-dialog`, (m) => m.type === 'text' && m.text === 'Rescued.');
        expect(rescued.map((m) => m.type)).toEqual(['text']);
        const flagged = await run(`${mode}-flag`, (m) => m.type === 'text' && m.text.startsWith('Flagged'));
        expect(flagged).toEqual([{ type: 'text', text: `Flagged ${kind}.` }]);
      });
    }

    it("when the integration log is exported, then the module's calls are there with every credential redacted", async () => {
      const res = await fetch(`${server.url}/api/management/export/integrationLog`, { headers: { 'x-functions-key': TEST_FUNCTION_KEY } });
      expect(res.status).toBe(200);
      const text = await res.text();
      const rows = JSON.parse(text) as { url: string; method: string; requestBody: string | null; responseStatus: number }[];
      expect(rows.some((r) => r.method === 'POST' && r.url.endsWith('/api/tiers/lookup') && r.requestBody === '{"points":1200}' && r.responseStatus === 200)).toBe(true);
      expect(rows.some((r) => r.url.endsWith('/oauth/token'))).toBe(true);
      for (const secret of SECRETS) expect(text).not.toContain(secret);
      expect(text).not.toContain(Buffer.from(`bot:${PASSWORD}`).toString('base64'));
      for (const secret of SECRETS) expect(server.logText()).not.toContain(secret);
    });
  });
}
