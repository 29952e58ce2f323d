import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pausableRelay, type PausableRelay } from '../../../test/pausable-relay.ts';
import { startTestServer, storeLegs, type TestServer } from '../../../test/start-test-server.ts';
import { restClient, texts } from './rest-client.ts';

const ECHO_BOT = path.join(import.meta.dirname, '..', '..', '..', 'app', 'test', 'fixtures', 'echo-bot.json');
const KEY = 'hang-channel-key-0123456789abcdef';
const mongo = storeLegs().find((leg) => leg.name === 'mongo')!;

/*
 * The REST channel's side of the turn deadline (TURN_DEADLINE, 2 s here, shorter than the answer
 * wait of 5 s): a store that stops answering costs the connector a 503 it can act on, not a
 * request that hangs for minutes; its resend of the clientId, once the store is back, is stored once.
 */
describe.skipIf(mongo.skip)('a REST channel message sent while the store hangs (mongo, through a relay held by the test)', () => {
  let relay: PausableRelay;
  let server: TestServer;
  let client: ReturnType<typeof restClient>;

  beforeAll(async () => {
    const url = new URL(mongo.env().MONGODB_URL!);
    relay = await pausableRelay({ host: url.hostname, port: Number(url.port) });
    url.host = `127.0.0.1:${relay.port}`;
    server = await startTestServer({
      MONGODB_URL: url.toString(),
      BOT_DEFINITION: ECHO_BOT,
      TURN_DEADLINE: '2s',
      REST_CHANNEL_ANSWER_WAIT: '5s',
      REST_CHANNELS: JSON.stringify([{ name: 'shop', key: KEY }]),
    });
    client = restClient(server.url, 'shop', KEY);
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
    expect(server.logs.filter((line) => line.event === 'rest_turn_failed' || line.event === 'turn_deadline_passed')).toHaveLength(1);
  });
});
