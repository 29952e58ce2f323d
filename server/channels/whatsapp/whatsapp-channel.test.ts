import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  TEST_FUNCTION_KEY,
  eventually,
  startTestServer,
  storeLegs,
  type TestServer,
} from '../../test/start-test-server.ts';
import { channelBot } from '../test/channel-bot.ts';
import { signMetaBody } from '../test/vendors/signatures/meta-signature.ts';
import {
  startWhatsAppCloudStandIn,
  type WhatsAppCloudStandIn,
  type WhatsAppSentMessage,
} from '../test/vendors/whatsapp/whatsapp-cloud-stand-in.ts';
import {
  incomingMessage,
  newWhatsAppMessageId,
  postWhatsAppWebhook,
  statusUpdates,
  verifyWhatsAppWebhook,
} from '../test/vendors/whatsapp/whatsapp-webhooks.ts';

const accessToken = 'EAAwhatsapp-test-access-token-0123456789';
const appSecret = 'whatsapp-app-secret-0123456789abcdef';
const verifyToken = 'whatsapp-verify-token-0123456789';
const number = { wabaId: '419561257915477', phoneNumberId: '106540352242922', displayPhoneNumber: '15550783881' };

/** What the user sees of one accepted message: its text or body, and its buttons or rows. */
function shown(message: WhatsAppSentMessage): string {
  const body = message.body as {
    text?: { body: string };
    interactive?: {
      type: string;
      body: { text: string };
      action: { buttons?: { reply: { title: string } }[]; sections?: { rows: { title: string }[] }[] };
    };
  };
  if (body.text) return body.text.body;
  if (message.type === 'template') return `[template: ${(body as { template: { name: string } }).template.name}]`;
  const interactive = body.interactive!;
  const titles =
    interactive.action.buttons?.map((button) => button.reply.title) ??
    interactive.action.sections?.flatMap((section) => section.rows.map((row) => row.title)) ??
    [];
  return `${interactive.body.text} [${interactive.type}: ${titles.join(' | ')}]`;
}

/** The channel bot with a dialog a trigger starts outside the window: it opens with an approved template. */
function templateBot() {
  const bot = channelBot();
  const shipped = {
    id: 'shipped',
    whatsappTemplate: {
      name: 'order_shipped',
      language: 'en_US',
      parameters: ['{{triggerData.order}}', '{{whatsappName}}'],
    },
    steps: [
      { id: 'told', type: 'message', text: 'Your order {{triggerData.order}} has shipped.' },
      {
        id: 'rate',
        type: 'input',
        prompt: 'How was the delivery?',
        inputType: 'choice',
        choices: [
          { label: 'Good', value: 'good' },
          { label: 'Bad', value: 'bad' },
        ],
        saveTo: { variable: 'rating' },
      },
      { id: 'thanks', type: 'message', text: 'Thanks: {{rating}}.' },
      { id: 'end', type: 'end' },
    ],
  };
  return { ...bot, dialogs: [...bot.dialogs, shipped] };
}

/** Starts a dialog for a WhatsApp user through the management API, as an external system does. */
function trigger(server: TestServer, waId: string, dialogId: string, body?: object): Promise<Response> {
  const address = Buffer.from(
    JSON.stringify({ bot: 'channel-bot', user: `whatsapp:${waId}`, channelId: 'whatsapp' }),
  ).toString('base64url');
  return fetch(`${server.url}/api/management/trigger/${address}/${dialogId}`, {
    method: 'POST',
    headers: { 'x-functions-key': TEST_FUNCTION_KEY, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
}

for (const leg of storeLegs()) {
  describe.skipIf(leg.skip)(`the WhatsApp Cloud API channel (${leg.name})`, () => {
    let whatsApp: WhatsAppCloudStandIn;
    let server: TestServer;
    let dir: string;
    let webhook: string;
    const to = (waId: string) => whatsApp.accepted().filter((message) => message.to === waId);
    const say = (waId: string, text: string, id = newWhatsAppMessageId()) =>
      postWhatsAppWebhook(
        webhook,
        incomingMessage(number, { waId, name: 'Ada' }, { type: 'text', text: { body: text } }, { id }),
        appSecret,
      );

    beforeAll(async () => {
      whatsApp = await startWhatsAppCloudStandIn({ accessToken, phoneNumberId: number.phoneNumberId });
      dir = await mkdtemp(path.join(tmpdir(), 'whatsapp-channel-'));
      const file = path.join(dir, 'bot.json');
      await writeFile(file, JSON.stringify(templateBot()));
      server = await startTestServer({
        ...leg.env(),
        BOT_DEFINITION: file,
        WHATSAPP_ACCESS_TOKEN: accessToken,
        WHATSAPP_PHONE_NUMBER_ID: number.phoneNumberId,
        WHATSAPP_APP_SECRET: appSecret,
        WHATSAPP_VERIFY_TOKEN: verifyToken,
        WHATSAPP_API_URL: whatsApp.graphUrl,
      });
      webhook = `${server.url}/api/webhooks/whatsapp`;
    });

    afterAll(async () => {
      await server?.stop();
      await whatsApp?.close();
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    it('when Meta verifies the webhook with the right token, then the challenge is echoed; with another token, then 403', async () => {
      const { response, challenge } = await verifyWhatsAppWebhook(webhook, verifyToken);
      expect(response.status).toBe(200);
      expect(await response.text()).toBe(challenge);
      const wrong = (await verifyWhatsAppWebhook(webhook, 'not-the-token')).response;
      expect(wrong.status).toBe(403);
      expect(await wrong.json()).toMatchObject({ error: { code: 'forbidden' } });
      const notVerification = await fetch(`${webhook}?hub.verify_token=${verifyToken}`);
      expect(notVerification.status).toBe(400);
      expect(await notVerification.json()).toMatchObject({
        error: { code: 'invalid_parameter', details: { parameter: 'hub.mode' } },
      });
      expect(server.logText()).not.toContain(verifyToken);
    });

    it('when a user writes and taps reply buttons, then the bot answers with texts, reply buttons, a list and numbered text Meta accepts', async () => {
      const ada = '16505550001';
      expect((await say(ada, 'Hi')).status).toBe(200);
      // A new user's first message opens the conversation and is its first answer: "Hi" is not a plan, so the question comes again.
      await eventually('the greeting, the two buttons and the question again', () => to(ada).length >= 3);
      expect(to(ada).map(shown)).toEqual([
        'Welcome.',
        'Pick a plan. [button: Basic | Pro]',
        'Pick a plan. [button: Basic | Pro]',
      ]);
      const pro = (to(ada)[2]!.body as { interactive: { action: { buttons: { reply: { id: string } }[] } } })
        .interactive.action.buttons[1]!.reply.id;

      const tap = incomingMessage(
        number,
        { waId: ada, name: 'Ada' },
        { type: 'interactive', interactive: { type: 'button_reply', button_reply: { id: pro, title: 'Pro' } } },
      );
      expect((await postWhatsAppWebhook(webhook, tap, appSecret)).status).toBe(200);
      await eventually('the list of six', () => to(ada).length >= 5);
      expect(to(ada).slice(3).map(shown)).toEqual([
        'You chose pro.',
        'Pick one of six. [list: Option 1 | Option 2 | Option 3 | Option 4 | Option 5 | Option 6]',
      ]);

      await say(ada, 'option 5');
      await eventually('the twelve as numbered text', () => to(ada).length >= 7);
      expect(shown(to(ada)[5]!)).toBe('Six: option-5.');
      expect(shown(to(ada)[6]!)).toMatch(/^Pick one of twelve\.\n\n1\. Option 1\n2\. Option 2[\s\S]*12\. Option 12/);
      await say(ada, '12');
      await eventually('the twelfth', () => to(ada).some((message) => shown(message) === 'Twelve: option-12.'));

      const user = await server.store.getUser(`whatsapp:${ada}`);
      expect(user).toMatchObject({
        channelId: 'whatsapp',
        userData: { plan: 'pro', phoneNumber: `+${ada}`, whatsappName: 'Ada' },
      });
      expect(whatsApp.log.filter((entry) => entry.status !== 200)).toEqual([]);
    });

    it('when the same message is delivered twice at once and again later, then the bot answers it once', async () => {
      const bea = '16505550002';
      const id = newWhatsAppMessageId();
      const answers = await Promise.all([say(bea, 'Hi', id), say(bea, 'Hi', id)]);
      expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
      await eventually('the greeting', () => to(bea).length >= 3);
      expect((await say(bea, 'Hi', id)).status).toBe(200);
      await say(bea, 'Basic');
      await eventually('the answer to the next message', () =>
        to(bea).some((message) => shown(message) === 'You chose basic.'),
      );
      expect(to(bea).filter((message) => shown(message) === 'Welcome.')).toHaveLength(1);
    });

    it('when the signature is missing, forged or over other bytes, then 401 or 403 with JSON, nothing is answered and no secret is logged', async () => {
      const cyd = '16505550003';
      const payload = incomingMessage(number, { waId: cyd, name: 'Cyd' }, { type: 'text', text: { body: 'Hi' } });
      const raw = JSON.stringify(payload);
      const missing = await fetch(webhook, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: raw,
      });
      expect(missing.status).toBe(401);
      expect(await missing.json()).toMatchObject({ error: { code: 'unauthorized' } });
      const forged = await postWhatsAppWebhook(webhook, payload, 'another-secret');
      expect(forged.status).toBe(403);
      // Signed over the same JSON with other spacing: the bytes differ, so the signature does too.
      const respaced = await fetch(webhook, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-hub-signature-256': signMetaBody(appSecret, JSON.stringify(payload, null, 1)),
        },
        body: raw,
      });
      expect(respaced.status).toBe(403);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(to(cyd)).toEqual([]);
      expect(await server.store.getUser(`whatsapp:${cyd}`)).toBeNull();
      for (const secret of [accessToken, appSecret, verifyToken]) expect(server.logText()).not.toContain(secret);
    });

    it('when a signed body is over 1 MiB or nested too deep, then 413 with JSON and nothing is stored', async () => {
      const big = JSON.stringify({ object: 'whatsapp_business_account', entry: [], padding: 'x'.repeat(1024 * 1024) });
      const oversized = await fetch(webhook, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-hub-signature-256': signMetaBody(appSecret, big) },
        body: big,
      });
      expect(oversized.status).toBe(413);
      expect(await oversized.json()).toMatchObject({ error: { code: 'payload_too_large' } });
      let deep: unknown = 'bottom';
      for (let level = 0; level < 40; level++) deep = { deeper: deep };
      const nested = await postWhatsAppWebhook(
        webhook,
        { object: 'whatsapp_business_account', entry: [], deep },
        appSecret,
      );
      expect(nested.status).toBe(413);
      expect(await nested.json()).toMatchObject({ error: { code: 'payload_too_large' } });
    });

    it("when Meta reports a message failed (the 24-hour window had closed), then the log names the message and Meta's code", async () => {
      const statuses = statusUpdates(number, [
        { id: 'wamid.sent-earlier', recipient_id: '16505550004', status: 'read', timestamp: '1750000000' },
        {
          id: 'wamid.sent-late',
          recipient_id: '16505550004',
          status: 'failed',
          timestamp: '1750000001',
          errors: [
            {
              code: 131047,
              title: 'Re-engagement message',
              message: 'Re-engagement message',
              error_data: { details: 'More than 24 hours have passed since the customer last replied.' },
            },
          ],
        },
      ]);
      expect((await postWhatsAppWebhook(webhook, statuses, appSecret)).status).toBe(200);
      const failed = await eventually('the failed status in the log', () =>
        server.logs.find((line) => line.event === 'whatsapp_status' && line.status === 'failed'),
      );
      expect(failed).toMatchObject({ messageId: 'wamid.sent-late', vendorCode: 131047 });
      expect(server.logs.some((line) => line.event === 'whatsapp_status' && line.status === 'read')).toBe(true);
    });

    it('when Meta answers a rate limit, then the message is sent after waiting, once', async () => {
      const dot = '16505550005';
      whatsApp.failNext('rate-limit');
      await say(dot, 'Hi');
      await eventually('the greeting after the wait', () => to(dot).length >= 3, 10_000);
      expect(to(dot).map(shown)).toEqual([
        'Welcome.',
        'Pick a plan. [button: Basic | Pro]',
        'Pick a plan. [button: Basic | Pro]',
      ]);
      expect(server.logs.some((line) => line.event === 'channel_rate_limited' && line.channel === 'whatsapp')).toBe(
        true,
      );
    });

    it('when a trigger is for a user who never wrote, then it is refused with 409 naming the 24-hour window, and nothing is sent', async () => {
      const gus = '16505550007';
      const answer = await trigger(server, gus, 'reminder');
      expect(answer.status).toBe(409);
      const body = (await answer.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('whatsapp_window_closed');
      expect(body.error.message).toMatch(/within 24 hours of their last message.*never written/);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(to(gus)).toEqual([]);
      expect(await server.store.getUser(`whatsapp:${gus}`)).toBeNull();
    });

    it('when a trigger outside the 24-hour window starts a dialog with a template, then Meta gets the template with its parameters, and the dialog runs on when the user answers', async () => {
      const ivy = '16505550009';
      const answer = await trigger(server, ivy, 'shipped', { order: 'A-17' });
      expect(answer.status).toBe(202);
      await eventually('the template', () => to(ivy).length >= 1);
      // Its two messages (the news and the question) became one template: nothing else left.
      await eventually('the question covered by the template', () =>
        server.logs.some((line) => line.event === 'channel_send_covered' && line.userId === `whatsapp:${ivy}`),
      );
      expect(to(ivy).map((message) => message.body)).toEqual([
        {
          messaging_product: 'whatsapp',
          recipient_type: 'individual',
          to: ivy,
          type: 'template',
          template: {
            name: 'order_shipped',
            language: { policy: 'deterministic', code: 'en_US' },
            // whatsappName is unknown before the user writes: "…", as Meta refuses an empty parameter.
            components: [
              {
                type: 'body',
                parameters: [
                  { type: 'text', text: 'A-17' },
                  { type: 'text', text: '…' },
                ],
              },
            ],
          },
        },
      ]);
      const reply = incomingMessage(
        number,
        { waId: ivy, name: 'Ivy' },
        { type: 'button', button: { text: 'Good', payload: 'good' } },
      );
      expect((await postWhatsAppWebhook(webhook, reply, appSecret)).status).toBe(200);
      await eventually('the dialog going on', () => to(ivy).some((message) => shown(message) === 'Thanks: good.'));
      expect(
        whatsApp.log.flatMap((entry) => entry.problems).filter((problem) => !problem.startsWith('told to')),
      ).toEqual([]);
    });

    it('when a trigger is for a user who wrote within 24 hours, then it is accepted and its dialog reaches them', async () => {
      const hal = '16505550008';
      await say(hal, 'Hi');
      await eventually('the greeting', () => to(hal).length >= 3);
      const answer = await trigger(server, hal, 'reminder');
      expect(answer.status).toBe(202);
      await eventually('the reminder', () => to(hal).some((message) => shown(message) === 'Your order has shipped.'));
    });

    it('when a user sends 20 messages in a burst, then the 20 echoes reach WhatsApp in the order they were sent', async () => {
      const eve = '16505550006';
      await say(eve, 'Hi');
      await eventually('the greeting', () => to(eve).length >= 3);
      for (const answer of ['Pro', 'Option 1', '1']) {
        const before = to(eve).length;
        await say(eve, answer);
        await eventually(`the answer to ${answer}`, () => to(eve).length > before + 1);
      }
      const before = to(eve).length;
      for (let n = 1; n <= 20; n++) await say(eve, `m${n}`);
      await eventually(
        'twenty echoes',
        () =>
          to(eve)
            .slice(before)
            .filter((message) => shown(message).startsWith('Echo:')).length >= 20,
        20_000,
      );
      expect(
        to(eve)
          .slice(before)
          .filter((message) => shown(message).startsWith('Echo:'))
          .map(shown),
      ).toEqual(Array.from({ length: 20 }, (_, n) => `Echo: m${n + 1}`));
    });
  });
}
