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
import {
  APP_ID,
  APP_PASSWORD,
  post,
  startBotFrameworkStandIn,
  teamsActivity,
  teamsSettings,
  type BotFrameworkStandIn,
  type SeenActivity,
} from './bot-framework-stand-in.ts';
import { teamsBot } from './teams-bot.ts';

/** What the bot sent to a conversation that the stand-in accepted, in order. */
function sentTo(standIn: BotFrameworkStandIn, conversationId: string): SeenActivity[] {
  return standIn.activities.filter((seen) => seen.status === 201 && seen.conversationId === conversationId);
}
interface Card {
  text?: string;
  buttons?: { type: string; title: string; value: unknown }[];
}
const cardOf = (seen: SeenActivity) =>
  (seen.activity.attachments as { content: Card }[] | undefined)?.[0]?.content ?? undefined;
/** Each accepted message's text: its own, or its hero card's. */
const textsTo = (standIn: BotFrameworkStandIn, conversationId: string) =>
  sentTo(standIn, conversationId).map((seen) => String(seen.activity.text ?? cardOf(seen)?.text ?? '<card>'));

for (const leg of storeLegs()) {
  describe.skipIf(leg.skip)(`the Teams channel through the Bot Framework (${leg.name})`, () => {
    let standIn: BotFrameworkStandIn;
    let server: TestServer;
    let dir: string;
    let webhook: string;
    /** A properly signed request for an activity in a conversation. */
    const send = async (conversationId: string, fields: Record<string, unknown>) => {
      const activity = teamsActivity(standIn.url, conversationId, fields);
      return { activity, response: await post(webhook, activity, await standIn.sign(standIn.url)) };
    };

    beforeAll(async () => {
      standIn = await startBotFrameworkStandIn();
      dir = await mkdtemp(path.join(tmpdir(), 'teams-channel-'));
      const file = path.join(dir, 'bot.json');
      await writeFile(file, JSON.stringify(teamsBot()));
      server = await startTestServer({
        ...leg.env(),
        BOT_DEFINITION: file,
        ...teamsSettings(standIn),
      });
      webhook = `${server.url}/api/webhooks/teams`;
    });

    afterAll(async () => {
      await server?.stop();
      await standIn?.close();
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    it('when a user installs the bot, taps a suggested action and presses a card button, then each answer reaches the conversation natively and the reference is kept', async () => {
      const conversation = 'a:1install-1001';
      const installed = await send(conversation, {
        type: 'conversationUpdate',
        membersAdded: [{ id: `28:${APP_ID}` }],
        text: undefined,
      });
      expect(installed.response.status).toBe(200);
      expect(await installed.response.json()).toEqual({ ok: true });
      await eventually('the welcome and the question', () => textsTo(standIn, conversation).length >= 2);
      const [welcome, pick] = sentTo(standIn, conversation);
      expect(welcome!.activity).toMatchObject({ type: 'message', text: 'Welcome.' });
      expect(pick!.activity).toMatchObject({
        text: 'Pick a plan.',
        suggestedActions: {
          actions: [
            { type: 'imBack', title: 'Basic', value: 'Basic' },
            { type: 'imBack', title: 'Pro', value: 'Pro' },
          ],
        },
      });

      // A tapped suggested action (imBack) arrives as the user's message with its title.
      await send(conversation, { text: 'Pro' });
      await eventually('the choice answered', () => textsTo(standIn, conversation).includes('Say something.'));
      const chosen = sentTo(standIn, conversation).find(
        (seen) => cardOf(seen)?.text === 'You chose pro, Ada Lovelace.',
      )!;
      const button = cardOf(chosen)!.buttons![0]!;
      expect(button).toMatchObject({ type: 'messageBack', title: 'Tell me more' });

      // A pressed card button (messageBack) carries its value back.
      await send(conversation, { text: 'Tell me more', value: button.value });
      await eventually('the button answered', () => textsTo(standIn, conversation).length === 6);
      expect(textsTo(standIn, conversation)).toEqual([
        'Welcome.',
        'Pick a plan.',
        'You chose pro, Ada Lovelace.',
        'Say something.',
        'You said more.',
        'Say something.',
      ]);
      expect(await server.store.getUser(`teams:${conversation}`)).toMatchObject({
        channelId: 'teams',
        userData: { teamsName: 'Ada Lovelace', plan: 'pro' },
        variables: { teamsServiceUrl: standIn.url },
      });
      // One token served every send: it is kept until shortly before it expires.
      expect(standIn.counts.tokens).toBe(1);
    });

    it('when the trigger endpoint names a Teams user by their address, then the dialog reaches their conversation proactively', async () => {
      const conversation = 'a:1proactive-1002';
      await send(conversation, { type: 'conversationUpdate', membersAdded: [{ id: `28:${APP_ID}` }] });
      await eventually('the welcome', () => textsTo(standIn, conversation).includes('Pick a plan.'));
      const address = Buffer.from(
        JSON.stringify({ bot: 'teams-bot', user: `teams:${conversation}`, channelId: 'teams' }),
      ).toString('base64url');
      const response = await fetch(`${server.url}/api/management/trigger/${address}/news`, {
        method: 'POST',
        headers: { 'x-functions-key': TEST_FUNCTION_KEY },
      });
      expect(response.status).toBe(202);
      await eventually('the triggered message', () => textsTo(standIn, conversation).includes('News for you.'));
    });

    it('when the trigger endpoint names a Teams user the bot never had a conversation with, then it answers 409 naming the rule, and nothing is stored', async () => {
      const conversation = 'a:1stranger-1009';
      const address = Buffer.from(
        JSON.stringify({ bot: 'teams-bot', user: `teams:${conversation}`, channelId: 'teams' }),
      ).toString('base64url');
      const response = await fetch(`${server.url}/api/management/trigger/${address}/news`, {
        method: 'POST',
        headers: { 'x-functions-key': TEST_FUNCTION_KEY },
      });
      expect(response.status).toBe(409);
      const body = (await response.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('teams_no_conversation');
      expect(body.error.message).toContain('installed it or wrote to it');
      expect(await server.store.getUser(`teams:${conversation}`)).toBeNull();
      expect(sentTo(standIn, conversation)).toEqual([]);
    });

    it('when the Bot Framework delivers the same activity twice at once and three times more, then the bot answers it once', async () => {
      const conversation = 'a:1redelivered-1003';
      const activity = teamsActivity(standIn.url, conversation, {
        type: 'conversationUpdate',
        membersAdded: [{ id: `28:${APP_ID}` }],
      });
      const token = await standIn.sign(standIn.url);
      const together = await Promise.all([post(webhook, activity, token), post(webhook, activity, token)]);
      expect(together.map((response) => response.status)).toEqual([200, 200]);
      for (let i = 0; i < 3; i++) expect((await post(webhook, activity, token)).status).toBe(200);
      // A later message, answered after the copies' turns would have been: nothing can still be on its way.
      await send(conversation, { text: 'Basic' });
      await eventually('the later answer', () => textsTo(standIn, conversation).includes('Say something.'));
      expect(textsTo(standIn, conversation)).toEqual([
        'Welcome.',
        'Pick a plan.',
        'You chose basic, Ada Lovelace.',
        'Say something.',
      ]);
    });

    it('when a request is forged, expired, for another bot, from another issuer, names another serviceUrl or a channel its key is not endorsed for, then it is refused with a JSON error and nothing of it is kept', async () => {
      const conversation = 'a:1refused-1004';
      const activity = teamsActivity(standIn.url, conversation, { text: 'hello' });
      const now = Math.floor(Date.now() / 1000);
      const cases: [string, string | undefined, number, string][] = [
        ['no token', undefined, 401, 'unauthorized'],
        [
          'a key the Bot Framework does not publish',
          await standIn.sign(standIn.url, {}, { key: 'unpublished' }),
          403,
          'forbidden',
        ],
        ['expired', await standIn.sign(standIn.url, { exp: now - 600, nbf: now - 4000 }), 403, 'forbidden'],
        [
          'another bot',
          await standIn.sign(standIn.url, { aud: '00000000-1111-4222-8333-444444444444' }),
          403,
          'forbidden',
        ],
        [
          'another issuer',
          await standIn.sign(standIn.url, { iss: 'https://sts.windows.net/attacker/' }),
          403,
          'forbidden',
        ],
        [
          'another serviceUrl in the token',
          await standIn.sign('https://smba.trafficmanager.net/amer/'),
          403,
          'forbidden',
        ],
        ['not a JWT', 'not-a-token', 401, 'unauthorized'],
      ];
      for (const [what, token, status, code] of cases) {
        const response = await post(webhook, activity, token);
        expect({ what, status: response.status }).toEqual({ what, status });
        expect(await response.json()).toMatchObject({ error: { code } });
      }
      // A token and an activity that agree on a serviceUrl outside BOTFRAMEWORK_SERVICE_URLS: the bot's token would go there.
      const elsewhere = teamsActivity('https://attacker.example.com/', conversation, { text: 'hello' });
      const refused = await post(webhook, elsewhere, await standIn.sign('https://attacker.example.com/'));
      expect(refused.status).toBe(403);
      expect(await refused.json()).toMatchObject({ error: { code: 'forbidden' } });

      // A genuine key, but one the Bot Framework endorses for other channels only.
      const otherChannel = await post(webhook, { ...activity, channelId: 'skype' }, await standIn.sign(standIn.url));
      expect(otherChannel.status).toBe(403);
      expect(await otherChannel.json()).toMatchObject({ error: { code: 'forbidden' } });

      expect(await server.store.getUser(`teams:${conversation}`)).toBeNull();
      // The same activity, sent properly, is new: the refused copies left nothing behind.
      expect((await post(webhook, activity, await standIn.sign(standIn.url))).status).toBe(200);
      await eventually('the answer', () => textsTo(standIn, conversation).includes('Pick a plan.'));
      expect(server.logText()).not.toContain(APP_PASSWORD);
      expect(server.logText()).not.toContain('stand-in-access-');
      for (const [, token] of cases) if (token) expect(server.logText()).not.toContain(token.slice(-40));
    });

    it('when the Bot Framework rotates its signing key, then requests signed with the new key are taken after the keys are fetched again', async () => {
      const before = standIn.counts.keys;
      await standIn.rotate();
      // The key set is fetched again for an unknown key id at most once a second (forged ids cannot make the server hammer the vendor).
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      const conversation = 'a:1rotated-1005';
      const { response } = await send(conversation, {
        type: 'conversationUpdate',
        membersAdded: [{ id: `28:${APP_ID}` }],
      });
      expect(response.status).toBe(200);
      expect(standIn.counts.keys).toBe(before + 1);
      await eventually('the welcome', () => textsTo(standIn, conversation).includes('Pick a plan.'));
    });

    it('when Teams answers 429 with Retry-After and then 412, then the message is sent again after the waits, in order', async () => {
      const conversation = 'a:1throttled-1006';
      standIn.throttle(conversation, 1, 429, 1);
      await send(conversation, { type: 'conversationUpdate', membersAdded: [{ id: `28:${APP_ID}` }] });
      await eventually('the welcome after the wait', () => textsTo(standIn, conversation).includes('Welcome.'), 10_000);
      standIn.throttle(conversation, 1, 412);
      await send(conversation, { text: 'Basic' });
      await eventually(
        'the answers after the 412',
        () => textsTo(standIn, conversation).includes('Say something.'),
        15_000,
      );
      expect(textsTo(standIn, conversation)).toEqual([
        'Welcome.',
        'Pick a plan.',
        'You chose basic, Ada Lovelace.',
        'Say something.',
      ]);
      expect(
        standIn.activities
          .filter((seen) => seen.conversationId === conversation && seen.status !== 201)
          .map((seen) => seen.status),
      ).toEqual([429, 412]);
    });
  });
}

describe("the Teams channel when the Bot Framework's keys cannot be fetched", () => {
  it('when the OpenID configuration is unreachable, then a request is answered 503 (the Bot Framework sends it again) and nothing of it is kept', async () => {
    const standIn = await startBotFrameworkStandIn();
    const dir = await mkdtemp(path.join(tmpdir(), 'teams-keys-'));
    const file = path.join(dir, 'bot.json');
    await writeFile(file, JSON.stringify(teamsBot()));
    // A port nothing listens on: the stand-in's own, once closed.
    const unreachable = standIn.openIdUrl;
    await standIn.close();
    const server = await startTestServer({
      BOT_DEFINITION: file,
      ...teamsSettings({ ...standIn, openIdUrl: unreachable }),
    });
    try {
      const activity = teamsActivity(standIn.url, 'a:1keys-away', { text: 'hello' });
      const response = await post(`${server.url}/api/webhooks/teams`, activity, await standIn.sign(standIn.url));
      expect(response.status).toBe(503);
      expect(await response.json()).toMatchObject({ error: { code: 'unavailable' } });
      expect(await server.store.getUser('teams:a:1keys-away')).toBeNull();
    } finally {
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
