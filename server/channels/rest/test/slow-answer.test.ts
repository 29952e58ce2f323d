import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Contract } from '../../../api/management/test/contract.ts';
import { json, startUpstream, type Upstream } from '../../../integrations/test/upstream.ts';
import { eventually, startTestServer, storeLegs, type TestServer } from '../../../test/start-test-server.ts';
import { restBot } from './rest-bot.ts';
import { restClient, texts, type RestAnswer } from './rest-client.ts';

const KEY = 'slow-channel-key-0123456789abcdef';
const OTHER_KEY = 'other-channel-key-0123456789abcdef';
/** REST_CHANNEL_ANSWER_WAIT of this server, in ms. */
const WAIT_MS = 1000;

for (const leg of storeLegs()) {
  describe.skipIf(leg.skip)(`REST channel answer bound (${leg.name})`, () => {
    let upstream: Upstream;
    let callbacks: Upstream;
    let server: TestServer;
    let dir: string;
    /** The customer's API holds its answers until the test lets them go. */
    let release: () => void = () => undefined;
    let gate: Promise<void> = Promise.resolve();
    const hold = () => (gate = new Promise<void>((resolve) => (release = resolve)));
    const calls = () => upstream.seen.filter((request) => request.url.startsWith('/crm/')).length;

    beforeAll(async () => {
      upstream = await startUpstream(async (_req, res) => {
        await gate;
        json(res, 200, [{ id: 1, name: 'Meetup', date: '2030-05-01T18:00:00Z' }]);
      });
      callbacks = await startUpstream();
      dir = await mkdtemp(path.join(tmpdir(), 'rest-slow-'));
      const file = path.join(dir, 'bot.json');
      await writeFile(file, JSON.stringify(restBot(upstream.url)));
      server = await startTestServer({
        ...leg.env(),
        BOT_DEFINITION: file,
        INTEGRATION_ALLOWED_HOSTS: '127.0.0.1',
        REST_CHANNEL_ANSWER_WAIT: `${WAIT_MS}ms`,
        REST_CHANNELS: JSON.stringify([
          { name: 'slow', key: KEY, callbackUrl: `${callbacks.url}/bot` },
          { name: 'other', key: OTHER_KEY },
        ]),
      });
    });
    afterAll(async () => {
      release();
      await server?.stop();
      await upstream?.close();
      await callbacks?.close();
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    it('when a sync step outlasts REST_CHANNEL_ANSWER_WAIT, then the answer holds what is there and the rest is called back once', async () => {
      hold();
      const url = `${server.url}/api/channels/slow/users/gil/messages`;
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-channel-key': KEY },
        body: JSON.stringify({ type: 'event', clientId: 'g1', event: 'startDialog', dialogId: 'events' }),
      });
      // An incomplete answer is one the OpenAPI document describes too.
      const document = (await (await fetch(`${server.url}/api/management/openapi.json`)).json()) as Record<
        string,
        unknown
      >;
      expect((await new Contract(document).check('POST', url, response.clone())).problems).toEqual([]);
      const answer = { status: response.status, body: (await response.json()) as RestAnswer['body'] };
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ duplicate: false, complete: false });
      expect(texts(answer.body.messages)).toEqual(['Welcome.', 'Your name?']);
      release();
      const called = await eventually('the callback', () =>
        callbacks.seen.find((request) => request.body.includes('Meetup') && request.body.includes('"gil"')),
      );
      const body = JSON.parse(called.body) as { messages: { seq: number; message: { text: string } }[] };
      expect(body.messages.map((item) => item.message.text)).toEqual(['Next event: Meetup.']);
      expect(body.messages[0]!.seq).toBeGreaterThan(answer.body.messages.at(-1)!.seq);
      expect(callbacks.seen.filter((request) => request.body.includes('Welcome.'))).toEqual([]);
    });

    it('when requests queue behind a slow turn of the same user, then the stored message and its resend are answered within REST_CHANNEL_ANSWER_WAIT, the queued ones once stored, each with its seq, and all run once in order', async () => {
      hold();
      const channel = restClient(server.url, 'slow', KEY);
      /** Sends and notes how long the answer took from the moment of sending. */
      const timed = async (body: unknown): Promise<{ answer: RestAnswer; tookMs: number }> => {
        const sent = performance.now();
        const answer = await channel.post('quinn', body);
        return { answer, tookMs: performance.now() - sent };
      };
      // A dialog button whose dialog calls the held API: the message is stored, then the call waits.
      const first = timed({ type: 'dialog', clientId: 'q1', label: 'Events', dialogId: 'events' });
      await eventually(
        'the held call',
        () => calls() > 0 && upstream.seen.some((request) => request.url.includes('quinn')),
      );
      const second = timed({ type: 'text', clientId: 'q2', text: 'second' });
      const third = timed({ type: 'text', clientId: 'q3', text: 'third' });
      let queuedAnswered = false;
      void Promise.race([second, third]).then(() => (queuedAnswered = true));
      const [resend, intruder] = await Promise.all([
        timed({ type: 'dialog', clientId: 'q1', label: 'Events', dialogId: 'events' }),
        // Another channel sending the same user id and clientId joins nothing: the user is not its.
        restClient(server.url, 'other', OTHER_KEY).post('quinn', {
          type: 'dialog',
          clientId: 'q1',
          label: 'Events',
          dialogId: 'events',
        }),
      ]);
      expect(intruder.status).toBe(404);
      expect(intruder.body.error?.code).toBe('not_found');
      const opened = await first;
      // The stored message and its resend are answered while the call is still held: by the bound, not by the turn ending.
      for (const { answer, tookMs } of [opened, resend]) {
        expect(answer.status).toBe(200);
        expect(answer.body.complete).toBe(false);
        expect(tookMs).toBeLessThan(2 * WAIT_MS);
      }
      expect(opened.answer.body).toMatchObject({ seq: expect.any(Number), duplicate: false });
      expect(texts(opened.answer.body.messages)).toEqual(['Welcome.', 'Your name?']);
      // The resend joined the first: the same seq, marked duplicate, and the API called once.
      expect(resend.answer.body).toMatchObject({ seq: opened.answer.body.seq, duplicate: true, complete: false });
      // The queued messages are not stored while the call holds the conversation: no answer yet, since
      // `complete: false` would promise a message that a failing store could still lose.
      expect(queuedAnswered).toBe(false);

      release();
      for (const { answer } of await Promise.all([second, third])) {
        expect(answer.status).toBe(200);
        expect(answer.body).toMatchObject({ seq: expect.any(Number), duplicate: false });
        expect(answer.body.seq).toBeGreaterThan(opened.answer.body.seq!);
      }
      const stored = await eventually('every message answered', async () => {
        const read = await channel.missed('quinn', 0);
        return read.messages.filter((item) => item.from === 'bot').length >= 5 ? read.messages : undefined;
      });
      // q1 came first; q2 and q3 were sent at once, so either may have reached the server first: each runs once.
      const runs = stored.filter((item) => item.from === 'user').map((item) => item.clientId);
      expect(runs[0]).toBe('q1');
      expect([...runs].sort()).toEqual(['q1', 'q2', 'q3']);
      expect(texts(stored).slice(0, 3)).toEqual(['Welcome.', 'Your name?', 'Next event: Meetup.']);
      expect(upstream.seen.filter((request) => request.url.includes('quinn'))).toHaveLength(1);
      // Once done, the resend is answered as the first would have been: the greeting and the call's answer.
      const later = await channel.post('quinn', {
        type: 'dialog',
        clientId: 'q1',
        label: 'Events',
        dialogId: 'events',
      });
      expect(later.body).toMatchObject({ seq: opened.answer.body.seq, duplicate: true, complete: true });
      expect(texts(later.body.messages)).toEqual(['Welcome.', 'Your name?', 'Next event: Meetup.']);
    });
  });
}
