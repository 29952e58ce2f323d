import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '../../../shared/protocol.ts';
import { botTexts, connectClient, eventually, startTestServer, type TestServer } from '../../test/start-test-server.ts';

const ECHO_BOT = path.join(import.meta.dirname, '..', '..', 'app', 'test', 'fixtures', 'echo-bot.json');

/*
 * A message's turn starts from the user as this connection's previous turn committed them (socket-server.ts,
 * RETURNING_FRESH_MS), not from a read of its own. What else changes the user meanwhile (here another tab)
 * must still be seen: the stale copy only costs the turn a retry.
 */
describe('quick replies on one connection (default store)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ BOT_DEFINITION: ECHO_BOT });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('when a visitor writes from two tabs in turn, then every message is answered once, in order, with every seq stored once and shown in both tabs', async () => {
    const first = connectClient(server.url);
    const session = await new Promise<Session>((resolve) => first.once('session', resolve));
    await eventually('the prompt', () => botTexts(first.items).includes('Say something.'));
    const second = connectClient(server.url, { userId: session.userId, token: session.token, lastSeq: 1 });
    await new Promise<void>((resolve) => second.once('connect', resolve));

    const texts = ['one', 'two', 'three', 'four', 'five'];
    for (const [i, text] of texts.entries()) {
      const tab = i % 2 === 0 ? first : second;
      const ack = await tab.emitWithAck('message', { clientId: `m${i}`, text });
      expect(ack).toMatchObject({ ok: true, value: { duplicate: false } });
      await eventually(`the answer to ${text}`, () => botTexts(tab.items).includes(`You said: ${text}`));
    }

    const transcript = await server.store.readTranscript(session.userId, 0, 100);
    expect(transcript.map((e) => e.seq)).toStrictEqual(transcript.map((_, i) => i + 1));
    const said = transcript.map((e) => (e.message.type === 'text' ? `${e.from}: ${e.message.text}` : e.from));
    expect(said).toStrictEqual([
      'bot: Say something.',
      ...texts.flatMap((t) => [`user: ${t}`, `bot: You said: ${t}`, 'bot: Say something.']),
    ]);
    expect((await server.store.getUser(session.userId))!.lastSeq).toBe(transcript.length);
    await eventually(
      'every entry in the first tab',
      () => new Set(first.items.map((i) => i.seq)).size === transcript.length,
    );
    await eventually(
      'every entry after the handshake in the second tab',
      () => new Set(second.items.map((i) => i.seq)).size === transcript.length - 1,
    );
    first.disconnect();
    second.disconnect();
  });
});
