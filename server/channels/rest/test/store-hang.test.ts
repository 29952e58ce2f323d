import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pausableRelay, type PausableRelay } from '../../../test/pausable-relay.ts';
import { startTestServer, storeLegs, type TestServer } from '../../../test/start-test-server.ts';
import { restClient, texts } from './rest-client.ts';

const ECHO_BOT = path.join(import.meta.dirname, '..', '..', '..', 'app', 'test', 'fixtures', 'echo-bot.json');
const KEY = 'hang-channel-key-0123456789abcdef';
const mongo = storeLegs().find((leg) => leg.name === 'mongo')!;

/** The server on the Mongo leg through a relay the test holds, a REST channel, TURN_DEADLINE 2 s and the given answer wait. */
async function behindRelay(
  answerWait: string,
): Promise<{ relay: PausableRelay; server: TestServer; client: ReturnType<typeof restClient> }> {
  const url = new URL(mongo.env().MONGODB_URL!);
  const relay = await pausableRelay({ host: url.hostname, port: Number(url.port) });
  url.host = `127.0.0.1:${relay.port}`;
  const server = await startTestServer({
    MONGODB_URL: url.toString(),
    BOT_DEFINITION: ECHO_BOT,
    TURN_DEADLINE: '2s',
    REST_CHANNEL_ANSWER_WAIT: answerWait,
    REST_CHANNELS: JSON.stringify([{ name: 'shop', key: KEY }]),
  }).catch(async (error: unknown) => {
    // The caller's afterAll never sees a relay it was not handed: close it here.
    await relay.close();
    throw error;
  });
  return { relay, server, client: restClient(server.url, 'shop', KEY) };
}

/*
 * The REST channel's side of the turn deadline (TURN_DEADLINE, 2 s here, shorter than the answer
 * wait of 5 s): a store that stops answering costs the connector a 503 it can act on, not a
 * request that hangs for minutes; its resend of the clientId, once the store is back, is stored once.
 */
describe.skipIf(mongo.skip)(
  'a REST channel message sent while the store hangs (mongo, through a relay held by the test)',
  () => {
    let relay: PausableRelay;
    let server: TestServer;
    let client: ReturnType<typeof restClient>;

    beforeAll(async () => {
      ({ relay, server, client } = await behindRelay('5s'));
    });
    afterAll(async () => {
      relay?.release();
      await server?.stop();
      await relay?.close();
    });

    it('when the store stops answering as a message is posted, then the answer is 503 store_timeout with one log line, and the resend once the store is back is stored and answered once', async () => {
      const first = await client.post('ann', { type: 'text', clientId: 'c1', text: 'one' });
      expect(first.status).toBe(200);
      expect(texts(first.body.messages)).toContain('You said: one');

      relay.hold();
      const refused = await client.post('ann', { type: 'text', clientId: 'c2', text: 'two' });
      expect(refused.status).toBe(503);
      expect(refused.body.error).toMatchObject({ code: 'store_timeout' });
      expect(JSON.stringify(refused.body)).not.toMatch(/at .*\.ts|Error:/);
      expect(server.logs.filter((line) => line.event === 'turn_deadline_passed')).toHaveLength(1);

      relay.release();
      const again = await client.post('ann', { type: 'text', clientId: 'c2', text: 'two' });
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ duplicate: false, complete: true });
      expect(texts(again.body.messages)).toStrictEqual(['You said: two', 'Say something.']);

      const all = await client.missed('ann', 0);
      expect(all.messages.filter((item) => item.clientId === 'c2')).toHaveLength(1);
      expect(texts(all.messages).filter((text) => text === 'You said: two')).toHaveLength(1);
      expect(
        server.logs.filter((line) => line.event === 'rest_turn_failed' || line.event === 'turn_deadline_passed'),
      ).toHaveLength(1);
    });
  },
);

/*
 * The defaults' order (an answer wait of 1 s, shorter than TURN_DEADLINE of 2 s): when the wait
 * passes and the message is not stored yet, the connector must not hear `complete: false` (which
 * promises the message is stored and answered later); it waits on until the turn gives up.
 */
describe.skipIf(mongo.skip)(
  'a REST channel message whose answer wait passes while the store hangs (mongo, through a relay held by the test)',
  () => {
    let relay: PausableRelay;
    let server: TestServer;
    let client: ReturnType<typeof restClient>;

    beforeAll(async () => {
      ({ relay, server, client } = await behindRelay('1s'));
    });
    afterAll(async () => {
      relay?.release();
      await server?.stop();
      await relay?.close();
    });

    it('when the answer wait passes before the message is stored, then the connector gets 503 store_timeout, not complete:false, for it and for the one queued behind it, and their resends are stored once', async () => {
      const first = await client.post('bea', { type: 'text', clientId: 'b1', text: 'one' });
      expect(first.body).toMatchObject({ duplicate: false, complete: true });

      relay.hold();
      const [hung, queued] = await Promise.all([
        client.post('bea', { type: 'text', clientId: 'b2', text: 'two' }),
        // Sent a moment later: it waits behind b2's turn, whose store call hangs.
        new Promise((resolve) => setTimeout(resolve, 100)).then(() =>
          client.post('bea', { type: 'text', clientId: 'b3', text: 'three' }),
        ),
      ]);
      for (const refused of [hung, queued]) {
        expect(refused.status).toBe(503);
        expect(refused.body.error).toMatchObject({ code: 'store_timeout' });
      }

      // Once the store answers again, nothing of the refused messages was stored: the connector's word (send again) holds.
      relay.release();
      const meanwhile = await client.missed('bea', 0);
      expect(meanwhile.messages.filter((item) => item.clientId === 'b2' || item.clientId === 'b3')).toEqual([]);

      for (const [clientId, text] of [
        ['b2', 'two'],
        ['b3', 'three'],
      ] as const) {
        const again = await client.post('bea', { type: 'text', clientId, text });
        expect(again.status).toBe(200);
        expect(again.body).toMatchObject({ seq: expect.any(Number), duplicate: false, complete: true });
        expect(texts(again.body.messages)).toStrictEqual([`You said: ${text}`, 'Say something.']);
      }
      const all = await client.missed('bea', 0);
      expect(all.messages.filter((item) => item.from === 'user').map((item) => item.clientId)).toStrictEqual([
        'b1',
        'b2',
        'b3',
      ]);
    });
  },
);
