import { createHmac } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Contract } from '../../../api/management/test/contract.ts';
import { json, startUpstream, type SeenRequest, type Upstream } from '../../../integrations/test/upstream.ts';
import {
  TEST_FUNCTION_KEY,
  botTexts,
  connectClient,
  eventually,
  startTestServer,
  storeLegs,
  type TestServer,
} from '../../../test/start-test-server.ts';
import { restBot } from './rest-bot.ts';
import { restClient, texts } from './rest-client.ts';

const SMS_KEY = 'sms-channel-key-0123456789abcdef';
const POLL_KEY = 'poll-channel-key-0123456789abcdef';
/** The sms channel's key before its rotation: still accepted while configured as keyPrevious. */
const SMS_OLD_KEY = 'sms-old-channel-key-0123456789abcdef';

interface Callback {
  channel: string;
  user: string;
  messages: { seq: number; message: { type: string; text?: string; name?: string; payload?: unknown } }[];
  events: { name: string; payload?: unknown }[];
}

function trigger(server: TestServer, channelId: string, user: string, dialogId: string): Promise<Response> {
  const address = Buffer.from(JSON.stringify({ bot: 'rest-bot', user, channelId })).toString('base64url');
  return fetch(`${server.url}/api/management/trigger/${address}/${dialogId}`, {
    method: 'POST',
    headers: { 'x-functions-key': TEST_FUNCTION_KEY },
  });
}

/** Whether a callback carries the signature the channel key gives its timestamp and body. */
function signedWell(request: SeenRequest, key: string): boolean {
  const timestamp = String(request.headers['x-timestamp']);
  const expected = `sha256=${createHmac('sha256', key).update(`${timestamp}.${request.body}`).digest('hex')}`;
  return request.headers['x-signature'] === expected;
}

for (const leg of storeLegs()) {
  describe.skipIf(leg.skip)(`the generic bot REST channel (${leg.name})`, () => {
    let upstream: Upstream;
    let callbacks: Upstream;
    let server: TestServer;
    let dir: string;
    let sms: ReturnType<typeof restClient>;
    let poll: ReturnType<typeof restClient>;
    /** Callbacks the channel's server accepted (answered 2xx), in arrival order. */
    const accepted: Callback[] = [];
    let callbackStatus = 200;

    beforeAll(async () => {
      upstream = await startUpstream((req, res) => {
        if (req.url.startsWith('/crm/users/'))
          return json(res, 200, [{ id: 1, name: 'Meetup', date: '2030-05-01T18:00:00Z' }]);
        json(res, 404, {});
      });
      callbacks = await startUpstream((req, res) => {
        if (callbackStatus === 200) accepted.push(JSON.parse(req.body) as Callback);
        json(res, callbackStatus, {});
      });
      dir = await mkdtemp(path.join(tmpdir(), 'rest-channel-'));
      const file = path.join(dir, 'bot.json');
      await writeFile(file, JSON.stringify(restBot(upstream.url)));
      server = await startTestServer({
        ...leg.env(),
        BOT_DEFINITION: file,
        INTEGRATION_ALLOWED_HOSTS: '127.0.0.1',
        REST_CHANNELS: JSON.stringify([
          { name: 'sms', key: SMS_KEY, keyPrevious: SMS_OLD_KEY, callbackUrl: `${callbacks.url}/bot` },
          { name: 'poll', key: POLL_KEY },
        ]),
      });
      sms = restClient(server.url, 'sms', SMS_KEY);
      poll = restClient(server.url, 'poll', POLL_KEY);
    });

    afterAll(async () => {
      await server?.stop();
      await upstream?.close();
      await callbacks?.close();
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    it('when a channel holds a whole dialog through POST …/messages only, then each answer carries the bot replies of its turn in seq order', async () => {
      const first = await sms.post('ada', { type: 'text', clientId: 'm1', text: 'Ada' });
      expect(first.status).toBe(200);
      expect(texts(first.body.messages)).toEqual(['Welcome.', 'Your name?', 'Hi Ada, pick a plan.']);
      expect(first.body.complete).toBe(true);
      const pick = first.body.messages.at(-1)!;
      expect(pick.message).toMatchObject({
        quickReplies: [
          { label: 'Basic', payload: 'basic' },
          { label: 'Pro', payload: 'pro' },
        ],
      });

      const pressed = await sms.post('ada', { type: 'button', clientId: 'm2', label: 'Pro', payload: 'pro' });
      expect(pressed.status).toBe(200);
      // The bot's event comes as an event message after the turn's text, with its own seq (and in `events`).
      expect(texts(pressed.body.messages)).toEqual(['You chose pro.', '<event>']);
      expect(pressed.body.messages[1]!.message).toEqual({
        type: 'event',
        name: 'planChosen',
        payload: { plan: 'pro' },
      });
      expect(pressed.body.events).toEqual([{ name: 'planChosen', payload: { plan: 'pro' } }]);

      const saved = await sms.post('ada', {
        type: 'event',
        clientId: 'e1',
        event: 'setUserData',
        fields: { plan: 'basic' },
      });
      expect(saved.status).toBe(200);
      expect((await server.store.getUser('ada'))?.userData).toMatchObject({ name: 'Ada', plan: 'basic' });

      const seqs = [...first.body.messages, ...pressed.body.messages].map((item) => item.seq);
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
      expect(pressed.body.seq).toBeGreaterThan(first.body.messages.at(-1)!.seq);
      expect(accepted.filter((callback) => callback.user === 'ada')).toEqual([]);
    });

    it('when a message is sent again with the same clientId, then it is stored once and answered with the same replies', async () => {
      const again = await sms.post('ada', { type: 'button', clientId: 'm2', label: 'Pro', payload: 'pro' });
      expect(again.body).toMatchObject({ duplicate: true });
      expect(texts(again.body.messages)).toEqual(['You chose pro.', '<event>']);
      const all = await sms.missed('ada', 0);
      expect(all.messages.filter((item) => item.clientId === 'm2')).toHaveLength(1);
    });

    it("when a new user's first message is sent again, then the resend is answered as the first was: the start dialog's greeting too", async () => {
      const first = await sms.post('nora', { type: 'text', clientId: 'n1', text: 'Nora' });
      expect(texts(first.body.messages)).toEqual(['Welcome.', 'Your name?', 'Hi Nora, pick a plan.']);
      expect(first.body).toMatchObject({ duplicate: false, complete: true });
      const again = await sms.post('nora', { type: 'text', clientId: 'n1', text: 'Nora' });
      expect(again.body).toMatchObject({ seq: first.body.seq, duplicate: true, complete: true });
      expect(again.body.messages).toEqual(first.body.messages);
      // The next message's resend is answered with its own replies only.
      const pressed = await sms.post('nora', { type: 'button', clientId: 'n2', label: 'Basic', payload: 'basic' });
      const pressedAgain = await sms.post('nora', { type: 'button', clientId: 'n2', label: 'Basic', payload: 'basic' });
      expect(pressedAgain.body.messages).toEqual(pressed.body.messages);
      expect(texts(pressedAgain.body.messages)).toEqual(['You chose basic.', '<event>']);
      // An opening event's resend likewise.
      const opened = await sms.post('otto', {
        type: 'event',
        clientId: 'o1',
        event: 'setUserData',
        fields: { plan: 'pro' },
      });
      expect(texts(opened.body.messages)).toEqual(['Welcome.', 'Your name?']);
      const reopened = await sms.post('otto', {
        type: 'event',
        clientId: 'o1',
        event: 'setUserData',
        fields: { plan: 'pro' },
      });
      expect(reopened.body).toMatchObject({ duplicate: true, complete: true });
      expect(reopened.body.messages).toEqual(opened.body.messages);
    });

    it('when a JSON body is not valid UTF-8, then it is refused with 400 invalid_body as the trigger endpoint does, and nothing is stored', async () => {
      const body = Buffer.concat([
        Buffer.from('{"type":"text","clientId":"u1","text":"caf'),
        Buffer.from([0xe9]),
        Buffer.from('"}'),
      ]);
      const send = (url: string, headers: Record<string, string>) =>
        fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
      const channel = await send(`${server.url}/api/channels/sms/users/ursula/messages`, { 'x-channel-key': SMS_KEY });
      expect(channel.status).toBe(400);
      const refused = (await channel.json()) as { error: { code: string; message: string } };
      expect(refused.error.code).toBe('invalid_body');
      expect(refused.error.message).toContain('UTF-8');
      expect(await server.store.getUser('ursula')).toBeNull();
      // The same bytes at the trigger endpoint: the same answer.
      const address = Buffer.from(JSON.stringify({ bot: 'rest-bot', user: 'ursula', channelId: 'sms' })).toString(
        'base64url',
      );
      const triggered = await send(`${server.url}/api/management/trigger/${address}/first`, {
        'x-functions-key': TEST_FUNCTION_KEY,
      });
      expect(triggered.status).toBe(400);
      expect(((await triggered.json()) as { error: { code: string } }).error.code).toBe('invalid_body');
    });

    it('when an event starts a dialog with a sync integration step, then its answer is in the same response', async () => {
      const started = await sms.post('ada', {
        type: 'event',
        clientId: 'e2',
        event: 'startDialog',
        dialogId: 'events',
      });
      expect(started.status).toBe(200);
      expect(texts(started.body.messages)).toEqual(['Next event: Meetup.']);
      const routed = await sms.post('ada', { type: 'event', clientId: 'e3', event: 'pageEvent', name: 'showEvents' });
      expect(texts(routed.body.messages)).toEqual(['Next event: Meetup.']);
    });

    it('when an event is sent again with the same clientId, then it runs once, changes nothing and is answered with the same replies', async () => {
      const calls = () => upstream.seen.filter((request) => request.url.startsWith('/crm/users/')).length;
      const transcript = async () => (await sms.missed('ada', 0)).messages.length;
      const callsBefore = calls();
      const entriesBefore = await transcript();
      const started = await sms.post('ada', {
        type: 'event',
        clientId: 'e2',
        event: 'startDialog',
        dialogId: 'events',
      });
      expect(started.body).toMatchObject({ duplicate: true, complete: true });
      expect(texts(started.body.messages)).toEqual(['Next event: Meetup.']);
      const routed = await sms.post('ada', { type: 'event', clientId: 'e3', event: 'pageEvent', name: 'showEvents' });
      expect(routed.body).toMatchObject({ duplicate: true });
      expect(texts(routed.body.messages)).toEqual(['Next event: Meetup.']);
      expect(calls()).toBe(callsBefore);
      expect(await transcript()).toBe(entriesBefore);

      const changed = await sms.post('ada', {
        type: 'event',
        clientId: 'e4',
        event: 'setUserData',
        fields: { plan: 'pro' },
      });
      expect(changed.body.duplicate).toBe(false);
      const resent = await sms.post('ada', {
        type: 'event',
        clientId: 'e1',
        event: 'setUserData',
        fields: { plan: 'basic' },
      });
      expect(resent.status).toBe(200);
      expect(resent.body).toMatchObject({ duplicate: true, messages: [] });
      expect((await server.store.getUser('ada'))?.userData).toMatchObject({ plan: 'pro' });
    });

    it('when an event has no clientId, then it is refused and nothing runs', async () => {
      const answer = await sms.post('ada', { type: 'event', event: 'startDialog', dialogId: 'events' });
      expect(answer.status).toBe(400);
      expect(answer.body.error).toMatchObject({ code: 'invalid_body', message: expect.stringContaining('clientId') });
    });

    it('when a channel asks for what it missed after a seq, then it gets every entry after it in order', async () => {
      const all = await sms.missed('ada', 0);
      expect(all.status).toBe(200);
      const cut = all.messages[3]!.seq;
      const missed = await sms.missed('ada', cut);
      expect(missed.messages.map((item) => item.seq)).toEqual(
        all.messages.filter((item) => item.seq > cut).map((item) => item.seq),
      );
      expect(texts(missed.messages).at(-1)).toBe('Next event: Meetup.');
    });

    it('when a trigger starts a dialog for a REST user, then its messages reach the callback URL signed with the channel key', async () => {
      const response = await trigger(server, 'sms', 'ada', 'first');
      expect(response.status).toBe(202);
      // Truthfully: the callback URL gets them, not a connected widget and not the next connect.
      expect(await response.json()).toMatchObject({ userId: 'ada', delivery: 'callback' });
      const delivered = await eventually('the callback', () => accepted.find((callback) => callback.user === 'ada'));
      expect(delivered).toMatchObject({ channel: 'sms', user: 'ada' });
      expect(delivered.messages.map((item) => item.message.text)).toEqual(['First.']);
      const request = callbacks.seen.find((seen) => seen.body.includes('"First."'))!;
      expect(signedWell(request, SMS_KEY)).toBe(true);
      expect(signedWell(request, POLL_KEY)).toBe(false);
      // The request is the one the OpenAPI document describes as its webhook.
      const document = (await (await fetch(`${server.url}/api/management/openapi.json`)).json()) as Record<
        string,
        unknown
      >;
      expect(new Contract(document).checkWebhook('channelCallback', request).problems).toEqual([]);
      // A callback URL the rules let through (INTEGRATION_ALLOWED_HOSTS lists it) draws no start-up warning.
      expect(server.logs.filter((line) => line.event === 'callback_url_refused')).toEqual([]);
      expect(server.logText()).not.toContain(SMS_KEY);
    });

    it('when a channel key is being rotated, then the previous key is accepted too, callbacks are signed with the new one, and neither is logged', async () => {
      const old = await sms.post('rota', { type: 'text', clientId: 'r1', text: 'Rota' }, { key: SMS_OLD_KEY });
      expect(old.status).toBe(200);
      expect(texts(old.body.messages)).toContain('Hi Rota, pick a plan.');
      const read = await restClient(server.url, 'sms', SMS_OLD_KEY).missed('rota', 0);
      expect(read.status).toBe(200);
      // Another channel's key, or a key that is neither, is still refused.
      expect((await sms.post('rota', { type: 'text', clientId: 'r2', text: 'x' }, { key: POLL_KEY })).status).toBe(401);
      expect(
        (await poll.post('rota-poll', { type: 'text', clientId: 'r3', text: 'x' }, { key: SMS_OLD_KEY })).status,
      ).toBe(401);
      expect(await server.store.getUser('rota-poll')).toBeNull();
      expect((await trigger(server, 'sms', 'rota', 'first')).status).toBe(202);
      await eventually('the callback', () => accepted.find((callback) => callback.user === 'rota'));
      const request = callbacks.seen.find((seen) => seen.body.includes('"rota"'))!;
      expect(signedWell(request, SMS_KEY)).toBe(true);
      expect(server.logText()).not.toContain(SMS_OLD_KEY);
    });

    it('when a wait step fires after the answer, then what follows reaches the callback URL, not the answer', async () => {
      const started = await sms.post('finn', {
        type: 'event',
        clientId: 'f1',
        event: 'startDialog',
        dialogId: 'remind',
      });
      // A new user hears the start dialog first.
      expect(texts(started.body.messages)).toEqual(['Welcome.', 'Your name?', 'Wait for it.']);
      const later = await eventually('the timer callback', () => accepted.find((callback) => callback.user === 'finn'));
      expect(later.messages.map((item) => item.message.text)).toEqual(['Ding.']);
      expect(later.messages[0]!.seq).toBeGreaterThan(started.body.messages.at(-1)!.seq);
    });

    it('when the callback server is down and then up, then it receives every message once and in order', async () => {
      callbackStatus = 503;
      const before = callbacks.seen.length;
      expect((await trigger(server, 'sms', 'bob', 'first')).status).toBe(202);
      expect((await trigger(server, 'sms', 'bob', 'second')).status).toBe(202);
      await eventually('a refused callback', () => callbacks.seen.length > before);
      callbackStatus = 200;
      await eventually(
        'both callbacks',
        () => accepted.filter((callback) => callback.user === 'bob').length >= 2,
        20_000,
      );
      const bob = accepted
        .filter((callback) => callback.user === 'bob')
        .flatMap((callback) => callback.messages.map((item) => item.message.text));
      expect(bob).toEqual(['First.', 'Second.']);
    }, 30_000);

    it('when a channel has no callback URL, then what the bot says later waits for GET …/messages', async () => {
      const accepted = await trigger(server, 'poll', 'carol', 'first');
      expect(accepted.status).toBe(202);
      expect(await accepted.json()).toMatchObject({ userId: 'carol', delivery: 'queued' });
      const missed = await eventually('the triggered message', async () => {
        const read = await poll.missed('carol', 0);
        return read.messages.length > 0 ? read.messages : undefined;
      });
      expect(texts(missed)).toEqual(['First.']);
    });

    it("when a polling channel has no request open, then GET …/messages returns all the bot said later: a trigger's messages, its event as an event message, a timer's", async () => {
      const first = await poll.post('pia', { type: 'text', clientId: 'p1', text: 'Pia' });
      const last = first.body.messages.at(-1)!.seq;
      expect((await trigger(server, 'poll', 'pia', 'noted')).status).toBe(202);
      const missed = await eventually('the timer message', async () => {
        const read = await poll.missed('pia', last);
        return texts(read.messages).includes('Still noted.') ? read.messages : undefined;
      });
      expect(missed.map((item) => item.message)).toEqual([
        { type: 'text', text: 'Noted.' },
        { type: 'event', name: 'orderNoted', payload: { order: 'A-1' } },
        { type: 'text', text: 'Still noted.' },
      ]);
      expect(missed.map((item) => item.seq)).toEqual([last + 1, last + 2, last + 3]);
    });

    it("when a callback channel's user gets a trigger with an event, then the callback carries it as an event message too", async () => {
      expect((await trigger(server, 'sms', 'ezra', 'noted')).status).toBe(202);
      const delivered = await eventually('the callback', () => accepted.find((callback) => callback.user === 'ezra'));
      expect(delivered.messages.map((item) => item.message)).toEqual([
        { type: 'text', text: 'Noted.' },
        { type: 'event', name: 'orderNoted', payload: { order: 'A-1' } },
      ]);
      expect(delivered.events).toEqual([{ name: 'orderNoted', payload: { order: 'A-1' } }]);
    });

    const deep = (levels: number): unknown => (levels === 0 ? {} : { a: deep(levels - 1) });
    it.each([
      [
        'an unknown channel',
        () => restClient(server.url, 'fax', SMS_KEY).post('nobody-1', { type: 'text', clientId: 'x', text: 'hi' }),
        404,
        'not_found',
      ],
      [
        'a wrong key',
        () => sms.post('nobody-2', { type: 'text', clientId: 'x', text: 'hi' }, { key: POLL_KEY }),
        401,
        'unauthorized',
      ],
      [
        'no key',
        () => sms.post('nobody-3', { type: 'text', clientId: 'x', text: 'hi' }, { key: '' }),
        401,
        'unauthorized',
      ],
      ['a malformed body', () => sms.post('nobody-4', null, { raw: '{"type":"text",' }), 400, 'invalid_body'],
      [
        'a body of the wrong shape',
        () => sms.post('nobody-5', { type: 'text', text: 'no client id' }),
        400,
        'invalid_body',
      ],
      [
        'an oversize body',
        () => sms.post('nobody-6', { type: 'text', clientId: 'x', text: 'a'.repeat(70 * 1024) }),
        413,
        'payload_too_large',
      ],
      [
        'a deep body',
        () => sms.post('nobody-7', { type: 'event', clientId: 'x', event: 'setUserData', fields: deep(40) }),
        400,
        'invalid_body',
      ],
      [
        'an unknown event',
        () => sms.post('nobody-8', { type: 'event', clientId: 'x', event: 'explode' }),
        400,
        'unknown_event',
      ],
      [
        'an unknown dialog',
        () => sms.post('nobody-9', { type: 'event', clientId: 'x', event: 'startDialog', dialogId: 'nope' }),
        404,
        'dialog_not_found',
      ],
      [
        'a body that is not JSON',
        () => sms.post('nobody-10', null, { raw: 'hello', contentType: 'text/plain' }),
        415,
        'unsupported_media_type',
      ],
      // docs/bot-definition.md names this code for the REST channel (the web chat's is text_too_long).
      [
        'a text over 4096 bytes',
        () => sms.post('nobody-11', { type: 'text', clientId: 'x', text: 'é'.repeat(2049) }),
        400,
        'invalid_body',
      ],
    ])(
      'when a request has %s, then it is refused with its status and code and nothing is stored',
      async (_what, send, status, code) => {
        const answer = await send();
        expect(answer.status).toBe(status);
        expect(answer.body.error?.code).toBe(code);
        expect(answer.body.error?.message).toMatch(/\w+ \w+/);
        const user = `nobody-${(await send.toString().match(/nobody-(\d+)/)?.[1]) ?? ''}`;
        expect(await server.store.getUser(user)).toBeNull();
        expect(await server.store.readTranscript(user, 0, 10)).toEqual([]);
        expect(JSON.stringify(answer.body)).not.toContain(SMS_KEY);
      },
    );

    it('when the channel endpoints answer, then each answer matches the OpenAPI document', async () => {
      const document = (await (await fetch(`${server.url}/api/management/openapi.json`)).json()) as Record<
        string,
        unknown
      >;
      const contract = new Contract(document);
      const url = `${server.url}/api/channels/sms/users/dora/messages`;
      const post = (body: string, key = SMS_KEY) =>
        fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-channel-key': key }, body });
      const answers: [string, string, Response][] = [
        ['POST', url, await post(JSON.stringify({ type: 'text', clientId: 'c1', text: 'Dora' }))],
        ['POST', url, await post(JSON.stringify({ type: 'event', event: 'nope' }))],
        ['POST', url, await post('{', POLL_KEY)],
        ['GET', `${url}?after=1`, await fetch(`${url}?after=1`, { headers: { 'x-channel-key': SMS_KEY } })],
        ['GET', `${url}?after=x`, await fetch(`${url}?after=x`, { headers: { 'x-channel-key': SMS_KEY } })],
      ];
      expect(answers.map(([, , res]) => res.status)).toEqual([200, 400, 401, 200, 400]);
      for (const [method, at, res] of answers) expect((await contract.check(method, at, res)).problems).toEqual([]);
    });

    it('when a web chat user talks to the same server, then their messages reach their widget, not a channel', async () => {
      const client = connectClient(server.url);
      let webUser: string | undefined;
      client.once('session', (session) => (webUser = session.userId));
      try {
        await eventually('the greeting', () => botTexts(client.items).includes('Your name?'));
        client.emit('message', { clientId: 'w1', text: 'Wanda' }, () => undefined);
        await eventually('the answer', () => botTexts(client.items).includes('Hi Wanda, pick a plan.'));
        // Earlier tests' REST users may still be called back meanwhile; none of it is this user's.
        expect(webUser).toBeTruthy();
        expect(accepted.filter((callback) => callback.user === webUser)).toEqual([]);
      } finally {
        client.disconnect();
      }
    });

    it('when a REST user id belongs to another channel, then the other channel cannot read or write it', async () => {
      const read = await poll.missed('ada', 0);
      expect(read.status).toBe(404);
      const write = await poll.post('ada', { type: 'text', clientId: 'intruder', text: 'hi' });
      expect(write.status).toBe(404);
      expect((await sms.missed('ada', 0)).messages.some((item) => item.clientId === 'intruder')).toBe(false);
    });
  });
}
