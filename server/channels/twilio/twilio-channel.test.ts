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
import { signTwilioRequest } from '../test/vendors/signatures/twilio-signature.ts';
import { startTwilioStandIn, type TwilioStandIn } from '../test/vendors/twilio/twilio-stand-in.ts';
import { incomingTwilioMessage, newMessageSid, postTwilioWebhook } from '../test/vendors/twilio/twilio-webhooks.ts';

const accountSid = `AC${'4'.repeat(32)}`;
const authToken = '0123456789abcdef0123456789abcdef';
const smsNumber = '+15017122661';
const whatsAppNumber = '+14155238886';
/** What Twilio was told: the public address, which behind a proxy is not the server's own. */
const publicUrl = 'https://bot.example.com';

/** Starts a dialog for a Twilio user through the management API, as an external system does. */
function trigger(
  server: TestServer,
  channelId: string,
  number: string,
  dialogId: string,
  body?: object,
): Promise<Response> {
  const address = Buffer.from(
    JSON.stringify({ bot: 'channel-bot', user: `${channelId}:${number}`, channelId }),
  ).toString('base64url');
  return fetch(`${server.url}/api/management/trigger/${address}/${dialogId}`, {
    method: 'POST',
    headers: { 'x-functions-key': TEST_FUNCTION_KEY, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
}

/** The channel bot with a dialog that opens with an approved template outside WhatsApp's window (its Content SID at Twilio). */
const contentSid = `HX${'b'.repeat(32)}`;
function templateBot() {
  const bot = channelBot();
  const shipped = {
    id: 'shipped',
    whatsappTemplate: { name: 'order_shipped', language: 'en', parameters: ['{{triggerData.order}}'], contentSid },
    steps: [
      { id: 'told', type: 'message', text: 'Your order {{triggerData.order}} has shipped.' },
      { id: 'rate', type: 'input', prompt: 'How was the delivery?', saveTo: { variable: 'rating' } },
      { id: 'thanks', type: 'message', text: 'Thanks: {{rating}}.' },
    ],
  };
  return { ...bot, dialogs: [...bot.dialogs, shipped] };
}

for (const leg of storeLegs()) {
  describe.skipIf(leg.skip)(`SMS and WhatsApp through Twilio (${leg.name})`, () => {
    let twilio: TwilioStandIn;
    let server: TestServer;
    let dir: string;
    const to = (address: string) => twilio.accepted().filter((message) => message.to === address);
    const texts = (address: string) => to(address).map((message) => message.body ?? '');
    const local = (channel: 'twilio-sms' | 'twilio-whatsapp') => `${server.url}/api/webhooks/${channel}`;
    const signedUrl = (channel: 'twilio-sms' | 'twilio-whatsapp') => `${publicUrl}/api/webhooks/${channel}`;
    const text = (from: string, body: string, messageSid = newMessageSid()) =>
      postTwilioWebhook(
        local('twilio-sms'),
        signedUrl('twilio-sms'),
        incomingTwilioMessage({ accountSid, from, to: smsNumber, body, messageSid }),
        authToken,
      );

    beforeAll(async () => {
      twilio = await startTwilioStandIn({ accountSid, authToken });
      dir = await mkdtemp(path.join(tmpdir(), 'twilio-channel-'));
      const file = path.join(dir, 'bot.json');
      await writeFile(file, JSON.stringify(templateBot()));
      server = await startTestServer({
        ...leg.env(),
        BOT_DEFINITION: file,
        PUBLIC_URL: publicUrl,
        TWILIO_ACCOUNT_SID: accountSid,
        TWILIO_AUTH_TOKEN: authToken,
        TWILIO_SMS_FROM: smsNumber,
        TWILIO_WHATSAPP_FROM: whatsAppNumber,
        TWILIO_API_URL: twilio.apiUrl,
      });
    });

    afterAll(async () => {
      await server?.stop();
      await twilio?.close();
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    it('when a user texts, then the choices come as numbered text, and an answer by number or by label is understood', async () => {
      const ada = '+15558670001';
      expect((await text(ada, 'Hi')).status).toBe(200);
      // A new user's first message opens the conversation and is its first answer: "Hi" is not a plan, so the question comes again.
      await eventually('the greeting and the numbered plans', () => to(ada).length >= 3);
      expect(texts(ada)).toEqual(['Welcome.', 'Pick a plan.\n\n1. Basic\n2. Pro', 'Pick a plan.\n\n1. Basic\n2. Pro']);
      expect(to(ada)[0]).toMatchObject({
        from: smsNumber,
        segments: 1,
        params: { StatusCallback: signedUrl('twilio-sms') },
      });
      await text(ada, '2');
      await eventually('the plan', () => texts(ada).includes('You chose pro.'));
      await text(ada, 'option 6');
      await eventually('the sixth', () => texts(ada).includes('Six: option-6.'));
      expect(await server.store.getUser(`twilio-sms:${ada}`)).toMatchObject({
        channelId: 'twilio-sms',
        userData: { plan: 'pro', phoneNumber: ada },
      });
      expect(twilio.log.filter((entry) => entry.status !== 201)).toEqual([]);
    });

    it('when WhatsApp through Twilio delivers a message, then the answer goes back from the WhatsApp sender with the profile name kept', async () => {
      const bea = '+15558670002';
      const params = incomingTwilioMessage({
        accountSid,
        from: `whatsapp:${bea}`,
        to: `whatsapp:${whatsAppNumber}`,
        body: 'Hi',
        profileName: 'Bea',
      });
      expect(
        (await postTwilioWebhook(local('twilio-whatsapp'), signedUrl('twilio-whatsapp'), params, authToken)).status,
      ).toBe(200);
      await eventually('the greeting on WhatsApp', () => to(`whatsapp:${bea}`).length >= 3);
      expect(to(`whatsapp:${bea}`)[0]).toMatchObject({ from: `whatsapp:${whatsAppNumber}`, body: 'Welcome.' });
      expect(await server.store.getUser(`twilio-whatsapp:${bea}`)).toMatchObject({
        userData: { whatsappName: 'Bea', phoneNumber: bea },
      });
    });

    it('when Twilio redelivers a MessageSid, at once or later, then it is answered once', async () => {
      const cyd = '+15558670003';
      const sid = newMessageSid();
      expect((await Promise.all([text(cyd, 'Hi', sid), text(cyd, 'Hi', sid)])).map((answer) => answer.status)).toEqual([
        200, 200,
      ]);
      await eventually('the greeting', () => to(cyd).length >= 3);
      await text(cyd, 'Hi', sid);
      await text(cyd, 'Basic');
      await eventually('the next answer', () => texts(cyd).includes('You chose basic.'));
      expect(texts(cyd).filter((body) => body === 'Welcome.')).toHaveLength(1);
    });

    it('when the signature is over the address the server sees rather than PUBLIC_URL, or is missing, then 403 or 401 and nothing is answered', async () => {
      const dot = '+15558670004';
      const params = incomingTwilioMessage({ accountSid, from: dot, to: smsNumber, body: 'Hi' });
      const overLocal = await postTwilioWebhook(local('twilio-sms'), local('twilio-sms'), params, authToken);
      expect(overLocal.status).toBe(403);
      expect(await overLocal.json()).toMatchObject({ error: { code: 'forbidden' } });
      expect(
        (await postTwilioWebhook(local('twilio-sms'), signedUrl('twilio-sms'), params, authToken, { signature: null }))
          .status,
      ).toBe(401);
      const tampered = await postTwilioWebhook(
        local('twilio-sms'),
        signedUrl('twilio-sms'),
        { ...params, Body: 'Hi!' },
        authToken,
        { signature: signTwilioRequest(authToken, signedUrl('twilio-sms'), params) },
      );
      expect(tampered.status).toBe(403);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(to(dot)).toEqual([]);
      expect(server.logText()).not.toContain(authToken);
    });

    it('when Twilio was given a webhook address with a query string, then the signature over it, query as sent, is accepted', async () => {
      const kit = '+15558670010';
      const params = incomingTwilioMessage({ accountSid, from: kit, to: smsNumber, body: 'Hi' });
      const query = '?source=sms&tag=a%20b';
      const answer = await postTwilioWebhook(
        `${local('twilio-sms')}${query}`,
        `${signedUrl('twilio-sms')}${query}`,
        params,
        authToken,
      );
      expect(answer.status).toBe(200);
      await eventually('the greeting', () => to(kit).length >= 1);
    });

    it('when a signed form is over 64 KiB, then 413 with JSON and nothing is answered', async () => {
      const lou = '+15558670011';
      const params = incomingTwilioMessage({ accountSid, from: lou, to: smsNumber, body: 'x'.repeat(70 * 1024) });
      const answer = await postTwilioWebhook(local('twilio-sms'), signedUrl('twilio-sms'), params, authToken);
      expect(answer.status).toBe(413);
      expect(await answer.json()).toMatchObject({ error: { code: 'payload_too_large' } });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(to(lou)).toEqual([]);
    });

    it("when a user texts STOP, then Twilio's own carrier handling answers and the bot runs nothing; HELP and START likewise", async () => {
      const eve = '+15558670005';
      for (const keyword of ['STOP', 'help', 'Start']) expect((await text(eve, keyword)).status).toBe(200);
      await eventually(
        'the keywords in the log',
        () =>
          server.logs.filter((line) => line.event === 'sms_keyword' && line.userId === `twilio-sms:${eve}`).length ===
          3,
      );
      expect(to(eve)).toEqual([]);
    });

    it('when a number texted STOP, then a trigger to it is refused with 409 saying so; after START it is carried again', async () => {
      const ida = '+15558670008';
      await text(ida, 'Hi');
      await eventually('the greeting', () => to(ida).length >= 3);
      await text(ida, 'STOP');
      const refused = await trigger(server, 'twilio-sms', ida, 'reminder');
      expect(refused.status).toBe(409);
      const body = (await refused.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('sms_opted_out');
      expect(body.error.message).toMatch(/texted STOP.*START/);
      await text(ida, 'start');
      expect((await trigger(server, 'twilio-sms', ida, 'reminder')).status).toBe(202);
      await eventually('the reminder', () => texts(ida).includes('Your order has shipped.'));
      expect(texts(ida).filter((body) => body === 'Your order has shipped.')).toHaveLength(1);
    });

    it("when a number that texted STOP writes again, then the bot's answer is refused before calling Twilio, with 21610 in the log", async () => {
      const max = '+15558670012';
      await text(max, 'STOP');
      await text(max, 'Hi');
      await eventually('the refusal', () =>
        server.logs.find(
          (line) =>
            line.event === 'channel_send_refused' && line.userId === `twilio-sms:${max}` && line.vendorCode === '21610',
        ),
      );
      expect(
        twilio.log.filter(
          (entry) =>
            entry.accepted?.to === max ||
            (entry.status !== 201 && entry.problems.some((problem) => problem.includes(max))),
        ),
      ).toEqual([]);
      expect(to(max)).toEqual([]);
    });

    it('when a trigger is for a WhatsApp-through-Twilio user who never wrote, then it is refused with 409 naming the 24-hour window', async () => {
      const answer = await trigger(server, 'twilio-whatsapp', '+15558670009', 'reminder');
      expect(answer.status).toBe(409);
      expect(await answer.json()).toMatchObject({ error: { code: 'whatsapp_window_closed' } });
    });

    it('when a trigger outside the window starts a dialog with a Content SID, then Twilio gets the content template and its variables, and the dialog runs on when the user answers', async () => {
      const ivy = '+15558670010';
      expect((await trigger(server, 'twilio-whatsapp', ivy, 'shipped', { order: 'A-17' })).status).toBe(202);
      await eventually('the content template', () => to(`whatsapp:${ivy}`).length >= 1);
      await eventually('the question covered by the template', () =>
        server.logs.some((line) => line.event === 'channel_send_covered' && line.userId === `twilio-whatsapp:${ivy}`),
      );
      expect(to(`whatsapp:${ivy}`).map((message) => message.params)).toEqual([
        expect.objectContaining({ ContentSid: contentSid, ContentVariables: JSON.stringify({ 1: 'A-17' }) }),
      ]);
      await postTwilioWebhook(
        local('twilio-whatsapp'),
        signedUrl('twilio-whatsapp'),
        incomingTwilioMessage({ accountSid, from: `whatsapp:${ivy}`, to: `whatsapp:${whatsAppNumber}`, body: 'Fast' }),
        authToken,
      );
      await eventually('the dialog going on', () => texts(`whatsapp:${ivy}`).includes('Thanks: Fast.'));
    });

    it("when Twilio reports a message failed, then the log names the message and Twilio's error code", async () => {
      const params = {
        AccountSid: accountSid,
        MessageSid: newMessageSid(),
        MessageStatus: 'failed',
        SmsStatus: 'failed',
        ErrorCode: '30003',
        To: '+15558670006',
        From: smsNumber,
        ApiVersion: '2010-04-01',
      };
      expect((await postTwilioWebhook(local('twilio-sms'), signedUrl('twilio-sms'), params, authToken)).status).toBe(
        200,
      );
      const failed = await eventually('the failed status', () =>
        server.logs.find((line) => line.event === 'twilio_status' && line.messageSid === params.MessageSid),
      );
      expect(failed).toMatchObject({ status: 'failed', vendorCode: '30003' });
    });

    it('when the number has opted out at Twilio (21610), then the send is given up at once and the integration log has the code', async () => {
      const fay = '+15558670007';
      twilio.failNext('opted-out');
      await text(fay, 'Hi');
      await eventually('the refusal in the log', () =>
        server.logs.find((line) => line.event === 'channel_send_refused' && line.vendorCode === '21610'),
      );
    });
  });
}
