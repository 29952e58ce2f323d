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
} from '../../../test/start-test-server.ts';
import { channelBot } from '../../test/channel-bot.ts';
import { signMetaBody } from '../../test/vendors/signatures/meta-signature.ts';
import { startMessengerStandIn, type MessengerSentMessage, type MessengerStandIn } from './messenger-stand-in.ts';
import { newMid, pageWebhook, postMessengerWebhook, textEvent, verifyMessengerWebhook } from './messenger-webhooks.ts';

const pageAccessToken = 'EAAmessenger-test-page-access-token-0123456789';
const appSecret = 'messenger-app-secret-0123456789abcdef';
const verifyToken = 'messenger-verify-token-0123456789';

interface Shown {
  text?: string;
  quick_replies?: { title: string; payload: string }[];
  attachment?: { payload: { template_type: string; text: string; buttons: { title: string; payload: string }[] } };
}

/** What the person sees of one accepted message: its text, and its buttons or quick replies. */
function shown(sent: MessengerSentMessage): string {
  const message = sent.message as Shown;
  const template = message.attachment?.payload;
  if (template)
    return `${template.text} [${template.template_type}: ${template.buttons.map((b) => b.title).join(' | ')}]`;
  const quick = message.quick_replies;
  return quick ? `${message.text} [quick: ${quick.map((q) => q.title).join(' | ')}]` : String(message.text);
}

function trigger(server: TestServer, psid: string, dialogId: string): Promise<Response> {
  const address = Buffer.from(
    JSON.stringify({ bot: 'channel-bot', user: `messenger:${psid}`, channelId: 'messenger' }),
  ).toString('base64url');
  return fetch(`${server.url}/api/management/trigger/${address}/${dialogId}`, {
    method: 'POST',
    headers: { 'x-functions-key': TEST_FUNCTION_KEY },
  });
}

for (const leg of storeLegs()) {
  describe.skipIf(leg.skip)(`the Facebook Messenger channel (${leg.name})`, () => {
    let messenger: MessengerStandIn;
    let server: TestServer;
    let dir: string;
    let webhook: string;
    const to = (psid: string) => messenger.accepted().filter((message) => message.to === psid);
    const say = (psid: string, text: string, mid = newMid()) =>
      postMessengerWebhook(webhook, pageWebhook(psid, textEvent(text, mid)), appSecret);
    const greeted = async (psid: string) => {
      await say(psid, 'Hi');
      await eventually('the greeting and the question', () => to(psid).length >= 3);
    };

    beforeAll(async () => {
      messenger = await startMessengerStandIn({ pageAccessToken });
      dir = await mkdtemp(path.join(tmpdir(), 'messenger-channel-'));
      const file = path.join(dir, 'bot.json');
      await writeFile(file, JSON.stringify(channelBot()));
      server = await startTestServer({
        ...leg.env(),
        BOT_DEFINITION: file,
        MESSENGER_PAGE_ACCESS_TOKEN: pageAccessToken,
        MESSENGER_APP_SECRET: appSecret,
        MESSENGER_VERIFY_TOKEN: verifyToken,
        MESSENGER_API_URL: messenger.graphUrl,
      });
      webhook = `${server.url}/api/webhooks/messenger`;
    });

    afterAll(async () => {
      await server?.stop();
      await messenger?.close();
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    it('when Meta verifies the webhook with the right token, then the challenge is echoed; with another token, then 403', async () => {
      const { response, challenge } = await verifyMessengerWebhook(webhook, verifyToken);
      expect(response.status).toBe(200);
      expect(await response.text()).toBe(challenge);
      const wrong = (await verifyMessengerWebhook(webhook, 'not-the-token-at-all')).response;
      expect(wrong.status).toBe(403);
      expect(await wrong.json()).toMatchObject({
        error: { code: 'forbidden', message: expect.stringContaining('MESSENGER_VERIFY_TOKEN') },
      });
      expect(server.logText()).not.toContain(verifyToken);
    });

    it('when a person writes, taps a postback and a quick reply, then the bot answers with texts and quick replies Meta accepts', async () => {
      const ada = '1254477777772919';
      await greeted(ada);
      expect(to(ada).map(shown)).toEqual([
        'Welcome.',
        'Pick a plan. [quick: Basic | Pro]',
        'Pick a plan. [quick: Basic | Pro]',
      ]);
      expect(to(ada).every((message) => message.messagingType === 'RESPONSE')).toBe(true);
      // A persistent menu's or an older message's button posts back its title and payload.
      const pro = (to(ada)[2]!.message as Shown).quick_replies![1]!;
      const tap = pageWebhook(ada, { postback: { mid: newMid(), title: pro.title, payload: pro.payload } });
      expect((await postMessengerWebhook(webhook, tap, appSecret)).status).toBe(200);
      await eventually('the six as quick replies', () => to(ada).length >= 5);
      expect(to(ada).slice(3).map(shown)).toEqual([
        'You chose pro.',
        'Pick one of six. [quick: Option 1 | Option 2 | Option 3 | Option 4 | Option 5 | Option 6]',
      ]);
      const five = (to(ada)[4]!.message as Shown).quick_replies![4]!;
      const quick = pageWebhook(ada, {
        message: { mid: newMid(), text: five.title, quick_reply: { payload: five.payload } },
      });
      expect((await postMessengerWebhook(webhook, quick, appSecret)).status).toBe(200);
      await eventually('the twelve as quick replies', () => to(ada).length >= 7);
      expect(shown(to(ada)[5]!)).toBe('Six: option-5.');
      expect(shown(to(ada)[6]!)).toMatch(/^Pick one of twelve\. \[quick: Option 1 \|[\s\S]*Option 12\]$/);
      await say(ada, '12');
      await eventually('the twelfth', () => to(ada).some((message) => shown(message) === 'Twelve: option-12.'));
      expect(await server.store.getUser(`messenger:${ada}`)).toMatchObject({
        channelId: 'messenger',
        userData: { plan: 'pro' },
      });
      expect(messenger.log.filter((entry) => entry.status !== 200)).toEqual([]);
    });

    it("when the page's own message comes back as an echo, then the bot does not answer it", async () => {
      const bea = '1254477777772920';
      await greeted(bea);
      const echo = pageWebhook(bea, {
        message: { mid: newMid(), text: 'Welcome.', is_echo: true, app_id: 1517776481860111 },
      });
      expect((await postMessengerWebhook(webhook, echo, appSecret)).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(to(bea)).toHaveLength(3);
    });

    it('when the same message is delivered 10 times at once and again later, then the bot answers it once', async () => {
      const cyd = '1254477777772921';
      const mid = newMid();
      const answers = await Promise.all(Array.from({ length: 10 }, () => say(cyd, 'Hi', mid)));
      expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
      await eventually('the greeting', () => to(cyd).length >= 3);
      expect((await say(cyd, 'Hi', mid)).status).toBe(200);
      await say(cyd, 'Basic');
      await eventually('the answer to the next message', () =>
        to(cyd).some((message) => shown(message) === 'You chose basic.'),
      );
      expect(to(cyd).filter((message) => shown(message) === 'Welcome.')).toHaveLength(1);
    });

    it('when the signature is missing, forged or over other bytes, then 401 or 403 with JSON, nothing is answered and no secret is logged', async () => {
      const dot = '1254477777772922';
      const payload = pageWebhook(dot, textEvent('Hi'));
      const raw = JSON.stringify(payload);
      const missing = await fetch(webhook, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: raw,
      });
      expect(missing.status).toBe(401);
      expect(await missing.json()).toMatchObject({ error: { code: 'unauthorized' } });
      const forged = await postMessengerWebhook(webhook, payload, 'another-app-secret-0123456789');
      expect(forged.status).toBe(403);
      expect(await forged.json()).toMatchObject({
        error: { code: 'forbidden', message: expect.stringContaining('MESSENGER_APP_SECRET') },
      });
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
      expect(to(dot)).toEqual([]);
      expect(await server.store.getUser(`messenger:${dot}`)).toBeNull();
      for (const secret of [pageAccessToken, appSecret, verifyToken]) expect(server.logText()).not.toContain(secret);
    });

    it('when Meta answers a rate limit (613), then the message is sent after waiting, once; when the person is unavailable (551), then it is not retried', async () => {
      const eve = '1254477777772923';
      messenger.failNext('rate-limit');
      await greeted(eve);
      expect(to(eve).map(shown)[0]).toBe('Welcome.');
      expect(server.logs.some((line) => line.event === 'channel_rate_limited' && line.channel === 'messenger')).toBe(
        true,
      );
      const refusedBefore = messenger.log.filter((entry) =>
        entry.problems.includes('told to answer unavailable'),
      ).length;
      messenger.failNext('unavailable');
      await say(eve, 'Basic');
      await eventually('the refusal in the log', () =>
        server.logs.some(
          (line) => line.event === 'channel_send_refused' && line.channel === 'messenger' && line.vendorCode === '551',
        ),
      );
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(messenger.log.filter((entry) => entry.problems.includes('told to answer unavailable'))).toHaveLength(
        refusedBefore + 1,
      );
    });

    it('when a trigger is for a person who never wrote, then it is refused with 409, and nothing is sent; within 24 hours it reaches them', async () => {
      const fay = '1254477777772924';
      const answer = await trigger(server, fay, 'reminder');
      expect(answer.status).toBe(409);
      const body = (await answer.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('messenger_window_closed');
      expect(body.error.message).toMatch(/never written/);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(to(fay)).toEqual([]);
      await greeted(fay);
      expect((await trigger(server, fay, 'reminder')).status).toBe(202);
      await eventually('the reminder', () => to(fay).some((message) => shown(message) === 'Your order has shipped.'));
    });

    it('when a person sends 20 messages in a burst, then the 20 echoes reach Messenger in the order they were sent', async () => {
      const gus = '1254477777772925';
      await greeted(gus);
      for (const answer of ['Pro', 'Option 1', '1']) {
        const before = to(gus).length;
        await say(gus, answer);
        await eventually(`the answer to ${answer}`, () => to(gus).length > before + 1);
      }
      const before = to(gus).length;
      for (let n = 1; n <= 20; n++) await say(gus, `m${n}`);
      const echoes = () =>
        to(gus)
          .slice(before)
          .map(shown)
          .filter((text) => text.startsWith('Echo:'));
      await eventually('twenty echoes', () => echoes().length >= 20, 20_000);
      expect(echoes()).toEqual(Array.from({ length: 20 }, (_, n) => `Echo: m${n + 1}`));
    });
  });
}
