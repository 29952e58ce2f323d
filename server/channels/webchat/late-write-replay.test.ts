import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Session } from '../../../shared/protocol.ts';
import {
  connectClient,
  eventually,
  startTestServer,
  storeLegs,
  type TestServer,
} from '../../test/start-test-server.ts';

const ECHO_BOT = path.join(import.meta.dirname, '..', '..', 'app', 'test', 'fixtures', 'echo-bot.json');

/*
 * What a node SIGKILLed mid-turn can leave (the cluster test, cluster-kill.test.ts, shows it
 * with real processes, when the timing falls that way): the store finishes the dead node's
 * commit after the widget has reconnected elsewhere and been replayed what was stored then.
 * The turn's entries are stored, never pushed (the node died) and never replayed (not there
 * yet); the widget then resends the message it saw no ack for. Here the dead node's commit is
 * written straight to the store between the reconnect and the resend, so the case is exact.
 */
describe.each(storeLegs())('a resend of a message whose turn another node stored unseen ($name)', ({ skip, env }) => {
  let server: TestServer;
  beforeAll(async () => {
    if (!skip) server = await startTestServer({ ...env(), BOT_DEFINITION: ECHO_BOT });
  });
  afterAll(async () => {
    await server?.stop();
  });
  beforeEach((context) => {
    if (skip) context.skip(`store unavailable: ${skip}`);
  });

  it("when the widget resends a message whose turn was stored after its reconnect replay, then it gets the turn's entries once, before the ack", async () => {
    const client = connectClient(server.url);
    const session = await new Promise<Session>((resolve) => client.once('session', resolve));
    await eventually('the prompt', () =>
      client.items.some((i) => i.message.type === 'text' && i.message.text === 'Say something.'),
    );
    const user = await server.store.getUser(session.userId);
    // The dead node's commit of the message "late": stored, pushed to no one.
    const committed = await server.store.commitTurn({
      userId: session.userId,
      expectedVersion: user!.version,
      patch: { lastMessageAt: 10 },
      now: 10,
      userEntry: { from: 'user', clientId: 'late', at: 10, message: { type: 'text', text: 'late' } },
      botEntries: [
        { from: 'bot', at: 10, message: { type: 'text', text: 'You said: late' } },
        { from: 'bot', at: 10, message: { type: 'text', text: 'Say something.' } },
      ],
    });
    expect(committed.status).toBe('committed');
    const order: string[] = [];
    client.on('entries', (items) => order.push(`entries ${items.map((i) => i.seq).join(',')}`));
    const ack = await client.emitWithAck('message', { clientId: 'late', text: 'late' });
    order.push('ack');
    expect(ack).toEqual({ ok: true, value: { seq: 2, duplicate: true } });
    expect(order).toEqual(['entries 2,3,4', 'ack']);
    expect(client.items.map((i) => i.seq)).toEqual([1, 2, 3, 4]);
    // A second resend (its ack lost too) finds nothing more to send.
    await client.emitWithAck('message', { clientId: 'late', text: 'late' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(client.items.map((i) => i.seq)).toEqual([1, 2, 3, 4]);
    client.disconnect();
  });
});
