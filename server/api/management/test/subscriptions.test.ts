import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BotMessage } from '../../../../shared/protocol.ts';
import {
  connectClient,
  eventually,
  startTestServer,
  storeLegs,
  type TestClient,
  type TestServer,
} from '../../../test/start-test-server.ts';
import { Contract } from './contract.ts';
import { KEY, keyed } from './helpers.ts';
import { signatureValid, startSubscriber, type Subscriber } from './subscriber.ts';

const BOT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'subscriptions-bot.json');
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

type Created = { id: string; secret: string; status: string };

for (const leg of storeLegs()) {
  describe.skipIf(leg.skip)(`event subscriptions (${leg.name})`, { timeout: 60_000 }, () => {
    let server: TestServer;
    let contract: Contract;
    const subscribers: Subscriber[] = [];
    const secrets: string[] = [];

    beforeAll(async () => {
      server = await startTestServer({
        ...leg.env(),
        BOT_DEFINITION: BOT,
        INTEGRATION_ALLOWED_HOSTS: '127.0.0.1',
        SUBSCRIPTION_RETRY_MIN: '50ms',
        SUBSCRIPTION_RETRY_MAX: '300ms',
        SUBSCRIPTION_PAUSE_AFTER: '8',
        MANAGEMENT_RATE_LIMIT: '100000',
        WEBCHAT_RATE_LIMIT: '10000',
      });
      contract = new Contract(
        (await (await fetch(`${server.url}/api/management/openapi.json`)).json()) as Record<string, unknown>,
      );
    });
    afterAll(async () => {
      await server?.stop();
      for (const subscriber of subscribers) await subscriber.close();
    });

    const subscriber = async () => {
      const made = await startSubscriber();
      subscribers.push(made);
      return made;
    };
    /** A management call whose answer is checked against the OpenAPI document. */
    const call = async (
      method: string,
      route: string,
      body?: unknown,
    ): Promise<{ status: number; json: () => unknown }> => {
      const url = `${server.url}${route}`;
      const res = await fetch(
        url,
        keyed({
          method,
          ...(body === undefined
            ? {}
            : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
        }),
      );
      const text = await res.clone().text();
      expect((await contract.check(method, url, res)).problems).toEqual([]);
      return { status: res.status, json: () => JSON.parse(text) as unknown };
    };
    const subscribe = async (target: Subscriber, events: string[]): Promise<Created> => {
      const res = await call('POST', '/api/management/subscriptions', { targetUrl: target.url, events });
      expect(res.status).toBe(201);
      const created = res.json() as Created;
      secrets.push(created.secret);
      return created;
    };
    const trigger = (userId: string, orderId: string) =>
      fetch(`${server.url}/api/trigger/hooks-test/order?userId=${userId}`, {
        method: 'POST',
        headers: { 'x-functions-key': KEY, 'content-type': 'application/json' },
        body: JSON.stringify({ orderId }),
      }).then((res) => expect(res.status).toBe(202));
    const of = (target: Subscriber, userId: string) => target.accepted().filter((event) => event.user.id === userId);
    const orders = (target: Subscriber, userId: string) =>
      of(target, userId).filter((e) => e.kind === 'trigger.finished');

    it('when a platform subscribes to every kind and a user goes through a conversation, then it receives each kind once, in the order it happened, signed', async () => {
      const everything = await subscriber();
      const created = await subscribe(everything, ALL_KINDS);
      expect(created).toMatchObject({
        id: expect.stringMatching(/^sub_/),
        status: 'active',
        secret: expect.any(String),
      });

      const client: TestClient & { items: { from: string; message: unknown }[] } = connectClient(server.url);
      const said = (text: string) =>
        eventually(
          `"${text}"`,
          () =>
            client.items.some(
              (i) => (i.message as BotMessage).type === 'text' && (i.message as { text: string }).text === text,
            ),
          15_000,
        );
      const session = (await new Promise((resolve) => client.once('session', resolve))) as { userId: string };
      const userId = session.userId;
      await said('Your name?');
      await client.emitWithAck('message', { clientId: 'c-1', text: 'Ada' });
      await said('Thanks, Ada.');
      await client.emitWithAck('message', { clientId: 'c-2', text: 'what now?' });
      await said('Sorry, I did not get that.');
      await client.emitWithAck('start_dialog', { dialogId: 'lookup' });
      await said('The stock service is down.');
      await trigger(userId, 'A-7');
      await said('Order A-7 shipped.');
      client.disconnect();
      // An erasure takes the user's undelivered events with it: let these arrive first.
      await eventually(
        'the trigger to be delivered',
        () => of(everything, userId).some((e) => e.kind === 'trigger.finished'),
        30_000,
      );
      expect((await fetch(`${server.url}/api/management/users/${userId}`, keyed({ method: 'DELETE' }))).status).toBe(
        200,
      );

      await eventually(
        'the erasure to be delivered',
        () => of(everything, userId).some((e) => e.kind === 'user.erased'),
        30_000,
      );
      const events = of(everything, userId);
      expect(events.map((e) => `${e.kind}${typeof e.data.dialogId === 'string' ? ` ${e.data.dialogId}` : ''}`)).toEqual(
        [
          'conversation.started',
          'dialog.started greeting',
          'userData.changed',
          'dialog.completed greeting',
          'message.notUnderstood',
          'dialog.started lookup',
          'integration.failed lookup',
          'dialog.completed lookup',
          'userData.changed',
          'dialog.started order',
          'dialog.completed order',
          'trigger.finished order',
          'user.erased',
        ],
      );
      expect(new Set(events.map((e) => e.kind))).toEqual(new Set(ALL_KINDS));
      // Once each: no event id arrived twice, and the sequence only goes up.
      const mine = everything.received.filter((r) => r.event.user.id === userId);
      expect(mine).toHaveLength(events.length);
      expect(events.map((e) => e.sequence)).toEqual([...events.map((e) => e.sequence)].sort((a, b) => a - b));
      for (const received of mine) {
        expect(signatureValid(received, created.secret)).toBe(true);
        expect(received.headers).toMatchObject({
          'x-event-id': received.event.id,
          'x-event-kind': received.event.kind,
          'x-subscription-id': created.id,
        });
      }
      const [started, , named, , notUnderstood, , failed, , ordered, , , finished] = events;
      expect(started).toMatchObject({
        bot: 'hooks-test',
        subscriptionId: created.id,
        user: { id: userId, channelId: 'webchat' },
        data: { via: 'start' },
      });
      expect(JSON.parse(Buffer.from(started!.user.address, 'base64url').toString())).toEqual({
        bot: 'hooks-test',
        user: userId,
        channelId: 'webchat',
      });
      expect(named!.data).toEqual({ fields: ['name'], values: { name: 'Ada' } });
      expect(notUnderstood!.data).toEqual({ dialogId: null, stepId: null, text: 'what now?' });
      expect(failed!.data).toMatchObject({
        dialogId: 'lookup',
        stepId: 'call',
        integration: 'http',
        errorKind: 'network',
        async: false,
      });
      expect(ordered!.data).toEqual({ fields: ['triggerData'], values: { triggerData: { orderId: 'A-7' } } });
      expect(finished!.data).toMatchObject({ dialogId: 'order', triggerId: expect.any(String) });
      // Every delivery, headers and body, is what the document's webhook of its kind says.
      expect(
        mine.flatMap(
          (received) => contract.checkDelivery(received.event.kind, received.headers, received.raw).problems,
        ),
      ).toEqual([]);
    });

    it('when a subscriber is down for a while, then the failing is visible, and once it is back it receives what it missed, once each and in order per user', async () => {
      const late = await subscriber();
      const created = await subscribe(late, ['trigger.finished', 'userData.changed']);
      await late.down();
      for (let n = 1; n <= 3; n++) {
        await trigger('down-1', `D1-${n}`);
        await trigger('down-2', `D2-${n}`);
      }
      const failing = await eventually(
        'the failures to show',
        async () => {
          const view = (await call('GET', `/api/management/subscriptions/${created.id}`)).json() as {
            failures: number;
            lastError: string | null;
            pending: number;
            status: string;
          };
          return view.failures > 0 ? view : undefined;
        },
        15_000,
      );
      expect(failing).toMatchObject({ status: 'active', lastError: expect.stringContaining('127.0.0.1') });
      await late.up();
      await eventually('every missed event', () => late.accepted().length === 12, 15_000);
      expect(late.received).toHaveLength(12);
      for (const user of ['down-1', 'down-2']) {
        const prefix = user === 'down-1' ? 'D1' : 'D2';
        expect(of(late, user).map((e) => `${e.kind}:${JSON.stringify(e.data.values ?? e.data.dialogId)}`)).toEqual(
          [1, 2, 3].flatMap((n) => [
            `userData.changed:{"triggerData":{"orderId":"${prefix}-${n}"}}`,
            'trigger.finished:"order"',
          ]),
        );
      }
      for (const received of late.received) expect(signatureValid(received, created.secret)).toBe(true);
      // The cursor moves just after each answer: the last one may still be on its way.
      await eventually(
        'the backlog to empty',
        async () =>
          ((await call('GET', `/api/management/subscriptions/${created.id}`)).json() as { pending: number }).pending ===
          0,
        15_000,
      );
      const back = (await call('GET', `/api/management/subscriptions/${created.id}`)).json();
      expect(back).toMatchObject({ status: 'active', failures: 0, lastError: null, pending: 0 });
    });

    it('when a subscriber keeps failing, then it is paused and says why, gets nothing meanwhile, and resumed receives what it missed once each', async () => {
      const broken = await subscriber();
      broken.answer(500);
      const created = await subscribe(broken, ['trigger.finished']);
      await trigger('paused-1', 'P-1');
      await trigger('paused-1', 'P-2');
      const paused = await eventually(
        'the pause',
        async () => {
          const view = (await call('GET', `/api/management/subscriptions/${created.id}`)).json() as { status: string };
          return view.status === 'paused' ? view : undefined;
        },
        15_000,
      );
      expect(paused).toMatchObject({
        failures: 8,
        lastError: 'the target answered HTTP 500',
        pausedAt: expect.any(String),
        pending: 2,
      });
      const listed = (await call('GET', '/api/management/subscriptions')).json() as {
        id: string;
        status: string;
        secret?: string;
      }[];
      expect(listed.find((s) => s.id === created.id)).toMatchObject({ status: 'paused' });
      expect(listed.every((s) => s.secret === undefined)).toBe(true);
      const attempts = broken.received.length;
      expect(attempts).toBe(8);
      await trigger('paused-1', 'P-3');
      await eventually(
        'the third to wait',
        async () =>
          ((await call('GET', `/api/management/subscriptions/${created.id}`)).json() as { pending: number }).pending ===
          3,
        15_000,
      );
      expect(broken.received.length).toBe(attempts);

      broken.answer(200);
      const resumed = await call('POST', `/api/management/subscriptions/${created.id}/resume`);
      expect(resumed.status).toBe(200);
      expect(resumed.json()).toMatchObject({ status: 'active', failures: 0, pausedAt: null });
      await eventually('the missed events', () => broken.accepted().length === 3, 15_000);
      // The first event was tried 8 times and refused; after the resume each event came once more and was taken.
      expect(broken.received.filter((r) => r.status === 200).map((r) => r.event.id)).toEqual(
        broken.accepted().map((e) => e.id),
      );
      expect(new Set(broken.accepted().map((e) => e.id)).size).toBe(3);
      expect(
        broken.received.filter((r) => r.status === 500).every((r) => r.event.id === broken.accepted()[0]!.id),
      ).toBe(true);
    });

    it('when a replay from a point in time is asked, then the events since then come again with their ids', async () => {
      const replayed = await subscriber();
      const created = await subscribe(replayed, ['trigger.finished']);
      const from = Math.floor(Date.now() / 1000);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      await trigger('replay-1', 'R-1');
      await trigger('replay-1', 'R-2');
      await eventually('the first deliveries', () => replayed.received.length === 2, 15_000);
      const first = replayed.received.map((r) => r.event.id);
      const res = await call('POST', `/api/management/subscriptions/${created.id}/replay`, { from });
      expect(res.status).toBe(202);
      await eventually(
        'the replay',
        () => replayed.received.filter((r) => r.event.user.id === 'replay-1').length === 4,
        15_000,
      );
      expect(replayed.received.filter((r) => r.event.user.id === 'replay-1').map((r) => r.event.id)).toEqual([
        ...first,
        ...first,
      ]);
      expect(replayed.accepted().filter((e) => e.user.id === 'replay-1')).toHaveLength(2);
    });

    it('when an asynchronous call is given up on, then integration.failed says so, after the dialog went on', async () => {
      const watching = await subscriber();
      await subscribe(watching, ['dialog.completed', 'integration.failed']);
      const res = await fetch(`${server.url}/api/trigger/hooks-test/lookupLater?userId=async-1`, {
        method: 'POST',
        headers: { 'x-functions-key': KEY },
      });
      expect(res.status).toBe(202);
      await eventually(
        'the failure',
        () => watching.accepted().some((e) => e.user.id === 'async-1' && e.kind === 'integration.failed'),
        15_000,
      );
      const events = watching.accepted().filter((e) => e.user.id === 'async-1');
      expect(events.map((e) => e.kind)).toEqual(['dialog.completed', 'integration.failed']);
      expect(events[1]!.data).toMatchObject({
        dialogId: 'lookupLater',
        stepId: 'call',
        integration: 'http',
        errorKind: 'network',
        status: null,
        async: true,
      });
    });

    it('when a user is erased, then a replay brings back none of their earlier events, only the erasure', async () => {
      const listening = await subscriber();
      const created = await subscribe(listening, ['trigger.finished', 'user.erased']);
      const from = Math.floor(Date.now() / 1000);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      await trigger('erase-1', 'E-1');
      await trigger('erase-1', 'E-2');
      const mine = () => listening.received.filter((r) => r.event.user.id === 'erase-1').map((r) => r.event.kind);
      await eventually('both orders', () => mine().length === 2, 15_000);
      expect((await fetch(`${server.url}/api/management/users/erase-1`, keyed({ method: 'DELETE' }))).status).toBe(200);
      await eventually('the erasure', () => mine().includes('user.erased'), 15_000);
      expect((await call('POST', `/api/management/subscriptions/${created.id}/replay`, { from })).status).toBe(202);
      // Deliveries go in the order recorded: had the orders stayed, they would come before the erasure again.
      await eventually(
        'the replayed erasure',
        () => mine().filter((kind) => kind === 'user.erased').length === 2,
        15_000,
      );
      expect(mine()).toEqual(['trigger.finished', 'trigger.finished', 'user.erased', 'user.erased']);
    });

    it('when a subscription is deleted, then nothing more is delivered to it while others still get theirs', async () => {
      const leaving = await subscriber();
      const staying = await subscriber();
      const gone = await subscribe(leaving, ['trigger.finished']);
      await subscribe(staying, ['trigger.finished']);
      await trigger('leave-1', 'L-1');
      await eventually(
        'both to hear of the first',
        () => orders(leaving, 'leave-1').length === 1 && orders(staying, 'leave-1').length === 1,
        15_000,
      );
      expect((await call('DELETE', `/api/management/subscriptions/${gone.id}`)).status).toBe(204);
      expect((await call('GET', `/api/management/subscriptions/${gone.id}`)).status).toBe(404);
      await trigger('leave-1', 'L-2');
      await eventually('the staying one to hear of the second', () => orders(staying, 'leave-1').length === 2, 15_000);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(leaving.received).toHaveLength(1);
    });

    it('when a target answers 410 Gone, then its subscription ends', async () => {
      const gone = await subscriber();
      gone.answer(410);
      const created = await subscribe(gone, ['trigger.finished']);
      await trigger('gone-1', 'G-1');
      await eventually(
        'the subscription to end',
        async () => (await call('GET', `/api/management/subscriptions/${created.id}`)).status === 404,
        15_000,
      );
      expect(gone.received).toHaveLength(1);
    });

    it("when a subscription asks for a host outside INTEGRATION_ALLOWED_HOSTS, or the request is malformed, then it is refused with the catalogue's code", async () => {
      const refused = await call('POST', '/api/management/subscriptions', {
        targetUrl: 'https://hooks.zapier.com/hooks/catch/1/a/',
        events: ['dialog.started'],
      });
      expect(refused.status).toBe(400);
      expect(refused.json()).toMatchObject({
        error: { code: 'forbidden_destination', message: expect.stringContaining('INTEGRATION_ALLOWED_HOSTS') },
      });
      const cases: [unknown, string][] = [
        [{ targetUrl: 'ftp://127.0.0.1/x', events: ['dialog.started'] }, 'targetUrl'],
        [{ targetUrl: 'http://user:pw@127.0.0.1/x', events: ['dialog.started'] }, 'targetUrl'],
        [{ targetUrl: 'http://127.0.0.1/x', events: ['dialog.begun'] }, 'events.0'],
        [{ targetUrl: 'http://127.0.0.1/x', events: [] }, 'events'],
        [{ targetUrl: 'http://127.0.0.1/x', events: ['dialog.started'], extra: 1 }, '(body)'],
      ];
      for (const [body, field] of cases) {
        const res = await call('POST', '/api/management/subscriptions', body);
        expect(res.status).toBe(400);
        expect(res.json()).toMatchObject({ error: { code: 'invalid_body', details: { field } } });
      }
      const plain = await fetch(
        `${server.url}/api/management/subscriptions`,
        keyed({ method: 'POST', body: 'x', headers: { 'content-type': 'text/plain' } }),
      );
      expect(plain.status).toBe(415);
      expect((await call('POST', '/api/management/subscriptions/sub_nope/resume')).status).toBe(404);
      expect((await call('POST', '/api/management/subscriptions/sub_nope/replay', { from: 0 })).status).toBe(404);
      const put = await fetch(`${server.url}/api/management/subscriptions`, keyed({ method: 'PUT' }));
      expect(put.status).toBe(405);
      expect(put.headers.get('allow')).toBe('GET, HEAD, POST');
      expect((await fetch(`${server.url}/api/management/subscriptions`)).status).toBe(401);
    });

    it('when events and subscriptions went by, then no signing secret is in a log line', () => {
      expect(secrets.length).toBeGreaterThan(5);
      for (const secret of secrets) expect(server.logText()).not.toContain(secret);
    });
  });
}
