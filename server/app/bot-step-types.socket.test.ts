import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BotMessage } from '../../shared/protocol.ts';
import { json, startUpstream, type Upstream } from '../integrations/test/upstream.ts';
import {
  connectClient,
  eventually,
  startTestServer,
  storeLegs,
  TEST_FUNCTION_KEY,
  type TestClient,
  type TestServer,
} from '../test/start-test-server.ts';

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
    properties: { member: { type: 'string', minLength: 1 }, mode: { enum: ['ok', 'throw', 'shape', 'hang', 'stops', 'leak'], default: 'ok' } },
    required: ['member'],
    additionalProperties: false,
  },
  output: {
    type: 'object',
    properties: { points: { type: 'integer' }, tier: { type: 'string' } },
    required: ['points', 'tier'],
    additionalProperties: false,
  },
  async call({ params, request, log, signal, variables }) {
    if (params.mode === 'throw') throw new Error('the CRM knows no member ' + params.member);
    if (params.mode === 'hang') await new Promise(() => {});
    if (params.mode === 'stops') {
      // Honours the signal: stops waiting when the step is over.
      await new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
    }
    if (params.mode === 'leak') {
      // Careless code: quotes an answer that echoes the credentials, the environment and the user's token.
      const echoed = await request({ method: 'GET', url: 'echo' });
      throw new Error('the CRM said ' + JSON.stringify(echoed.body) + ' with ' + process.env.OWN_STEPS_TOKEN + ', ' + process.env.OWN_STEPS_PASSWORD + ', ' + process.env.OWN_STEPS_CLIENT_SECRET + ', ' + variables.authToken);
    }
    const member = await request({ method: 'GET', url: 'members/' + encodeURIComponent(params.member) });
    const tier = await request({ method: 'POST', url: 'tiers/lookup', json: { points: member.body.points } });
    log.info('member points read');
    if (params.mode === 'shape') return { points: String(member.body.points) };
    return { points: member.body.points, tier: tier.body.tier };
  },
};
`;

const AUTH_KINDS = ['basic', 'bearer', 'user', 'oauth'] as const;
const FAILURES = { throw: 'step\\_code', shape: 'invalid\\_body', hang: 'timeout', stops: 'timeout' } as const;
const POLICIES = ['fatal', 'dialog', 'flag'] as const;

function definition(up: string) {
  const api = `${up}/api/`;
  const authDialogs = AUTH_KINDS.map((service) => ({
    id: `points-${service}`,
    steps: [
      {
        id: 'call',
        type: 'integration',
        integration: 'memberPoints',
        service,
        params: { member: '{{userId}}' },
        output: 'pts',
      },
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
        {
          id: 'check',
          type: 'condition',
          branches: [{ when: { variable: 'broke', op: 'equals', value: true }, then: 'flagged' }],
        },
        { id: 'fine', type: 'message', text: 'Not flagged.', next: 'end' },
        { id: 'flagged', type: 'message', text: 'Flagged {{brokeError}}.' },
        { id: 'end', type: 'end' },
      ],
    })),
  );
  const leaking = AUTH_KINDS.map((service) => ({
    id: `leak-${service}`,
    steps: [
      {
        id: 'call',
        type: 'integration',
        integration: 'memberPoints',
        service,
        params: { member: 'm-1', mode: 'leak' },
        onError: 'flag:leaked',
      },
      { id: 'say', type: 'message', text: 'Leak handled.' },
      { id: 'end', type: 'end' },
    ],
  }));
  // Async timing: the dialog goes on at once; the module's calls run later as a durable job.
  const later = {
    id: 'points-later',
    steps: [
      {
        id: 'call',
        type: 'integration',
        integration: 'memberPoints',
        service: 'bearer',
        timing: 'async',
        params: { member: 'later-1' },
      },
      { id: 'say', type: 'message', text: 'Your points are on their way.' },
      { id: 'end', type: 'end' },
    ],
  };
  return {
    settings: { id: 'own-steps', name: 'Own step types bot', startDialog: 'home' },
    stepTypes: ['../steps/member-points.mjs'],
    integrations: {
      services: {
        basic: { baseUrl: api, auth: { type: 'basic', username: 'bot', passwordEnv: 'OWN_STEPS_PASSWORD' } },
        bearer: { baseUrl: api, auth: { type: 'bearer', tokenEnv: 'OWN_STEPS_TOKEN' } },
        user: { baseUrl: api, auth: { type: 'bearer-user' } },
        oauth: {
          baseUrl: api,
          auth: {
            type: 'oauth2-client-credentials',
            tokenUrl: `${up}/oauth/token`,
            clientId: 'bot-client',
            clientSecretEnv: 'OWN_STEPS_CLIENT_SECRET',
          },
        },
      },
    },
    dialogs: [
      {
        id: 'home',
        steps: [
          { id: 'hi', type: 'message', text: 'Home.' },
          { id: 'end', type: 'end' },
        ],
      },
      {
        id: 'rescued',
        steps: [
          { id: 'r', type: 'message', text: 'Rescued.' },
          { id: 'end', type: 'end' },
        ],
      },
      ...authDialogs,
      ...failing,
      ...leaking,
      later,
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
      Object.assign(process.env, {
        OWN_STEPS_TOKEN: TOKEN,
        OWN_STEPS_PASSWORD: PASSWORD,
        OWN_STEPS_CLIENT_SECRET: CLIENT_SECRET,
      });
      upstream = await startUpstream((req, res) => {
        if (req.url === '/oauth/token')
          return json(res, 200, { access_token: ISSUED, token_type: 'Bearer', expires_in: 3600 });
        if (req.url.startsWith('/api/members/'))
          return json(res, 200, { id: decodeURIComponent(req.url.slice('/api/members/'.length)), points: 1200 });
        // Echoes the credentials it was sent, as a careless API might in an error answer.
        if (req.url === '/api/echo') return json(res, 200, { sent: req.headers.authorization });
        if (req.url === '/api/tiers/lookup')
          return json(res, 200, {
            tier: (JSON.parse(req.body) as { points: number }).points >= 1000 ? 'gold' : 'silver',
          });
        return json(res, 404, {});
      });
      // The module sits outside the repository and beside, not under, the definition's folder.
      dir = await mkdtemp(path.join(tmpdir(), 'own-steps-'));
      await mkdir(path.join(dir, 'bot'));
      await mkdir(path.join(dir, 'steps'));
      await writeFile(path.join(dir, 'steps', 'member-points.mjs'), MODULE);
      const file = path.join(dir, 'bot', 'bot.json');
      await writeFile(file, JSON.stringify(definition(upstream.url)));
      server = await startTestServer({
        ...leg.env(),
        BOT_DEFINITION: file,
        INTEGRATION_ALLOWED_HOSTS: '127.0.0.1',
        WEBCHAT_RATE_LIMIT: '10000',
        INTEGRATION_USER_RATE_LIMIT: '10000',
      });
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
      const after = () =>
        client.items.slice(before).flatMap((i) => (i.from === 'bot' ? [i.message as BotMessage] : []));
      await eventually(`the answer of ${dialogId}`, () => after().some(done));
      return after();
    }

    for (const service of AUTH_KINDS) {
      it(`when the module's step runs with ${service} auth, then both calls carry it and the combined output is saved and shown`, async () => {
        const before = upstream.seen.length;
        const messages = await run(`points-${service}`, (m) => m.type === 'text' && m.text.startsWith('You have'));
        expect(messages).toEqual([{ type: 'text', text: 'You have 1200 points (gold).' }]);
        const calls = upstream.seen.slice(before).filter((r) => r.url.startsWith('/api/'));
        expect(calls.map((r) => `${r.method} ${r.url.replace(/members\/.*/, 'members/…')}`)).toEqual([
          'GET /api/members/…',
          'POST /api/tiers/lookup',
        ]);
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

    for (const service of AUTH_KINDS) {
      it(`when the module's code throws a message quoting its ${service} credentials, then the step fails as step_code with them scrubbed from the logs`, async () => {
        const logsBefore = server.logs.length;
        const messages = await run(`leak-${service}`, (m) => m.type === 'text' && m.text === 'Leak handled.');
        expect(messages.map((m) => (m.type === 'text' ? m.text : m.type))).toEqual(['Leak handled.']);
        const failed = server.logs.slice(logsBefore).find((line) => line.event === 'integration_failed');
        expect(failed).toMatchObject({ kind: 'step_code', stepType: 'memberPoints' });
        expect(String(failed?.msg)).toContain('the CRM said');
        expect(String(failed?.msg)).toContain('[redacted]');
        for (const secret of SECRETS) expect(JSON.stringify(server.logs.slice(logsBefore))).not.toContain(secret);
      });
    }

    it('when a step of the module is async, then the dialog goes on at once and its two calls are made later, in the integration log', async () => {
      const messages = await run(
        'points-later',
        (m) => m.type === 'text' && m.text === 'Your points are on their way.',
      );
      expect(messages).toEqual([{ type: 'text', text: 'Your points are on their way.' }]);
      await eventually(
        'the later calls',
        () =>
          upstream.seen.some((r) => r.url === '/api/tiers/lookup' && r.body === '{"points":1200}') &&
          upstream.seen.some((r) => r.url === '/api/members/later-1'),
      );
      const rows = await eventually('the logged calls', async () => {
        const res = await fetch(`${server.url}/api/management/export/integrationLog`, {
          headers: { 'x-functions-key': TEST_FUNCTION_KEY },
        });
        const all = JSON.parse(await res.text()) as { url: string; method: string; responseStatus: number }[];
        const found = all.filter((r) => r.url.endsWith('/api/members/later-1'));
        return found.length > 0 ? found : undefined;
      });
      expect(rows).toMatchObject([{ method: 'GET', responseStatus: 200 }]);
    });

    it('when a step that honours ctx.signal times out, then the module is told to stop', async () => {
      const logsBefore = server.logs.length;
      await run('stops-flag', (m) => m.type === 'text' && m.text.startsWith('Flagged'));
      const failed = server.logs.slice(logsBefore).find((line) => line.event === 'integration_failed');
      // The module rejected with the signal's reason before the step's own deadline ran out.
      expect(failed).toMatchObject({
        kind: 'timeout',
        msg: expect.stringMatching(/memberPoints step did not finish within 300 ms/),
      });
    });

    it("when the integration log is exported, then the module's calls are there with every credential redacted", async () => {
      const res = await fetch(`${server.url}/api/management/export/integrationLog`, {
        headers: { 'x-functions-key': TEST_FUNCTION_KEY },
      });
      expect(res.status).toBe(200);
      const text = await res.text();
      const rows = JSON.parse(text) as {
        url: string;
        method: string;
        requestBody: string | null;
        responseStatus: number;
      }[];
      expect(
        rows.some(
          (r) =>
            r.method === 'POST' &&
            r.url.endsWith('/api/tiers/lookup') &&
            r.requestBody === '{"points":1200}' &&
            r.responseStatus === 200,
        ),
      ).toBe(true);
      expect(rows.some((r) => r.url.endsWith('/oauth/token'))).toBe(true);
      for (const secret of SECRETS) expect(text).not.toContain(secret);
      expect(text).not.toContain(Buffer.from(`bot:${PASSWORD}`).toString('base64'));
      for (const secret of SECRETS) expect(server.logText()).not.toContain(secret);
    });
  });
}
