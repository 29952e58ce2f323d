import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Contract } from '../../api/management/test/contract.ts';
import { KEY, keyed } from '../../api/management/test/helpers.ts';
import { startSubscriber, type Subscriber } from '../../api/management/test/subscriber.ts';
import { eventually, startTestServer, storeLegs, type TestServer } from '../../test/start-test-server.ts';

const BOT = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'api',
  'management',
  'test',
  'fixtures',
  'subscriptions-bot.json',
);
const ALL_KINDS = [
  'conversation.started',
  'dialog.started',
  'dialog.completed',
  'userData.changed',
  'trigger.finished',
  'integration.failed',
  'message.notUnderstood',
  'user.erased',
];
const CHANNEL_KEY = 'kiosk-key-0123456789';

for (const leg of storeLegs()) {
  describe.skipIf(leg.skip)(`the channel on every event (${leg.name})`, { timeout: 60_000 }, () => {
    let server: TestServer;
    let subscriber: Subscriber;
    let contract: Contract;

    beforeAll(async () => {
      server = await startTestServer({
        ...leg.env(),
        BOT_DEFINITION: BOT,
        INTEGRATION_ALLOWED_HOSTS: '127.0.0.1',
        REST_CHANNELS: JSON.stringify([{ name: 'kiosk', key: CHANNEL_KEY }]),
        SUBSCRIPTION_RETRY_MIN: '50ms',
        SUBSCRIPTION_RETRY_MAX: '300ms',
        MANAGEMENT_RATE_LIMIT: '100000',
      });
      subscriber = await startSubscriber();
      contract = new Contract(
        (await (await fetch(`${server.url}/api/management/openapi.json`)).json()) as Record<string, unknown>,
      );
    });
    afterAll(async () => {
      await server?.stop();
      await subscriber?.close();
    });

    it('when a user of another channel than the web chat goes through every kind of event, then each event names their channel, and its address leads back to them there', async () => {
      const subscribed = await fetch(
        `${server.url}/api/management/subscriptions`,
        keyed({
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ targetUrl: subscriber.url, events: ALL_KINDS }),
        }),
      );
      expect(subscribed.status).toBe(201);
      const userId = 'k-1';
      const send = async (body: Record<string, unknown>) => {
        const res = await fetch(`${server.url}/api/channels/kiosk/users/${userId}/messages`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-channel-key': CHANNEL_KEY },
          body: JSON.stringify(body),
        });
        expect(res.status).toBe(200);
      };
      await send({ type: 'text', clientId: 'c-1', text: 'Ada' });
      await send({ type: 'text', clientId: 'c-2', text: 'Ada' });
      await send({ type: 'text', clientId: 'c-3', text: 'what now?' });
      await send({ type: 'event', clientId: 'c-4', event: 'startDialog', dialogId: 'lookup' });
      const triggered = await fetch(`${server.url}/api/trigger/hooks-test/order?userId=${userId}`, {
        method: 'POST',
        headers: { 'x-functions-key': KEY, 'content-type': 'application/json' },
        body: JSON.stringify({ orderId: 'A-7' }),
      });
      expect(triggered.status).toBe(202);
      const mine = () => subscriber.accepted().filter((event) => event.user.id === userId);
      // An erasure takes the user's undelivered events with it: let the trigger's arrive first.
      await eventually('the trigger to be delivered', () => mine().some((e) => e.kind === 'trigger.finished'), 30_000);
      expect((await fetch(`${server.url}/api/management/users/${userId}`, keyed({ method: 'DELETE' }))).status).toBe(
        200,
      );
      await eventually('the erasure to be delivered', () => mine().some((e) => e.kind === 'user.erased'), 30_000);

      const events = mine();
      expect(new Set(events.map((e) => e.kind))).toEqual(new Set(ALL_KINDS));
      for (const event of events) {
        expect(event.user.channelId, event.kind).toBe('kiosk');
        expect(JSON.parse(Buffer.from(event.user.address, 'base64url').toString()), event.kind).toEqual({
          bot: 'hooks-test',
          user: userId,
          channelId: 'kiosk',
        });
      }
      // And each is what the document's schema of its kind says, channelId included.
      expect(
        subscriber.received
          .filter((r) => r.event.user.id === userId)
          .flatMap((r) => contract.checkDelivery(r.event.kind, r.headers, r.raw).problems),
      ).toEqual([]);
    });
  });
}
