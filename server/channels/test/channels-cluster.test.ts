import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startRedis, type RedisProcess } from '../../cluster/test/redis-process.ts';
import { startServerChild, type ServerChild } from '../../test/server-child.ts';
import { TEST_FUNCTION_KEY, botTexts, connectClient, eventually } from '../../test/start-test-server.ts';
import { userHashFor } from '../webchat/identity.ts';
import { deliver, startTelegramStandIn, textUpdate, type TelegramStandIn } from '../telegram/test/telegram-stand-in.ts';
import { startWhatsAppCloudStandIn, type WhatsAppCloudStandIn } from './vendors/whatsapp/whatsapp-cloud-stand-in.ts';
import { incomingMessage, postWhatsAppWebhook } from './vendors/whatsapp/whatsapp-webhooks.ts';

const mongoUrl = inject('mongoUrl');
const TELEGRAM_SECRET = 'cluster-telegram-secret-0123456789';
const accessToken = 'EAAwhatsapp-cluster-access-token-0123456789';
const appSecret = 'whatsapp-cluster-app-secret-0123456789';
const number = { wabaId: '419561257915477', phoneNumberId: '106540352242922', displayPhoneNumber: '15550783881' };
const IDENTITY_SECRET = 'cluster-identity-secret-0123456789';
/** Six messages of one user, delivered to the two nodes in turn. */
const WORDS = ['one', 'two', 'three', 'four', 'five', 'six'];
/** What the user must receive, once each and in this order. */
const EXPECTED = ['Say something.', ...WORDS.flatMap((word) => [`You said ${word}.`, 'Say something.'])];

function echoBot() {
  return {
    settings: { id: 'cluster-channels', name: 'Cluster channels bot', startDialog: 'home' },
    dialogs: [
      {
        id: 'home',
        steps: [
          { id: 'echo', type: 'input', prompt: 'Say something.', saveTo: { variable: 'said' } },
          { id: 'said', type: 'message', text: 'You said {{said}}.' },
          { id: 'again', type: 'goto', dialog: 'home', step: 'echo' },
        ],
      },
      { id: 'news', steps: [{ id: 'say', type: 'message', text: 'News for you.' }] },
    ],
  };
}

/**
 * Two server processes on one Mongo-compatible store and one Redis (as docs/cluster describes), each
 * taking webhooks: a vendor's load balancer sends one user's next message to whichever node it likes.
 * The user's turns must still run one at a time, in the order the webhooks were acknowledged, and each
 * answer reach the vendor once.
 */
describe.skipIf(!mongoUrl)('channels in a cluster: one user’s webhooks on two nodes', () => {
  let dir: string;
  let redis: RedisProcess;
  let telegram: TelegramStandIn;
  let whatsApp: WhatsAppCloudStandIn;
  const nodes: ServerChild[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'channels-cluster-'));
    redis = await startRedis();
    telegram = await startTelegramStandIn();
    whatsApp = await startWhatsAppCloudStandIn({ accessToken, phoneNumberId: number.phoneNumberId });
    const bot = path.join(dir, 'bot.json');
    await writeFile(bot, JSON.stringify(echoBot()));
    const env = {
      BOT_DEFINITION: bot,
      BOT_FUNCTION_KEY: TEST_FUNCTION_KEY,
      SESSION_SECRET: 'cluster-session-secret-0123456789abcdef',
      SECRETS_KEY: 'cluster-secrets-key-0123456789abcdef',
      MONGODB_URL: `${mongoUrl.replace(/\/$/, '')}/channels_cluster_${process.pid}_${Date.now()}`,
      REDIS_URL: redis.url,
      JOB_LEASE_SECONDS: '3',
      LOG_LEVEL: 'warn',
      TELEGRAM_BOT_TOKEN: telegram.token,
      TELEGRAM_WEBHOOK_SECRET: TELEGRAM_SECRET,
      TELEGRAM_API_URL: telegram.url,
      WHATSAPP_ACCESS_TOKEN: accessToken,
      WHATSAPP_PHONE_NUMBER_ID: number.phoneNumberId,
      WHATSAPP_APP_SECRET: appSecret,
      WHATSAPP_VERIFY_TOKEN: 'whatsapp-cluster-verify-token-0123',
      WHATSAPP_API_URL: whatsApp.graphUrl,
      BOT_IDENTITY_SECRET: IDENTITY_SECRET,
      BOT_IDENTITY_LINK_PHONE: 'true',
    };
    for (let i = 0; i < 2; i++)
      nodes.push(await startServerChild({ ...env, DATA_DIR: await mkdtemp(path.join(dir, 'node-')) }));
  }, 120_000);

  afterAll(async () => {
    await Promise.all(nodes.map((node) => node.stop()));
    await telegram?.close();
    await whatsApp?.close();
    await redis?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  }, 60_000);

  /** Delivers the six messages one after the other (each after the 200 of the one before), to node A, B, A, B… */
  async function alternate(post: (node: ServerChild, word: string) => Promise<Response>): Promise<void> {
    for (const [index, word] of WORDS.entries()) expect((await post(nodes[index % 2]!, word)).status).toBe(200);
  }

  async function expectOnceInOrder(said: () => readonly string[]): Promise<void> {
    await eventually('every answer', () => said().length >= EXPECTED.length, 60_000).catch((error: unknown) => {
      throw new Error(
        `${String(error)}: ${JSON.stringify(said())}\n${nodes.map((node) => node.output()).join('\n---\n')}`,
      );
    });
    // A doubled answer would follow the last one closely: a second for it to show.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(said()).toEqual(EXPECTED);
  }

  it('when a Telegram user’s messages reach node A and node B in turn, then each is answered once, in order', async () => {
    const chatId = 7001;
    await alternate((node, word) =>
      deliver(`${node.url}/api/webhooks/telegram`, textUpdate(chatId, word), TELEGRAM_SECRET),
    );
    await expectOnceInOrder(() =>
      telegram.calls
        .filter((call) => call.status === 200 && call.params.chat_id === chatId)
        .map((call) => String(call.params.text)),
    );
  }, 120_000);

  it('when a WhatsApp user’s messages reach node A and node B in turn, then each is answered once, in order', async () => {
    const waId = '16505557001';
    await alternate((node, word) =>
      postWhatsAppWebhook(
        `${node.url}/api/webhooks/whatsapp`,
        incomingMessage(number, { waId, name: 'Ada' }, { type: 'text', text: { body: word } }),
        appSecret,
      ),
    );
    await expectOnceInOrder(() =>
      whatsApp
        .accepted()
        .filter((message) => message.to === waId)
        .map((message) => (message.body as { text?: { body: string } }).text?.body ?? `<${message.type}>`),
    );
  }, 120_000);

  it('when a WhatsApp user linked by a signed identity has the web chat open on node A, then a trigger taken by node B reaches that web chat, not WhatsApp', async () => {
    const waId = '16505557002';
    const toWhatsApp = () =>
      whatsApp
        .accepted()
        .filter((message) => message.to === waId)
        .map((message) => (message.body as { text?: { body: string } }).text?.body ?? `<${message.type}>`);
    const hi = incomingMessage(number, { waId, name: 'Ada' }, { type: 'text', text: { body: 'hi' } });
    expect((await postWhatsAppWebhook(`${nodes[1]!.url}/api/webhooks/whatsapp`, hi, appSecret)).status).toBe(200);
    await eventually('the answer on WhatsApp', () => toWhatsApp().includes('You said hi.'), 30_000);
    const phone = `+${waId}`;
    const widget = connectClient(nodes[0]!.url, {
      identity: { userId: 'shop-7002', phone, userHash: userHashFor(IDENTITY_SECRET, 'shop-7002', phone) },
    });
    try {
      const session = await new Promise<{ userId: string }>((resolve) => widget.once('session', resolve));
      expect(session.userId).toBe(`whatsapp:${waId}`);
      const address = Buffer.from(
        JSON.stringify({ bot: 'cluster-channels', user: `whatsapp:${waId}`, channelId: 'whatsapp' }),
      ).toString('base64url');
      const triggered = await fetch(`${nodes[1]!.url}/api/management/trigger/${address}/news`, {
        method: 'POST',
        headers: { 'x-functions-key': TEST_FUNCTION_KEY },
      });
      expect(triggered.status).toBe(202);
      expect(await triggered.json()).toMatchObject({ delivery: 'live' });
      await eventually('the news in the web chat', () => botTexts(widget.items).includes('News for you.'), 30_000);
      expect(toWhatsApp()).not.toContain('News for you.');
    } finally {
      widget.close();
    }
  }, 120_000);
});
