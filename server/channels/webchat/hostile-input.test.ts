import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../../shared/json-bounds.ts';
import { connectClient, startTestServer, storeLegs, type TestServer } from '../../test/start-test-server.ts';
import { answersName, greeted, sessionOf } from './test/demo-conversation.ts';
import {
  deepArrayJson,
  deepObjectJson,
  emitRaw,
  handshakeRaw,
  nestedValue,
  wideArrayJson,
} from './test/hostile-frames.ts';

/** The depth from the report: about 23 KB of brackets, well under the 64 KiB frame limit. */
const DEEP = 12_000;
/** Objects cost 6 bytes a level (`{"a":` and `}`): as deep as the frame limit allows. */
const DEEP_OBJECTS = 8_000;
/** More values than one payload may hold, still under the frame limit. */
const WIDE = 20_000;

/** For each client event: the payload shapes a hostile client sends instead of a real one. */
const hostilePayloads = (value: string): Record<string, string[]> => ({
  message: [value, `{"clientId":"c-1","text":${value}}`],
  press: [value, `{"clientId":"c-1","label":"Go","action":${value}}`],
  page_event: [value, `{"name":"clicked","payload":{"x":${value}}}`],
  set_user_data: [value, `{"fields":{"x":${value}}}`],
  start_dialog: [value, `{"dialogId":"greeting","data":{"x":${value}}}`],
});
const EVENTS = Object.keys(hostilePayloads('0'));

describe.each(storeLegs())('web chat against hostile input on $name', ({ skip, env }) => {
  let server: TestServer;
  // In a real process an unhandled rejection stops the server; here it must fail the test.
  const unhandled: unknown[] = [];
  const record = (reason: unknown) => unhandled.push(reason);
  beforeAll(async () => {
    process.on('unhandledRejection', record);
    if (!skip) server = await startTestServer(env());
  });
  afterAll(async () => {
    process.off('unhandledRejection', record);
    await server?.stop();
  });
  beforeEach((context) => {
    if (skip) context.skip(`store unavailable: ${skip}`);
  });
  afterEach(() => {
    expect(unhandled).toEqual([]);
  });

  it.each(EVENTS)(
    'when an anonymous visitor sends %s payloads nested 12,000 deep or 20,000 values wide, then each is refused as invalid_payload and both that connection and a bystander keep working',
    async (event) => {
      const bystander = await greeted(server.url);
      const attacker = await greeted(server.url);
      const errors: string[] = [];
      attacker.on('protocol_error', (error) => errors.push(error.code));
      const frames = [
        ...(hostilePayloads(deepArrayJson(DEEP))[event] ?? []),
        ...(hostilePayloads(wideArrayJson(WIDE))[event] ?? []).slice(1),
      ];
      frames.push(`{"x":${deepObjectJson(DEEP_OBJECTS)}}`);

      const acks = [];
      for (const frame of frames) acks.push(await emitRaw(attacker, event, frame));

      expect(acks.map((ack) => (ack.ok ? 'ok' : ack.error.code))).toEqual(frames.map(() => 'invalid_payload'));
      expect(errors).toEqual(frames.map(() => 'invalid_payload'));
      expect(attacker.connected).toBe(true);
      await answersName(attacker, 'Ada');
      await answersName(bystander, 'Grace');
      attacker.disconnect();
      bystander.disconnect();
    },
  );

  it('when the handshake carries user data nested 12,000 deep or 20,000 values wide, then it is refused as invalid_payload and the next visitor and a bystander are served', async () => {
    const bystander = await greeted(server.url);
    const refusals = [
      await handshakeRaw(server.url, `{"user":{"x":${deepArrayJson(DEEP)}}}`),
      await handshakeRaw(server.url, `{"lastSeq":${deepObjectJson(DEEP_OBJECTS)}}`),
      await handshakeRaw(server.url, `{"user":{"x":${wideArrayJson(WIDE)}}}`),
    ];

    expect(refusals).toEqual(
      refusals.map(() => ({ code: 'invalid_payload', message: expect.stringMatching(/^The handshake is not valid/) })),
    );
    const next = await greeted(server.url);
    await answersName(next, 'Linus');
    await answersName(bystander, 'Grace');
    next.disconnect();
    bystander.disconnect();
  });

  it(`when the page saves user data nested ${MAX_JSON_DEPTH} levels deep, then it is kept; one level deeper, then it is refused`, async () => {
    const client = connectClient(server.url);
    const session = await sessionOf(client);
    const allowed = nestedValue(MAX_JSON_DEPTH - 1);

    expect(await client.emitWithAck('set_user_data', { fields: { plan: allowed } })).toEqual({ ok: true, value: null });
    expect((await server.store.getUser(session.userId))?.variables).toMatchObject({ plan: allowed });
    const refused = await client.emitWithAck('set_user_data', { fields: { plan: nestedValue(MAX_JSON_DEPTH) } });
    expect(refused).toEqual({
      ok: false,
      error: { code: 'invalid_payload', message: expect.stringContaining(`deeper than ${MAX_JSON_DEPTH} levels`) },
    });
    client.disconnect();
  });
});
