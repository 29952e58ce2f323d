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
import { slackBot } from './slack-bot.ts';
import {
  BOT_USER,
  buttonClick,
  channelMessage,
  directMessage,
  mention,
  newTs,
  postToSlackWebhook,
  slackSignature,
} from './slack-requests.ts';
import { startSlackStandIn, type SeenCall, type SlackStandIn } from './slack-stand-in.ts';

const SECRET = '8f742231b10e8888abcd99yyyzzz85a5';

type Block = {
  type: string;
  text?: { type: string; text: string };
  elements?: { type: string; text: { text: string }; value?: string; url?: string }[];
  accessory?: { image_url: string };
  image_url?: string;
};

/** What Slack accepted for a channel (and thread), in order. */
function postedTo(standIn: SlackStandIn, channel: string, threadTs?: string): SeenCall[] {
  return standIn.calls.filter(
    (call) => call.ok && call.params.channel === channel && call.params.thread_ts === threadTs,
  );
}
const textsTo = (standIn: SlackStandIn, channel: string, threadTs?: string) =>
  postedTo(standIn, channel, threadTs).map((call) => String(call.params.text));
const blocksOf = (call: SeenCall) => call.params.blocks as Block[];
const buttonsOf = (call: SeenCall) =>
  blocksOf(call).flatMap((block) => (block.type === 'actions' ? (block.elements ?? []) : []));

for (const leg of storeLegs()) {
  describe.skipIf(leg.skip)(`the Slack channel (${leg.name})`, () => {
    let standIn: SlackStandIn;
    let server: TestServer;
    let dir: string;
    let webhook: string;
    const post = (
      body: Record<string, unknown> | URLSearchParams,
      options: { timestamp?: number; signature?: string; retryNum?: number } = {},
    ) => postToSlackWebhook(webhook, body, { secret: SECRET, ...options });

    beforeAll(async () => {
      standIn = await startSlackStandIn();
      dir = await mkdtemp(path.join(tmpdir(), 'slack-channel-'));
      const file = path.join(dir, 'bot.json');
      await writeFile(file, JSON.stringify(slackBot()));
      server = await startTestServer({
        ...leg.env(),
        BOT_DEFINITION: file,
        SLACK_BOT_TOKEN: standIn.token,
        SLACK_SIGNING_SECRET: SECRET,
        SLACK_API_URL: standIn.url,
        PUBLIC_URL: 'https://bot.example.com',
      });
      webhook = `${server.url}/api/webhooks/slack`;
    });

    afterAll(async () => {
      await server?.stop();
      await standIn?.close();
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    it('when Slack verifies the Request URL, then its challenge is echoed, and an unsigned or forged one is refused', async () => {
      const challenge = {
        token: 'deprecated',
        challenge: '3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P',
        type: 'url_verification',
      };
      const answered = await post(challenge);
      expect(answered.status).toBe(200);
      expect(await answered.text()).toBe(challenge.challenge);
      const unsigned = await post(challenge, { signature: '' });
      expect(unsigned.status).toBe(401);
      expect(await unsigned.json()).toMatchObject({ error: { code: 'unauthorized' } });
      const forged = await post(challenge, {
        signature: slackSignature(
          'another-signing-secret-000000000',
          String(Math.floor(Date.now() / 1000)),
          JSON.stringify(challenge),
        ),
      });
      expect(forged.status).toBe(403);
    });

    it('when a user writes to the bot directly and presses its buttons, then each answer reaches the direct message as Block Kit with a text fallback, and their Slack id is user data', async () => {
      const channel = 'D0PNCRP9N';
      expect((await post(directMessage(channel, 'U061F7AUR', 'hi'))).status).toBe(200);
      await eventually('the greeting and the question', () => textsTo(standIn, channel).includes('Pick a plan.'));
      const [hello, pick] = postedTo(standIn, channel);
      // Slack's markup characters are escaped: a variable cannot ping a channel or forge a link.
      expect(hello!.params.text).toBe('Hello &lt;@U061F7AUR&gt; &amp; welcome.');
      expect(blocksOf(hello!)).toEqual([
        { type: 'section', text: { type: 'mrkdwn', text: 'Hello &lt;@U061F7AUR&gt; &amp; welcome.' } },
      ]);
      expect(buttonsOf(pick!).map((button) => button.text.text)).toEqual(['Basic', 'Pro']);
      expect(await server.store.getUser(`slack:${channel}`)).toMatchObject({
        channelId: 'slack',
        userData: { slackUserId: 'U061F7AUR' },
      });

      const pro = buttonsOf(pick!).find((button) => button.text.text === 'Pro')!;
      expect((await post(buttonClick(channel, 'U061F7AUR', pro.value!, { ts: pick!.ts! }))).status).toBe(200);
      await eventually('the choice answered', () => textsTo(standIn, channel).includes('Say something.'));
      const chosen = postedTo(standIn, channel).find((call) => call.params.text === 'You chose pro.')!;
      // The link is the bot's tracked link (PUBLIC_URL/r/…), a URL button beside the choice.
      expect(
        buttonsOf(chosen).map((button) => [
          button.text.text,
          button.url?.startsWith('https://bot.example.com/r/') ? 'link' : 'choice',
        ]),
      ).toEqual([
        ['Tell me more', 'choice'],
        ['Pricing', 'link'],
      ]);

      // The bot's own post coming back as an event, and an edit, are not the user speaking.
      await post(directMessage(channel, BOT_USER, 'Say something.', { botId: 'B0STANDIN1' }));
      await post(directMessage(channel, 'U061F7AUR', 'edited', { subtype: 'message_changed' }));
      const more = buttonsOf(chosen).find((button) => button.text.text === 'Tell me more')!;
      await post(buttonClick(channel, 'U061F7AUR', more.value!, { ts: chosen.ts! }));
      await eventually('the button answered', () => textsTo(standIn, channel).includes('You said more.'));
      await post(directMessage(channel, 'U061F7AUR', 'thanks <!channel>'));
      await eventually('the typed answer', () => textsTo(standIn, channel).length === 9);
      // "hi" opened the conversation and answered its question (no plan: asked again).
      expect(textsTo(standIn, channel)).toEqual([
        'Hello &lt;@U061F7AUR&gt; &amp; welcome.',
        'Pick a plan.',
        'Pick a plan.',
        'You chose pro.',
        'Say something.',
        'You said more.',
        'Say something.',
        'You said thanks &lt;!channel&gt;.',
        'Say something.',
      ]);
    });

    it('when a user mentions the bot in a channel, then it answers in that thread, and the thread is one conversation', async () => {
      const channel = 'C0LAN2Q65';
      const root = newTs();
      expect((await post(mention(channel, 'U0ADA0001', '', { ts: root }))).status).toBe(200);
      // Subscribed to channel messages too, Slack also posts the mention as a plain message: not answered twice.
      await post(channelMessage(channel, 'U0ADA0001', `<@${BOT_USER}>`));
      await eventually('the question in the thread', () => textsTo(standIn, channel, root).includes('Pick a plan.'));
      await post(mention(channel, 'U0GRACE01', 'Basic', { threadTs: root }));
      await eventually('the choice answered in the thread', () =>
        textsTo(standIn, channel, root).includes('Say something.'),
      );
      expect(textsTo(standIn, channel, root)).toEqual([
        'Hello &lt;@U0ADA0001&gt; &amp; welcome.',
        'Pick a plan.',
        'You chose basic.',
        'Say something.',
      ]);
      expect(standIn.calls.filter((call) => call.params.channel === channel && call.params.thread_ts !== root)).toEqual(
        [],
      );
      expect(await server.store.getUser(`slack:${channel}/${root}`)).toMatchObject({
        channelId: 'slack',
        userData: { plan: 'basic' },
      });
    });

    it('when Slack delivers an event twice at once and retries it five times, then the bot answers it once', async () => {
      const channel = 'D0RETRY001';
      const event = directMessage(channel, 'U0RETRY01', 'hello');
      const together = await Promise.all([post(event), post(event)]);
      expect(together.map((response) => response.status)).toEqual([200, 200]);
      for (let retry = 1; retry <= 5; retry++) expect((await post(event, { retryNum: retry })).status).toBe(200);
      await post(directMessage(channel, 'U0RETRY01', 'Basic'));
      await eventually('the later answer', () => textsTo(standIn, channel).includes('Say something.'));
      // The first message opens the conversation and is then taken as the answer to its question ("hello" is no plan: asked again).
      expect(textsTo(standIn, channel)).toEqual([
        'Hello &lt;@U0RETRY01&gt; &amp; welcome.',
        'Pick a plan.',
        'Pick a plan.',
        'You chose basic.',
        'Say something.',
      ]);
      const transcript = await server.store.readTranscript(`slack:${channel}`, 0, 100);
      expect(transcript.filter((entry) => entry.from === 'user').map((entry) => entry.message)).toEqual([
        { type: 'text', text: 'hello' },
        { type: 'postback', label: 'Basic', payload: 'basic' },
      ]);
    });

    it('when an event comes with a forged, missing or stale signature, or replayed after five minutes, then it is refused with a JSON error and nothing of it is kept', async () => {
      const channel = 'D0FORGED01';
      const event = directMessage(channel, 'U0FORGE01', 'hello');
      const now = Math.floor(Date.now() / 1000);
      const refusals = [
        await post(event, { signature: '' }),
        await post(event, { signature: `v0=${'0'.repeat(64)}` }),
        await post(event, { signature: 'v1=abc' }),
        await post(event, { timestamp: now - 6 * 60 }),
        await post(event, { timestamp: now + 6 * 60 }),
      ];
      expect(refusals.map((response) => response.status)).toEqual([401, 403, 403, 403, 403]);
      for (const response of refusals)
        expect(((await response.json()) as { error: { code: string } }).error.code).toMatch(
          /^(unauthorized|forbidden)$/,
        );
      // A body changed after signing (a re-serialised copy) does not pass either.
      const raw = JSON.stringify(event);
      const tampered = await fetch(webhook, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-slack-request-timestamp': String(now),
          'x-slack-signature': slackSignature(SECRET, String(now), raw),
        },
        body: JSON.stringify(event, null, 1),
      });
      expect(tampered.status).toBe(403);
      expect(await server.store.getUser(`slack:${channel}`)).toBeNull();
      // The same event_id, signed properly, is new: the refused copies left nothing behind.
      expect((await post(event)).status).toBe(200);
      await eventually('the greeting', () => textsTo(standIn, channel).includes('Pick a plan.'));
      expect(server.logText()).not.toContain(SECRET);
      expect(server.logText()).not.toContain(standIn.token);
    });

    it('when Slack answers 429 with Retry-After, then the message is sent again after the wait, in order', async () => {
      const channel = 'D0LIMITED1';
      standIn.rateLimit(channel, 1, 1);
      await post(directMessage(channel, 'U0LIMIT01', 'hello'));
      await eventually('the question after the wait', () => textsTo(standIn, channel).includes('Pick a plan.'), 10_000);
      expect(textsTo(standIn, channel).slice(0, 2)).toEqual([
        'Hello &lt;@U0LIMIT01&gt; &amp; welcome.',
        'Pick a plan.',
      ]);
      expect(standIn.calls.some((call) => call.status === 429 && call.params.channel === channel)).toBe(true);
    });

    it('when Slack answers ok:false with a passing error, then the message is sent again; with a permanent one, it is not retried and is logged with its code and in the integration log', async () => {
      const passing = 'D0PASSING1';
      standIn.failNext('internal_error');
      await post(directMessage(passing, 'U0PASS001', 'hello'));
      await eventually(
        'the greeting after the retry',
        () => textsTo(standIn, passing).includes('Pick a plan.'),
        10_000,
      );
      expect(textsTo(standIn, passing).filter((text) => text.startsWith('Hello'))).toHaveLength(1);

      const archived = 'D0ARCHIVE1';
      standIn.archive(archived);
      await post(directMessage(archived, 'U0ARCH001', 'hello'));
      const refused = await eventually('the refusal logged', () =>
        server.logs.find((line) => line.event === 'channel_send_refused' && line.userId === `slack:${archived}`),
      );
      expect(refused).toMatchObject({ channel: 'slack', vendorCode: 'is_archived' });
      const exported = await eventually('the integration log', async () => {
        const response = await fetch(`${server.url}/api/management/export/integrationLog`, {
          headers: { 'x-functions-key': TEST_FUNCTION_KEY },
        });
        const text = await response.text();
        return text.includes(`slack:${archived}`) && text;
      });
      expect(exported).toContain('Slack chat.postMessage: is_archived');
      expect(
        standIn.calls
          .filter((call) => call.params.channel === archived && String(call.params.text).startsWith('Hello'))
          .map((call) => call.error),
      ).toEqual(['is_archived']);
    });

    it('when a trigger starts a dialog with an image and cards for a Slack user, then the image is an image block, each card a section with its picture and buttons, and an image Slack cannot fetch goes as its link', async () => {
      const channel = 'D0TRIGGER1';
      await post(directMessage(channel, 'U0TRIG001', 'hello'));
      await eventually('the question', () => textsTo(standIn, channel).includes('Pick a plan.'));
      standIn.unreachableImage('https://cdn.example.com/blue.png');
      const address = Buffer.from(
        JSON.stringify({ bot: 'slack-bot', user: `slack:${channel}`, channelId: 'slack' }),
      ).toString('base64url');
      const response = await fetch(`${server.url}/api/management/trigger/${address}/pictures`, {
        method: 'POST',
        headers: { 'x-functions-key': TEST_FUNCTION_KEY },
      });
      expect(response.status).toBe(202);
      await eventually('the cards', () => textsTo(standIn, channel).some((text) => text.startsWith('Blue shoes')));
      const posted = postedTo(standIn, channel);
      const photo = posted.find((call) => call.params.text === 'https://cdn.example.com/shop.png');
      const red = posted.find((call) => String(call.params.text).startsWith('Red shoes'));
      const blue = posted.find((call) => String(call.params.text).startsWith('Blue shoes'));
      expect(blocksOf(photo!)).toEqual([
        { type: 'image', image_url: 'https://cdn.example.com/shop.png', alt_text: 'The shop' },
      ]);
      expect(blocksOf(red!)[0]).toEqual({
        type: 'section',
        text: { type: 'mrkdwn', text: 'Red shoes\nSize 38 to 44' },
        accessory: { type: 'image', image_url: 'https://cdn.example.com/red.png', alt_text: 'A pair of red shoes' },
      });
      expect(buttonsOf(red!).map((button) => button.text.text)).toEqual(['Buy']);
      // Titles are unique across the carousel, so the second card's "Buy" can be told apart when typed.
      expect(blocksOf(blue!)).toEqual([
        { type: 'section', text: { type: 'mrkdwn', text: 'Blue shoes\nhttps://cdn.example.com/blue.png' } },
        {
          type: 'actions',
          elements: [expect.objectContaining({ text: { type: 'plain_text', text: 'Buy (2)', emoji: true } })],
        },
      ]);
      expect(standIn.calls.filter((call) => call.error === 'invalid_blocks')).toHaveLength(1);
    });

    it('when a user sends 20 messages in a burst, then the answers reach Slack in the order they were sent', async () => {
      const channel = 'D0BURST001';
      await post(directMessage(channel, 'U0BURST01', 'hello'));
      await post(directMessage(channel, 'U0BURST01', 'Basic'));
      await eventually('the echo prompt', () => textsTo(standIn, channel).includes('Say something.'));
      for (let i = 1; i <= 20; i++) expect((await post(directMessage(channel, 'U0BURST01', `m${i}`))).status).toBe(200);
      await eventually(
        'twenty answers',
        () => textsTo(standIn, channel).filter((text) => text.startsWith('You said')).length === 20,
        20_000,
      );
      expect(textsTo(standIn, channel).filter((text) => text.startsWith('You said'))).toEqual(
        Array.from({ length: 20 }, (_, i) => `You said m${i + 1}.`),
      );
    });
  });
}
