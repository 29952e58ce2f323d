import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../../ports/clock.ts';
import type { UsageCounters } from '../../../ports/usage-counters.ts';
import { openSqliteStore, type SqliteStore } from '../../../stores/sqlite/sqlite-store.ts';
import { sqliteUsageCounters } from '../../../stores/sqlite/sqlite-usage.ts';
import { IntegrationConfigError } from '../../http/integration-error.ts';
import { IntegrationRuntime, type IntegrationResult } from '../../run-integration.ts';
import { captureLogger, readAll, startUpstream, tempDir } from '../../test/upstream.ts';
import { forms, SECRETS } from './secrets.ts';
import { SCOPE, SPREADSHEET_ID, startGoogle, type GoogleStandIn } from './stand-ins/google.ts';
import { startHubSpot } from './stand-ins/hubspot.ts';
import { startOpenAi } from './stand-ins/openai.ts';
import { startSlack } from './stand-ins/slack.ts';
import type { StandIn, StandInMode } from './stand-ins/stand-in.ts';
import { startWebhookReceiver } from './stand-ins/webhook-receiver.ts';
import { startZendesk } from './stand-ins/zendesk.ts';

const user = {
  userId: 'u-42',
  variables: { question: 'Where is my parcel?', name: 'Ada', orderNumber: 'A-100' },
  userData: { email: 'ada@example.com' },
};
const ERRORS: readonly StandInMode[] = ['rate_limited', 'unauthorized', 'server_error'];

/**
 * Each preset against its vendor's stand-in, in the integration runtime: the exact request a good
 * call makes, what each documented error answer becomes, and that no secret reaches the
 * integration log or a log line. (server/app/preset-steps.socket.test.ts runs them in dialogs.)
 */
describe("preset step types against their vendors' stand-ins", () => {
  let store: SqliteStore;
  let usage: UsageCounters;
  let dir: Awaited<ReturnType<typeof tempDir>>;
  const logger = captureLogger();
  let slack: StandIn;
  let hubspot: Awaited<ReturnType<typeof startHubSpot>>;
  let zendesk: StandIn;
  let google: GoogleStandIn;
  let openai: StandIn;
  let ollama: StandIn;
  let receiver: StandIn;
  let zapier: StandIn;
  let runtime: IntegrationRuntime;
  let env: Record<string, string>;
  const standIns = () => [slack, hubspot, zendesk, google, openai, ollama, receiver, zapier];

  beforeAll(async () => {
    dir = await tempDir();
    store = openSqliteStore({ file: dir.file('store.sqlite') });
    usage = sqliteUsageCounters(store);
    slack = await startSlack({ token: SECRETS.SLACK_BOT_TOKEN, webhookPath: SECRETS.SLACK_WEBHOOK_PATH });
    hubspot = await startHubSpot({ token: SECRETS.HUBSPOT_TOKEN });
    zendesk = await startZendesk({ email: 'agent@acme.example', token: SECRETS.ZENDESK_TOKEN, subdomain: 'acme' });
    google = await startGoogle();
    openai = await startOpenAi({
      key: SECRETS.OPENAI_API_KEY,
      answer: (body) => (body.response_format ? '{"city":"Kraków","days":3}' : 'Your parcel left the warehouse today.'),
    });
    ollama = await startOpenAi({ answer: () => 'Hello from a local model.', usage: false });
    receiver = await startWebhookReceiver({ secret: SECRETS.WEBHOOK_SIGNING_SECRET, path: '/webhook/chatbot' });
    zapier = await startWebhookReceiver({ path: SECRETS.ZAPIER_HOOK_PATH });
    env = {
      SLACK_BOT_TOKEN: SECRETS.SLACK_BOT_TOKEN,
      SLACK_WEBHOOK_URL: `${slack.url}${SECRETS.SLACK_WEBHOOK_PATH}`,
      HUBSPOT_TOKEN: SECRETS.HUBSPOT_TOKEN,
      ZENDESK_TOKEN: SECRETS.ZENDESK_TOKEN,
      GOOGLE_SERVICE_ACCOUNT: Buffer.from(google.keyFile).toString('base64'),
      OPENAI_API_KEY: SECRETS.OPENAI_API_KEY,
      WEBHOOK_SIGNING_SECRET: SECRETS.WEBHOOK_SIGNING_SECRET,
      ZAPIER_HOOK_URL: `${zapier.url}${SECRETS.ZAPIER_HOOK_PATH}`,
    };
    runtime = IntegrationRuntime.create(
      {},
      { store, clock: systemClock, logger, env, allowedHosts: ['127.0.0.1'], usage },
    );
  });
  afterAll(async () => {
    await runtime?.close();
    for (const standIn of standIns()) await standIn?.close();
    await store?.close();
    await dir?.dispose();
  });

  const run = (type: string, params: Record<string, unknown>) =>
    runtime.run({ type, params: params as Record<string, never>, timeoutMs: 5000 }, user);
  const failed = (result: IntegrationResult) =>
    result.ok ? { ok: true } : { kind: result.error.kind, status: result.error.status };

  async function errorsOf(standIn: StandIn, call: () => Promise<IntegrationResult>): Promise<Record<string, unknown>> {
    const out: Record<string, unknown> = {};
    for (const mode of ERRORS) {
      standIn.mode(mode);
      out[mode] = failed(await call());
    }
    standIn.mode('ok');
    return out;
  }

  describe('sendWebhook', () => {
    const params = {
      url: '',
      method: 'POST',
      body: { event: 'lead', email: '{{userData.email}}', asked: '{{question}}' },
      signingSecret: 'WEBHOOK_SIGNING_SECRET',
      headers: { 'x-source': 'chatbot' },
    };

    it('when a signed webhook is sent, then the receiver gets the filled JSON with a signature it can check, and the step returns its answer', async () => {
      const result = await run('sendWebhook', { ...params, url: `${receiver.url}/webhook/chatbot` });
      expect(result).toEqual({ ok: true, output: { status: 200, body: { received: true } } });
      const call = receiver.calls.at(-1)!;
      expect(call.method).toBe('POST');
      expect(JSON.parse(call.body)).toEqual({ event: 'lead', email: 'ada@example.com', asked: 'Where is my parcel?' });
      expect(call.headers).toMatchObject({
        'content-type': 'application/json',
        'x-source': 'chatbot',
        'x-signature': expect.stringMatching(/^sha256=[0-9a-f]{64}$/),
      });
      expect(receiver.violations).toEqual([]);
    });

    it("when the URL is a secret (a Zapier catch hook), then the call goes there unsigned and the URL's path stays out of the log", async () => {
      const result = await run('sendWebhook', { urlSecret: 'ZAPIER_HOOK_URL', body: { email: '{{userData.email}}' } });
      expect(result).toMatchObject({ ok: true, output: { status: 200 } });
      expect(zapier.calls.at(-1)).toMatchObject({
        method: 'POST',
        url: SECRETS.ZAPIER_HOOK_PATH,
        body: '{"email":"ada@example.com"}',
      });
      const row = (await readAll(store)).at(-1)!;
      expect(row.data.url).toBe(`${zapier.url}[redacted]`);
      expect(zapier.violations).toEqual([]);
    });

    it('when the receiver answers 429, 401 or 500, then the step fails with that status', async () => {
      expect(
        await errorsOf(receiver, () => run('sendWebhook', { ...params, url: `${receiver.url}/webhook/chatbot` })),
      ).toEqual({
        rate_limited: { kind: 'status', status: 429 },
        unauthorized: { kind: 'status', status: 401 },
        server_error: { kind: 'status', status: 500 },
      });
    });

    it('when a step tries to set a credential header or to template the URL, then it is refused', async () => {
      expect(
        failed(
          await run('sendWebhook', {
            ...params,
            url: `${receiver.url}/webhook/chatbot`,
            headers: { Authorization: 'Bearer x' },
          }),
        ),
      ).toEqual({ kind: 'invalid_params', status: undefined });
      expect(() =>
        runtime.prepare({ type: 'sendWebhook', params: { url: '{{target}}' } }, 'dialogs[0].steps[0]'),
      ).toThrow(IntegrationConfigError);
      expect(() =>
        runtime.prepare({ type: 'sendWebhook', params: { url: '{{target}}' } }, 'dialogs[0].steps[0]'),
      ).toThrow(/params\.url: must be written as it is, without \{\{templates\}\}/);
    });
  });

  describe('slackPostMessage', () => {
    it('when a message goes through a bot token, then chat.postMessage gets the token, the channel and the text, and the step returns channel and ts', async () => {
      const result = await run('slackPostMessage', {
        tokenSecret: 'SLACK_BOT_TOKEN',
        channel: '#support',
        text: '{{name}} asks: {{question}}',
        apiBaseUrl: `${slack.url}/api/`,
      });
      expect(result).toEqual({ ok: true, output: { channel: 'C123ABC456', ts: '1503435956.000247' } });
      const call = slack.calls.at(-1)!;
      expect(call).toMatchObject({ method: 'POST', url: '/api/chat.postMessage' });
      expect(call.headers).toMatchObject({
        authorization: `Bearer ${SECRETS.SLACK_BOT_TOKEN}`,
        'content-type': 'application/json; charset=utf-8',
      });
      expect(JSON.parse(call.body)).toEqual({ channel: '#support', text: 'Ada asks: Where is my parcel?' });
    });

    it('when a message goes through an incoming webhook, then the webhook URL gets the text and nothing else', async () => {
      const result = await run('slackPostMessage', {
        webhookUrlSecret: 'SLACK_WEBHOOK_URL',
        text: 'New lead: {{userData.email}}',
      });
      expect(result).toEqual({ ok: true, output: { channel: null, ts: null } });
      const call = slack.calls.at(-1)!;
      expect(call).toMatchObject({ method: 'POST', url: SECRETS.SLACK_WEBHOOK_PATH });
      expect(JSON.parse(call.body)).toEqual({ text: 'New lead: ada@example.com' });
      expect(call.headers.authorization).toBeUndefined();
      expect(slack.violations).toEqual([]);
    });

    it("when Slack answers rate limited, invalid_auth or unavailable, then the step fails as status 429, auth and status 503; a webhook's errors keep their status", async () => {
      const bot = () =>
        run('slackPostMessage', {
          tokenSecret: 'SLACK_BOT_TOKEN',
          channel: 'C123ABC456',
          text: 'hi',
          apiBaseUrl: `${slack.url}/api/`,
        });
      expect(await errorsOf(slack, bot)).toEqual({
        rate_limited: { kind: 'status', status: 429 },
        unauthorized: { kind: 'auth', status: undefined },
        server_error: { kind: 'status', status: 503 },
      });
      const hook = () => run('slackPostMessage', { webhookUrlSecret: 'SLACK_WEBHOOK_URL', text: 'hi' });
      expect(await errorsOf(slack, hook)).toEqual({
        rate_limited: { kind: 'status', status: 429 },
        unauthorized: { kind: 'status', status: 403 },
        server_error: { kind: 'status', status: 500 },
      });
    });
  });

  describe('hubspotUpsertContact', () => {
    const params = (email: string) => ({
      tokenSecret: 'HUBSPOT_TOKEN',
      apiBaseUrl: `${hubspot.url}/`,
      email,
      properties: { firstname: '{{name}}', lifecyclestage: 'lead', score: 7 },
    });

    it('when the contact exists, then it is updated by email with text values and the step returns its id', async () => {
      const result = await run('hubspotUpsertContact', params('ada@example.com'));
      expect(result).toEqual({ ok: true, output: { id: '512', created: false } });
      const call = hubspot.calls.at(-1)!;
      expect(call).toMatchObject({
        method: 'PATCH',
        url: '/crm/v3/objects/contacts/ada%40example.com?idProperty=email',
      });
      expect(call.headers.authorization).toBe(`Bearer ${SECRETS.HUBSPOT_TOKEN}`);
      expect(JSON.parse(call.body)).toEqual({ properties: { firstname: 'Ada', lifecyclestage: 'lead', score: '7' } });
    });

    it("when no contact has the email, then the update's 404 leads to a creation with the email among the properties", async () => {
      const before = hubspot.calls.length;
      const result = await run('hubspotUpsertContact', params('new@example.com'));
      expect(result).toEqual({ ok: true, output: { id: expect.stringMatching(/^\d+$/), created: true } });
      expect(hubspot.calls.slice(before).map((c) => `${c.method} ${c.url}`)).toEqual([
        'PATCH /crm/v3/objects/contacts/new%40example.com?idProperty=email',
        'POST /crm/v3/objects/contacts',
      ]);
      expect(JSON.parse(hubspot.calls.at(-1)!.body)).toEqual({
        properties: { firstname: 'Ada', lifecyclestage: 'lead', score: '7', email: 'new@example.com' },
      });
      expect(hubspot.contacts.get('new@example.com')).toMatchObject({ firstname: 'Ada' });
      expect(hubspot.violations).toEqual([]);
    });

    it('when HubSpot answers 429, 401 or 502, then the step fails with that status', async () => {
      expect(await errorsOf(hubspot, () => run('hubspotUpsertContact', params('ada@example.com')))).toEqual({
        rate_limited: { kind: 'status', status: 429 },
        unauthorized: { kind: 'status', status: 401 },
        server_error: { kind: 'status', status: 502 },
      });
    });
  });

  describe('zendeskCreateTicket', () => {
    const params = () => ({
      apiBaseUrl: `${zendesk.url}/`,
      email: 'agent@acme.example',
      tokenSecret: 'ZENDESK_TOKEN',
      subject: 'Help for {{name}}',
      body: '{{question}}',
      requesterEmail: '{{userData.email}}',
      requesterName: '{{name}}',
      priority: 'high',
      tags: ['chatbot'],
      idempotencyKey: '{{userId}}-parcel',
    });

    it('when a ticket is created, then Zendesk gets email/token Basic auth, the idempotency key and the ticket, and the step returns its id', async () => {
      const result = await run('zendeskCreateTicket', params());
      expect(result).toEqual({
        ok: true,
        output: { id: 35436, url: 'https://acme.zendesk.com/api/v2/tickets/35436.json', status: 'new' },
      });
      const call = zendesk.calls.at(-1)!;
      expect(call).toMatchObject({ method: 'POST', url: '/api/v2/tickets.json' });
      expect(call.headers).toMatchObject({
        authorization: `Basic ${Buffer.from(`agent@acme.example/token:${SECRETS.ZENDESK_TOKEN}`).toString('base64')}`,
        'idempotency-key': 'u-42-parcel',
      });
      expect(JSON.parse(call.body)).toEqual({
        ticket: {
          subject: 'Help for Ada',
          comment: { body: 'Where is my parcel?' },
          requester: { email: 'ada@example.com', name: 'Ada' },
          priority: 'high',
          tags: ['chatbot'],
        },
      });
      expect(zendesk.violations).toEqual([]);
    });

    it('when Zendesk answers 429, 401 or 503, then the step fails with that status', async () => {
      expect(await errorsOf(zendesk, () => run('zendeskCreateTicket', params()))).toEqual({
        rate_limited: { kind: 'status', status: 429 },
        unauthorized: { kind: 'status', status: 401 },
        server_error: { kind: 'status', status: 503 },
      });
    });
  });

  describe('Google Sheets', () => {
    const common = () => ({
      credentialsSecret: 'GOOGLE_SERVICE_ACCOUNT',
      spreadsheetId: SPREADSHEET_ID,
      apiBaseUrl: `${google.url}/`,
    });

    it("when a row is appended, then a JWT grant signed with the service account's key gets a token, and the append carries it and the row", async () => {
      const tokensBefore = google.issued.length;
      const result = await run('googleSheetsAppendRow', {
        ...common(),
        range: 'Leads!A:D',
        values: ['{{userData.email}}', '{{name}}', 3, true],
      });
      expect(result).toEqual({
        ok: true,
        output: { updatedRange: expect.stringMatching(/^Leads!A\d+:D\d+$/), updatedRows: 1 },
      });
      expect(google.issued.length).toBe(tokensBefore + 1);
      const [token, append] = google.calls.slice(-2);
      expect(token).toMatchObject({ method: 'POST', url: '/token' });
      expect(append).toMatchObject({
        method: 'POST',
        url: `/v4/spreadsheets/${SPREADSHEET_ID}/values/Leads!A%3AD:append?valueInputOption=USER_ENTERED&insertDataOption=INSERT_ROWS`,
      });
      expect(append!.headers.authorization).toBe(`Bearer ${google.issued.at(-1)}`);
      expect(JSON.parse(append!.body)).toEqual({
        range: 'Leads!A:D',
        majorDimension: 'ROWS',
        values: [['ada@example.com', 'Ada', 3, true]],
      });
      const claims = JSON.parse(
        Buffer.from(new URLSearchParams(token!.body).get('assertion')!.split('.')[1]!, 'base64url').toString(),
      ) as Record<string, unknown>;
      expect(claims).toMatchObject({ iss: google.clientEmail, scope: SCOPE, aud: `${google.url}/token` });
      expect(google.violations).toEqual([]);
    });

    it('when rows are looked up, then the cached token is used and the rows whose column holds the value come back keyed by header', async () => {
      const tokensBefore = google.issued.length;
      const result = await run('googleSheetsLookupRows', {
        ...common(),
        range: 'Orders',
        column: 'Order number',
        value: '{{orderNumber}}',
        ignoreCase: true,
      });
      expect(result).toEqual({
        ok: true,
        output: {
          rows: [
            { 'Order number': 'A-100', Status: 'shipped', Email: 'ada@example.com' },
            { 'Order number': 'a-100 ', Status: 'returned', Email: 'ada@example.com' },
          ],
          count: 2,
        },
      });
      expect(google.issued.length).toBe(tokensBefore);
      expect(google.calls.at(-1)).toMatchObject({
        method: 'GET',
        url: `/v4/spreadsheets/${SPREADSHEET_ID}/values/Orders?majorDimension=ROWS&valueRenderOption=FORMATTED_VALUE`,
      });
      expect(
        failed(await run('googleSheetsLookupRows', { ...common(), range: 'Orders', column: 'Colour', value: 'x' })),
      ).toEqual({ kind: 'invalid_params', status: undefined });
    });

    it('when Sheets answers 429, 401 or 503, then the step fails with that status, a 401 after one try with a fresh token', async () => {
      const before = google.calls.length;
      expect(
        await errorsOf(google, () => run('googleSheetsAppendRow', { ...common(), range: 'Leads', values: ['x'] })),
      ).toEqual({
        rate_limited: { kind: 'status', status: 429 },
        unauthorized: { kind: 'status', status: 401 },
        server_error: { kind: 'status', status: 503 },
      });
      // 429: one call; 401: the call, a new token, the call again; 503: one call with the token from before.
      expect(google.calls.slice(before).map((c) => c.url.split('?')[0]!.replace(/\/v4.*/, 'sheets'))).toEqual([
        'sheets',
        'sheets',
        '/token',
        'sheets',
        'sheets',
      ]);
    });
  });

  describe('chatCompletion', () => {
    const params = () => ({
      baseUrl: `${openai.url}/v1/`,
      apiKeySecret: 'OPENAI_API_KEY',
      model: 'gpt-4o-mini',
      system: 'You help {{name}} with orders.',
      prompt: 'Answer briefly: {{question}}',
      temperature: 0.2,
      maxTokens: 200,
    });

    it('when the model is asked, then the filled prompt, model, temperature and max tokens are sent with the key, and the answer and usage come back', async () => {
      const result = await run('chatCompletion', params());
      expect(result).toEqual({
        ok: true,
        output: {
          text: 'Your parcel left the warehouse today.',
          data: null,
          model: 'gpt-4o-mini-2024-07-18',
          finishReason: 'stop',
          usage: { promptTokens: expect.any(Number), completionTokens: 10, totalTokens: expect.any(Number) },
        },
      });
      const call = openai.calls.at(-1)!;
      expect(call).toMatchObject({ method: 'POST', url: '/v1/chat/completions' });
      expect(call.headers.authorization).toBe(`Bearer ${SECRETS.OPENAI_API_KEY}`);
      expect(JSON.parse(call.body)).toEqual({
        model: 'gpt-4o-mini',
        messages: [
          { role: 'system', content: 'You help Ada with orders.' },
          { role: 'user', content: 'Answer briefly: Where is my parcel?' },
        ],
        temperature: 0.2,
        max_tokens: 200,
      });
    });

    it('when a JSON schema is given, then it is sent as response_format and the parsed answer comes back as data', async () => {
      const jsonSchema = {
        type: 'object',
        properties: { city: { type: 'string' }, days: { type: 'integer' } },
        required: ['city', 'days'],
        additionalProperties: false,
      };
      const result = await run('chatCompletion', {
        ...params(),
        jsonSchema,
        schemaName: 'delivery',
        maxTokensField: 'max_completion_tokens',
      });
      expect(result).toMatchObject({ ok: true, output: { data: { city: 'Kraków', days: 3 } } });
      expect(JSON.parse(openai.calls.at(-1)!.body)).toMatchObject({
        max_completion_tokens: 200,
        response_format: { type: 'json_schema', json_schema: { name: 'delivery', schema: jsonSchema, strict: true } },
      });
      const stricter = {
        ...jsonSchema,
        properties: { ...jsonSchema.properties, city: { type: 'string', enum: ['Gdańsk'] } },
      };
      expect(failed(await run('chatCompletion', { ...params(), jsonSchema: stricter }))).toEqual({
        kind: 'invalid_body',
        status: undefined,
      });
      expect(openai.violations).toEqual([]);
    });

    it('when a local server without a key is asked, then no authorization is sent and a missing usage is estimated', async () => {
      const result = await run('chatCompletion', {
        baseUrl: `${ollama.url}/v1/`,
        model: 'llama3.1:8b',
        prompt: 'Say hello to {{name}}.',
      });
      expect(result).toMatchObject({
        ok: true,
        output: { text: 'Hello from a local model.', usage: { totalTokens: expect.any(Number) } },
      });
      expect((result as { output: { usage: { totalTokens: number } } }).output.usage.totalTokens).toBeGreaterThan(0);
      expect(ollama.calls.at(-1)!.headers.authorization).toBeUndefined();
      expect(ollama.violations).toEqual([]);
    });

    it('when a user has spent the daily token budget, then the next call is not sent and the step fails as rate_limited', async () => {
      const budgeted = { ...params(), dailyTokenBudget: 30 };
      const spender = (id: string) =>
        runtime.run({ type: 'chatCompletion', params: budgeted, timeoutMs: 5000 }, { ...user, userId: id });
      expect((await spender('budget-user')).ok).toBe(true);
      const before = openai.calls.length;
      expect(failed(await spender('budget-user'))).toEqual({ kind: 'rate_limited', status: undefined });
      expect(openai.calls.length).toBe(before);
      expect((await spender('another-user')).ok).toBe(true);
    });

    it('when the server answers 429, 401 (quoting the key masked) or 500, then the step fails with that status', async () => {
      expect(await errorsOf(openai, () => run('chatCompletion', params()))).toEqual({
        rate_limited: { kind: 'status', status: 429 },
        unauthorized: { kind: 'status', status: 401 },
        server_error: { kind: 'status', status: 500 },
      });
    });

    it("when the server takes longer than the step's timeout, then the step fails as a timeout", async () => {
      const hanging = await startUpstream(() => undefined);
      try {
        const result = await runtime.run(
          {
            type: 'chatCompletion',
            params: { baseUrl: `${hanging.url}/v1/`, model: 'llama3.1:8b', prompt: 'p' },
            timeoutMs: 300,
          },
          user,
        );
        expect(result).toMatchObject({ ok: false, error: { kind: 'timeout' } });
      } finally {
        await hanging.close();
      }
    });
  });

  it('when every preset has run, then no secret, in any form, is in the integration log or a log line, and no stand-in saw a request off its reference', async () => {
    const rows = JSON.stringify(await readAll(store));
    const lines = logger.lines.join('\n');
    const secrets = [
      ...forms(Object.values(SECRETS)),
      Buffer.from(`agent@acme.example/token:${SECRETS.ZENDESK_TOKEN}`).toString('base64'),
      google.privateKey,
      JSON.stringify(google.privateKey).slice(1, -1),
      ...google.privateKey.split('\n').filter((line) => line.length > 40),
      env.GOOGLE_SERVICE_ACCOUNT!,
      ...google.issued,
    ];
    for (const secret of secrets) {
      expect(rows, `integration log holds ${secret.slice(0, 12)}…`).not.toContain(secret);
      expect(lines, `log lines hold ${secret.slice(0, 12)}…`).not.toContain(secret);
    }
    expect(rows).toContain('[redacted]');
    expect(standIns().flatMap((s) => s.violations)).toEqual([]);
  });

  it('when a preset names a secret that is not set, or writes a secret where its name goes, then the step is refused at start-up naming the parameter', () => {
    const make = (envOverride: Record<string, string>) =>
      IntegrationRuntime.create(
        {},
        { store, clock: systemClock, logger, env: envOverride, allowedHosts: ['127.0.0.1'] },
      );
    expect(() =>
      make({}).prepare(
        { type: 'slackPostMessage', params: { tokenSecret: 'SLACK_BOT_TOKEN', channel: 'C1', text: 'x' } },
        'dialogs[1].steps[2]',
      ),
    ).toThrow(
      'dialogs[1].steps[2].params.tokenSecret: the secret SLACK_BOT_TOKEN is not set; set the environment variable SLACK_BOT_TOKEN (or the studio secret of that name) to the value this step authenticates with.',
    );
    expect(() =>
      make(env).prepare(
        { type: 'hubspotUpsertContact', params: { tokenSecret: SECRETS.HUBSPOT_TOKEN, email: 'a@b.co' } },
        'x',
      ),
    ).toThrow(/params\.tokenSecret: must be the name of a secret/);
    expect(() =>
      make(env).prepare({ type: 'chatCompletion', params: { apiKeySecret: '{{key}}', model: 'm', prompt: 'p' } }, 'x'),
    ).toThrow(/without \{\{templates\}\}/);
  });
});
