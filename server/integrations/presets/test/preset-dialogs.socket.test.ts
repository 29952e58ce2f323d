import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BotMessage } from '../../../../shared/protocol.ts';
import { EXPORT_NAMES } from '../../../app/export-records.ts';
import {
  connectClient,
  eventually,
  startTestServer,
  TEST_FUNCTION_KEY,
  type TestClient,
  type TestServer,
} from '../../../test/start-test-server.ts';
import { forms, SECRETS } from './secrets.ts';
import { SPREADSHEET_ID, startGoogle, type GoogleStandIn } from './stand-ins/google.ts';
import { startHubSpot } from './stand-ins/hubspot.ts';
import { startOpenAi } from './stand-ins/openai.ts';
import { startSlack } from './stand-ins/slack.ts';
import type { StandIn, StandInMode } from './stand-ins/stand-in.ts';
import { startWebhookReceiver } from './stand-ins/webhook-receiver.ts';
import { startZendesk } from './stand-ins/zendesk.ts';

const ERRORS = ['rate_limited', 'unauthorized', 'server_error'] as const;
const POLICIES = ['fatal', 'dialog', 'flag'] as const;

interface Case {
  readonly name: string;
  readonly integration: string;
  readonly standIn: () => StandIn;
  readonly params: () => Record<string, unknown>;
  /** What the good call's message says, from the step's output `out`. */
  readonly said: string;
  readonly shows: string;
  /** The flag variable's kind for each error answer. */
  readonly kinds: Record<Exclude<StandInMode, 'ok'>, string>;
}

/**
 * Each preset in a running bot: a dialog calls it against its vendor's stand-in; each documented
 * error answer (rate limited, unauthorised, server error) takes the step's policy, fatal, dialog
 * or flag; and afterwards no secret is in a log line or in any export.
 */
describe('preset steps in dialogs', () => {
  let receiver: StandIn;
  let slack: StandIn;
  let hubspot: StandIn;
  let zendesk: StandIn;
  let google: GoogleStandIn;
  let openai: StandIn;
  let server: TestServer;
  let client: TestClient & { items: { from: string; message: unknown }[] };
  let dir: string;
  const env: Record<string, string> = {};

  const cases: Case[] = [
    {
      name: 'webhook',
      integration: 'sendWebhook',
      standIn: () => receiver,
      params: () => ({
        url: `${receiver.url}/webhook/chatbot`,
        body: { user: '{{userId}}', event: 'lead' },
        signingSecret: 'P_WEBHOOK_SECRET',
      }),
      said: 'Sent ({{out.status}}).',
      shows: 'Sent (200).',
      kinds: { rate_limited: 'status', unauthorized: 'status', server_error: 'status' },
    },
    {
      name: 'slack',
      integration: 'slackPostMessage',
      standIn: () => slack,
      params: () => ({
        tokenSecret: 'P_SLACK_TOKEN',
        channel: '#leads',
        text: 'New lead {{userId}}',
        apiBaseUrl: `${slack.url}/api/`,
      }),
      said: 'Posted as {{out.ts}}.',
      shows: 'Posted as 1503435956.000247.',
      kinds: { rate_limited: 'status', unauthorized: 'auth', server_error: 'status' },
    },
    {
      name: 'hubspot',
      integration: 'hubspotUpsertContact',
      standIn: () => hubspot,
      params: () => ({
        tokenSecret: 'P_HUBSPOT_TOKEN',
        email: 'ada@example.com',
        properties: { firstname: 'Ada' },
        apiBaseUrl: `${hubspot.url}/`,
      }),
      said: 'Contact {{out.id}}.',
      shows: 'Contact 512.',
      kinds: { rate_limited: 'status', unauthorized: 'status', server_error: 'status' },
    },
    {
      name: 'zendesk',
      integration: 'zendeskCreateTicket',
      standIn: () => zendesk,
      params: () => ({
        apiBaseUrl: `${zendesk.url}/`,
        email: 'agent@acme.example',
        tokenSecret: 'P_ZENDESK_TOKEN',
        subject: 'Chat {{userId}}',
        body: 'Please call back.',
      }),
      said: 'Ticket {{out.status}}.',
      shows: 'Ticket new.',
      kinds: { rate_limited: 'status', unauthorized: 'status', server_error: 'status' },
    },
    {
      name: 'sheets-append',
      integration: 'googleSheetsAppendRow',
      standIn: () => google,
      params: () => ({
        credentialsSecret: 'P_GOOGLE_KEY',
        spreadsheetId: SPREADSHEET_ID,
        range: 'Leads',
        values: ['{{userId}}', 'chat'],
        apiBaseUrl: `${google.url}/`,
      }),
      said: 'Row {{out.updatedRows}} written.',
      shows: 'Row 1 written.',
      kinds: { rate_limited: 'status', unauthorized: 'status', server_error: 'status' },
    },
    {
      name: 'sheets-lookup',
      integration: 'googleSheetsLookupRows',
      standIn: () => google,
      params: () => ({
        credentialsSecret: 'P_GOOGLE_KEY',
        spreadsheetId: SPREADSHEET_ID,
        range: 'Orders',
        column: 'Order number',
        value: 'A-101',
        apiBaseUrl: `${google.url}/`,
      }),
      said: '{{out.count}} order(s).',
      shows: '1 order(s).',
      kinds: { rate_limited: 'status', unauthorized: 'status', server_error: 'status' },
    },
    {
      name: 'chat',
      integration: 'chatCompletion',
      standIn: () => openai,
      params: () => ({
        baseUrl: `${openai.url}/v1/`,
        apiKeySecret: 'P_OPENAI_KEY',
        model: 'gpt-4o-mini',
        prompt: 'Greet {{userId}}.',
        dailyTokenBudget: 100000,
      }),
      said: 'Model says: {{out.text}}',
      shows: 'Model says: Hello there.',
      kinds: { rate_limited: 'status', unauthorized: 'status', server_error: 'status' },
    },
  ];

  const definition = () => ({
    settings: { id: 'presets', name: 'Presets bot', startDialog: 'home' },
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
      ...cases.flatMap((c) => [
        {
          id: `${c.name}-ok`,
          steps: [
            { id: 'call', type: 'integration', integration: c.integration, params: c.params(), output: 'out' },
            { id: 'say', type: 'message', text: c.said },
            { id: 'end', type: 'end' },
          ],
        },
        ...POLICIES.map((policy) => ({
          id: `${c.name}-${policy}`,
          steps: [
            {
              id: 'call',
              type: 'integration',
              integration: c.integration,
              params: c.params(),
              onError: policy === 'fatal' ? 'fatal' : policy === 'dialog' ? 'dialog:rescued' : 'flag:broke',
              ...(policy === 'fatal' ? { errorText: 'The service is out of reach.' } : {}),
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
      ]),
    ],
  });

  beforeAll(async () => {
    receiver = await startWebhookReceiver({ secret: SECRETS.WEBHOOK_SIGNING_SECRET, path: '/webhook/chatbot' });
    slack = await startSlack({ token: SECRETS.SLACK_BOT_TOKEN, webhookPath: SECRETS.SLACK_WEBHOOK_PATH });
    hubspot = await startHubSpot({ token: SECRETS.HUBSPOT_TOKEN });
    zendesk = await startZendesk({ email: 'agent@acme.example', token: SECRETS.ZENDESK_TOKEN, subdomain: 'acme' });
    google = await startGoogle();
    openai = await startOpenAi({ key: SECRETS.OPENAI_API_KEY, answer: () => 'Hello there.' });
    Object.assign(env, {
      P_WEBHOOK_SECRET: SECRETS.WEBHOOK_SIGNING_SECRET,
      P_SLACK_TOKEN: SECRETS.SLACK_BOT_TOKEN,
      P_HUBSPOT_TOKEN: SECRETS.HUBSPOT_TOKEN,
      P_ZENDESK_TOKEN: SECRETS.ZENDESK_TOKEN,
      P_GOOGLE_KEY: google.keyFile,
      P_OPENAI_KEY: SECRETS.OPENAI_API_KEY,
    });
    Object.assign(process.env, env);
    dir = await mkdtemp(path.join(tmpdir(), 'preset-dialogs-'));
    const file = path.join(dir, 'bot.json');
    await writeFile(file, JSON.stringify(definition()));
    server = await startTestServer({
      BOT_DEFINITION: file,
      INTEGRATION_ALLOWED_HOSTS: '127.0.0.1',
      WEBCHAT_RATE_LIMIT: '100000',
      INTEGRATION_USER_RATE_LIMIT: '100000',
    });
    client = connectClient(server.url);
    await new Promise((resolve) => client.once('session', resolve));
    await eventually('the greeting', () => client.items.some((i) => (i.message as BotMessage).type === 'text'));
  });
  afterAll(async () => {
    client?.disconnect();
    await server?.stop();
    for (const standIn of [receiver, slack, hubspot, zendesk, google, openai]) await standIn?.close();
    for (const name of Object.keys(env)) delete process.env[name];
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function run(dialogId: string, done: (message: BotMessage) => boolean): Promise<BotMessage[]> {
    const before = client.items.length;
    await client.emitWithAck('start_dialog', { dialogId });
    const after = () => client.items.slice(before).flatMap((i) => (i.from === 'bot' ? [i.message as BotMessage] : []));
    await eventually(`the answer of ${dialogId}`, () => after().some(done));
    return after();
  }
  const texts = (messages: BotMessage[]) =>
    messages.map((m) => (m.type === 'text' ? m.text : m.type === 'notice' ? `notice: ${m.text}` : m.type));

  for (const c of cases) {
    it(`when the ${c.integration} step calls its stand-in, then the answer lands in the step's output and the dialog goes on`, async () => {
      c.standIn().mode('ok');
      expect(texts(await run(`${c.name}-ok`, (m) => m.type === 'text' && m.text !== 'Home.'))).toEqual([c.shows]);
    });

    for (const mode of ERRORS) {
      it(`when ${c.integration}'s vendor answers ${mode}, then fatal shows the notice, dialog goes to its dialog and flag sets ${c.kinds[mode]}`, async () => {
        c.standIn().mode(mode);
        try {
          expect(texts(await run(`${c.name}-fatal`, (m) => m.type === 'notice'))).toEqual([
            'notice: The service is out of reach.',
          ]);
          expect(texts(await run(`${c.name}-dialog`, (m) => m.type === 'text' && m.text === 'Rescued.'))).toEqual([
            'Rescued.',
          ]);
          expect(texts(await run(`${c.name}-flag`, (m) => m.type === 'text' && m.text.startsWith('Flagged')))).toEqual([
            `Flagged ${c.kinds[mode].replace('_', '\\_')}.`,
          ]);
        } finally {
          c.standIn().mode('ok');
        }
      });
    }
  }

  it("when the dialogs have run, then no stand-in saw a request off its vendor's reference, and no secret is in a log line or an export, in any form", async () => {
    expect([receiver, slack, hubspot, zendesk, google, openai].flatMap((s) => s.violations)).toEqual([]);
    const secrets = [
      ...forms([
        SECRETS.WEBHOOK_SIGNING_SECRET,
        SECRETS.SLACK_BOT_TOKEN,
        SECRETS.HUBSPOT_TOKEN,
        SECRETS.ZENDESK_TOKEN,
        SECRETS.OPENAI_API_KEY,
      ]),
      Buffer.from(`agent@acme.example/token:${SECRETS.ZENDESK_TOKEN}`).toString('base64'),
      ...google.privateKey.split('\n').filter((line) => line.length > 40),
      ...google.issued,
    ];
    let exported = '';
    for (const name of EXPORT_NAMES) {
      const res = await fetch(`${server.url}/api/management/export/${name}`, {
        headers: { 'x-functions-key': TEST_FUNCTION_KEY },
      });
      expect(res.status).toBe(200);
      exported += await res.text();
    }
    expect(exported).toContain('chat.postMessage');
    for (const secret of secrets) {
      expect(exported, `an export holds ${secret.slice(0, 10)}…`).not.toContain(secret);
      expect(server.logText(), `the log holds ${secret.slice(0, 10)}…`).not.toContain(secret);
    }
  });
});
