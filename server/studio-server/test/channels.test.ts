import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestServer, storeLegs, type TestServer } from '../../test/start-test-server.ts';
import {
  deliver,
  startTelegramStandIn,
  textUpdate,
  type TelegramStandIn,
} from '../../channels/telegram/test/telegram-stand-in.ts';
import { telegramBot } from '../../channels/telegram/test/telegram-bot.ts';
import { findSecret } from './secret-search.ts';
import { invite, setUpOwner, type StudioClient } from './studio-client.ts';

/** Characters that every encoding changes are not allowed in Telegram's secret: the token's colon and dash stand in. */
const WEBHOOK_SECRET = 'studio-set-webhook-secret_0123456789';
const SECOND_SECRET = 'rotated-webhook-secret_9876543210abc';
const TEXT = 'A test message from the studio.';

/** The environment sets Slack: the studio shows it and may not change it. */
const SLACK_FROM_ENVIRONMENT = {
  SLACK_BOT_TOKEN: 'xoxb-environment-token-0123456789',
  SLACK_SIGNING_SECRET: 'environmentsigningsecret0123456789',
};

/** A server running the Telegram test bot, its definition in a new folder (the caller removes it). */
async function startWithTelegramBot(env: Record<string, string>): Promise<{ server: TestServer; dir: string }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'studio-channels-'));
  const file = path.join(dir, 'bot.json');
  await writeFile(file, JSON.stringify(telegramBot()));
  return { server: await startTestServer({ ...env, BOT_DEFINITION: file }), dir };
}

const sentTo = (standIn: TelegramStandIn, chatId: number) =>
  standIn.calls
    .filter((call) => call.method === 'sendMessage' && call.params.chat_id === chatId && call.status === 200)
    .map((call) => String(call.params.text));

for (const leg of storeLegs()) {
  describe.skipIf(leg.skip)(`Settings → Channels (${leg.name})`, () => {
    let standIn: TelegramStandIn;
    let server: TestServer;
    let dir: string;
    let owner: StudioClient;
    let editor: StudioClient;
    let analyst: StudioClient;
    let viewer: StudioClient;

    beforeAll(async () => {
      standIn = await startTelegramStandIn();
      ({ server, dir } = await startWithTelegramBot({
        ...leg.env(),
        INTEGRATION_ALLOWED_HOSTS: '127.0.0.1',
        SECRETS_KEY: 'a-secrets-key-for-tests-0123456789abcdef',
        TELEGRAM_API_URL: standIn.url,
        ...SLACK_FROM_ENVIRONMENT,
      }));
      owner = await setUpOwner(server.url, server.studio.setupLink!);
      editor = await invite(owner, 'editor@example.com', 'editor');
      analyst = await invite(owner, 'analyst@example.com', 'analyst');
      viewer = await invite(owner, 'viewer@example.com', 'viewer');
    }, 60_000);
    afterAll(async () => {
      await server?.stop();
      await standIn?.close();
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    const telegram = async (): Promise<Record<string, unknown>> =>
      (await owner.get('/studio/api/channels')).body.find(
        (connector: { connector: string }) => connector.connector === 'telegram',
      );

    it('when the owner lists the channels, then each connector shows its source, whether it is on and its webhook URLs', async () => {
      const list = await owner.get('/studio/api/channels');
      expect(list.status).toBe(200);
      expect(list.body.map((connector: { connector: string }) => connector.connector)).toEqual([
        'telegram',
        'whatsapp',
        'twilio',
        'slack',
        'messenger',
        'teams',
      ]);
      expect(await telegram()).toMatchObject({
        source: 'none',
        on: false,
        missing: ['TELEGRAM_BOT_TOKEN', 'TELEGRAM_WEBHOOK_SECRET'],
        channels: [{ name: 'telegram', on: false, webhookUrl: `${server.url}/api/webhooks/telegram` }],
        imagePathsUnresolved: false,
      });
      const slack = list.body.find((connector: { connector: string }) => connector.connector === 'slack');
      // On, and the server has no PUBLIC_URL: Slack cannot fetch an image the bot gives by its path.
      expect(slack).toMatchObject({ source: 'environment', on: true, imagePathsUnresolved: true });
      expect(slack.settings).toEqual([
        { variable: 'SLACK_BOT_TOKEN', secret: true, required: true, set: true, value: null },
        { variable: 'SLACK_SIGNING_SECRET', secret: true, required: true, set: true, value: null },
      ]);
      const twilio = list.body.find((connector: { connector: string }) => connector.connector === 'twilio');
      expect(twilio.channels.map((channel: { name: string }) => channel.name)).toEqual([
        'twilio-sms',
        'twilio-whatsapp',
      ]);
      // Not set up: no channel answers at its webhook.
      expect((await deliver(`${server.url}/api/webhooks/telegram`, textUpdate(7, 'hi'), WEBHOOK_SECRET)).status).toBe(
        404,
      );
    });

    it('when an editor, an analyst or a viewer asks for the channels, then each is refused with 403 and learns nothing of the paths', async () => {
      for (const client of [editor, analyst, viewer]) {
        for (const res of [
          await client.get('/studio/api/channels'),
          await client.put('/studio/api/channels/telegram', { values: { TELEGRAM_BOT_TOKEN: standIn.token } }),
          await client.post('/studio/api/channels/telegram/test', { address: '1', text: TEXT }),
          await client.patch('/studio/api/channels/telegram', {}),
        ]) {
          expect(res.status).toBe(403);
          expect(res.body.error).toMatchObject({ code: 'forbidden', details: { needed: ['owner'] } });
        }
      }
      expect((await telegram()).source).toBe('none');
    });

    it('when the owner uses a method a path is not served with, then 405 names the methods it takes', async () => {
      const patch = await owner.patch('/studio/api/channels/telegram', {});
      expect(patch.status).toBe(405);
      expect(patch.headers.get('allow')).toBe('PUT');
      const del = await owner.delete('/studio/api/channels');
      expect(del.status).toBe(405);
      expect(del.headers.get('allow')).toBe('GET');
      expect((await owner.get('/studio/api/channels/telegram/test')).headers.get('allow')).toBe('POST');
    });

    it('when a write comes without the CSRF token or from another origin, then it is refused and nothing changes', async () => {
      const body = JSON.stringify({ values: { TELEGRAM_BOT_TOKEN: standIn.token } });
      const noToken = await fetch(`${server.url}/studio/api/channels/telegram`, {
        method: 'PUT',
        headers: { cookie: owner.cookie!, origin: new URL(server.url).origin, 'content-type': 'application/json' },
        body,
      });
      expect(noToken.status).toBe(403);
      expect((await noToken.json()).error.code).toBe('csrf_failed');
      const foreign = await fetch(`${server.url}/studio/api/channels/telegram`, {
        method: 'PUT',
        headers: {
          cookie: owner.cookie!,
          origin: 'https://evil.example',
          'x-csrf-token': owner.csrf!,
          'content-type': 'application/json',
        },
        body,
      });
      expect(foreign.status).toBe(403);
      expect((await telegram()).source).toBe('none');
    });

    it('when the owner sends bad settings, then 400 names each bad field with its rule, and nothing is kept or audited', async () => {
      const bad = await owner.put('/studio/api/channels/telegram', {
        values: { TELEGRAM_BOT_TOKEN: 'not-a-token', TELEGRAM_WEBHOOK_SECRET: 'short', SLACK_BOT_TOKEN: 'xoxb-x' },
      });
      expect(bad.status).toBe(400);
      expect(bad.body.error.code).toBe('invalid_body');
      expect(bad.body.error.details.fields).toEqual({
        TELEGRAM_BOT_TOKEN: 'must be the token @BotFather gave, such as 123456789:AAF…',
        TELEGRAM_WEBHOOK_SECRET: 'must be 16 to 256 of A-Z a-z 0-9 _ - (Telegram allows no other characters)',
        SLACK_BOT_TOKEN: 'is not a setting of the telegram connector',
      });
      for (const body of [
        { values: { TELEGRAM_BOT_TOKEN: '' } },
        { values: { 'telegram-token': 'x' } },
        { values: {}, extra: 1 },
        { values: { TELEGRAM_BOT_TOKEN: 'x'.repeat(2000) } },
      ])
        expect((await owner.put('/studio/api/channels/telegram', body)).status).toBe(400);
      expect((await owner.put('/studio/api/channels/signal', { values: {} })).status).toBe(400);
      expect((await owner.post('/studio/api/channels/telegram/test', { address: '', text: TEXT })).status).toBe(400);
      const audit = await owner.get('/studio/api/audit?limit=1000');
      expect(audit.body.entries.filter((e: { action: string }) => e.action.startsWith('channel_'))).toEqual([]);
      expect((await telegram()).source).toBe('none');
    });

    it('when the owner sets Telegram up, then it is on at once: a webhook reaches the bot, and a test message goes through the real send', async () => {
      const saved = await owner.put('/studio/api/channels/telegram', {
        values: { TELEGRAM_BOT_TOKEN: standIn.token, TELEGRAM_WEBHOOK_SECRET: WEBHOOK_SECRET },
      });
      expect(saved.status).toBe(200);
      expect(saved.body).toMatchObject({
        source: 'studio',
        on: true,
        missing: [],
        imagePathsUnresolved: true,
        updatedBy: 'owner@example.com',
        settings: [
          { variable: 'TELEGRAM_BOT_TOKEN', set: true, value: null },
          { variable: 'TELEGRAM_WEBHOOK_SECRET', set: true, value: null },
        ],
      });
      const hook = `${server.url}/api/webhooks/telegram`;
      expect((await deliver(hook, textUpdate(2001, '/start', { username: 'ada' }), WEBHOOK_SECRET)).status).toBe(200);
      await eventually('the greeting', () => sentTo(standIn, 2001).includes('Hello ada.'));
      expect((await deliver(hook, textUpdate(2001, 'hi'), 'a-wrong-secret-0123456789')).status).toBe(403);

      const test = await owner.post('/studio/api/channels/telegram/test', { address: '2002', text: TEXT });
      expect(test.status).toBe(200);
      expect(test.body).toEqual({
        channel: 'telegram',
        delivered: true,
        vendorCode: null,
        vendorAnswer: expect.any(String),
      });
      expect(sentTo(standIn, 2002)).toEqual([TEXT]);
      standIn.block(2003);
      const refused = await owner.post('/studio/api/channels/telegram/test', { address: '2003', text: TEXT });
      expect(refused.body).toEqual({
        channel: 'telegram',
        delivered: false,
        vendorCode: '403',
        vendorAnswer: 'Telegram sendMessage: Forbidden: bot was blocked by the user',
      });
    });

    it('when the owner changes the webhook secret, then the connector takes the new one and refuses the old, without a restart', async () => {
      const saved = await owner.put('/studio/api/channels/telegram', {
        values: { TELEGRAM_WEBHOOK_SECRET: SECOND_SECRET },
      });
      expect(saved.status).toBe(200);
      const hook = `${server.url}/api/webhooks/telegram`;
      expect((await deliver(hook, textUpdate(2004, 'hi'), WEBHOOK_SECRET)).status).toBe(403);
      expect((await deliver(hook, textUpdate(2004, '/start'), SECOND_SECRET)).status).toBe(200);
      await eventually('the answer', () => sentTo(standIn, 2004).length > 0);
    });

    it('when the environment sets a connector, then the studio may not change it and says so; a test message still goes out', async () => {
      const refused = await owner.put('/studio/api/channels/slack', {
        values: { SLACK_BOT_TOKEN: 'xoxb-studio-token-0123456789' },
      });
      expect(refused.status).toBe(409);
      expect(refused.body.error.code).toBe('set_in_environment');
      const off = await owner.post('/studio/api/channels/whatsapp/test', { address: '4915112345678', text: TEXT });
      expect(off.status).toBe(409);
      expect(off.body.error).toMatchObject({ code: 'channel_off', details: { missing: expect.any(Array) } });
    });

    it('when the owner sets part of Twilio up, then a plain setting is shown back, a credential is not, and the section names what is missing', async () => {
      const saved = await owner.put('/studio/api/channels/twilio', {
        values: { TWILIO_ACCOUNT_SID: `AC${'0a'.repeat(16)}`, TWILIO_AUTH_TOKEN: 'twilioauthtoken0123456789' },
      });
      expect(saved.status).toBe(200);
      expect(saved.body).toMatchObject({
        source: 'studio',
        on: false,
        missing: ['TWILIO_SMS_FROM or TWILIO_WHATSAPP_FROM', 'PUBLIC_URL'],
        channels: [
          { name: 'twilio-sms', on: false },
          { name: 'twilio-whatsapp', on: false },
        ],
      });
      expect(saved.body.settings.slice(0, 2)).toEqual([
        { variable: 'TWILIO_ACCOUNT_SID', secret: false, required: true, set: true, value: `AC${'0a'.repeat(16)}` },
        { variable: 'TWILIO_AUTH_TOKEN', secret: true, required: true, set: true, value: null },
      ]);
      const removed = await owner.put('/studio/api/channels/twilio', {
        values: { TWILIO_ACCOUNT_SID: null, TWILIO_AUTH_TOKEN: null },
      });
      expect(removed.body.source).toBe('none');
    });

    it('when the changes are read in the audit trail, then they name who, which connector and which settings, never a value', async () => {
      const audit = await owner.get('/studio/api/audit?limit=1000');
      const entries = audit.body.entries.filter((e: { action: string }) => e.action.startsWith('channel_'));
      expect(entries.map((e: Record<string, unknown>) => [e.action, e.target, e.details])).toEqual([
        [
          'channel_settings_changed',
          'telegram',
          { set: ['TELEGRAM_BOT_TOKEN', 'TELEGRAM_WEBHOOK_SECRET'], removed: [] },
        ],
        ['channel_test_sent', 'telegram', { delivered: true, vendorCode: null }],
        ['channel_test_sent', 'telegram', { delivered: false, vendorCode: '403' }],
        ['channel_settings_changed', 'telegram', { set: ['TELEGRAM_WEBHOOK_SECRET'], removed: [] }],
        ['channel_settings_changed', 'twilio', { set: ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN'], removed: [] }],
        ['channel_settings_changed', 'twilio', { set: [], removed: ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN'] }],
      ]);
      expect(entries[0].actor).toMatchObject({ kind: 'account', email: 'owner@example.com' });
    });

    it('when every answer, log line, audit entry, the secrets list and the store are searched, then no credential is in any, in any encoding', async () => {
      const secrets = await owner.get('/studio/api/secrets');
      expect(secrets.body).toEqual([]);
      const everything = [
        ...[owner, editor, analyst, viewer].flatMap((client) =>
          client.answers.map((answer) => `${[...answer.headers].join('\n')}\n${answer.text}`),
        ),
        JSON.stringify(await server.studio.stores.audit.read({ limit: 10_000 })),
        await (await fetch(`${server.url}/api/management/openapi.json`)).text(),
        server.logText(),
      ].join('\n');
      expect(everything.length).toBeGreaterThan(10_000);
      for (const secret of [standIn.token, WEBHOOK_SECRET, SECOND_SECRET, 'twilioauthtoken0123456789'])
        expect(findSecret(everything, secret)).toEqual([]);
      const stored = JSON.stringify(await server.studio.stores.stores.secrets.listSecrets());
      for (const secret of [standIn.token, WEBHOOK_SECRET, SECOND_SECRET, 'twilioauthtoken0123456789'])
        expect(findSecret(stored, secret)).toEqual([]);
    });

    it('when the owner removes the studio settings, then the channel is off at once and its webhook answers 404', async () => {
      const removed = await owner.put('/studio/api/channels/telegram', {
        values: { TELEGRAM_BOT_TOKEN: null, TELEGRAM_WEBHOOK_SECRET: null },
      });
      expect(removed.body).toMatchObject({ source: 'none', on: false });
      expect((await deliver(`${server.url}/api/webhooks/telegram`, textUpdate(2005, 'hi'), SECOND_SECRET)).status).toBe(
        404,
      );
    });
  });
}

describe('Settings → Channels with PUBLIC_URL', () => {
  let server: TestServer;
  let dir: string;
  beforeAll(async () => {
    ({ server, dir } = await startWithTelegramBot({
      PUBLIC_URL: 'https://bot.example.com/chat',
      ...SLACK_FROM_ENVIRONMENT,
    }));
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('when a connector is on and PUBLIC_URL is set, then the owner is not warned of images given by their path, and the webhook URLs are on PUBLIC_URL', async () => {
    const owner = await setUpOwner(server.url, server.studio.setupLink!);
    const list = await owner.get('/studio/api/channels');
    const slack = list.body.find((connector: { connector: string }) => connector.connector === 'slack');
    expect(slack).toMatchObject({
      on: true,
      imagePathsUnresolved: false,
      channels: [{ name: 'slack', on: true, webhookUrl: 'https://bot.example.com/chat/api/webhooks/slack' }],
    });
  });
});
