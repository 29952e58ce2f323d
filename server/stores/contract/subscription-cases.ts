import { expect, it } from 'vitest';
import type { EventKind, NewBotEvent, SubscriptionStore } from '../../ports/event-subscriptions.ts';

const event = (id: string, extra: Partial<NewBotEvent> = {}): NewBotEvent => ({
  id,
  kind: 'dialog.started',
  userId: 'u-1',
  channelId: 'webchat',
  at: 1000,
  data: { dialogId: 'main', 'odd.key': { $x: 1 } },
  ...extra,
});
const subscription = (id: string, kinds: EventKind[] = ['dialog.started']) => ({
  id,
  targetUrl: `https://hooks.example.com/${id}`,
  kinds,
  secret: `secret-${id}`,
  createdAt: 500,
});

export function subscriptionCases(subscriptions: () => SubscriptionStore): void {
  it('when a subscription is created, then it is active, listed, and its cursor is the end of the log', async () => {
    await subscriptions().appendEvents([event('e1'), event('e2')]);
    const created = await subscriptions().createSubscription(subscription('s1', ['dialog.started', 'user.erased']));
    expect(created).toStrictEqual({
      id: 's1',
      targetUrl: 'https://hooks.example.com/s1',
      kinds: ['dialog.started', 'user.erased'],
      secret: 'secret-s1',
      createdAt: 500,
      status: 'active',
      cursor: 2,
      failures: 0,
      lastError: null,
      lastAttemptAt: null,
      lastDeliveredAt: null,
      pausedAt: null,
    });
    expect(await subscriptions().getSubscription('s1')).toStrictEqual(created);
    await subscriptions().createSubscription({ ...subscription('s0'), createdAt: 400 });
    expect((await subscriptions().listSubscriptions()).map((s) => s.id)).toEqual(['s0', 's1']);
    expect(await subscriptions().getSubscription('nope')).toBeNull();
  });

  it('when a subscription is deleted, then it is gone, and deleting it again says so', async () => {
    await subscriptions().createSubscription(subscription('s1'));
    expect(await subscriptions().deleteSubscription('s1')).toBe(true);
    expect(await subscriptions().getSubscription('s1')).toBeNull();
    expect(await subscriptions().deleteSubscription('s1')).toBe(false);
    expect(await subscriptions().listSubscriptions()).toEqual([]);
  });

  it('when events are appended, then they get increasing seqs in order, data back as given, and an id already recorded is skipped', async () => {
    expect(await subscriptions().lastEventSeq()).toBe(0);
    expect(
      await subscriptions().appendEvents([
        event('a'),
        event('b', { kind: 'user.erased', userId: 'u-2', channelId: 'rest', at: 2000, data: {} }),
      ]),
    ).toBe(2);
    expect(await subscriptions().appendEvents([event('b'), event('c'), event('c')])).toBe(1);
    const all = await subscriptions().readEvents({ afterSeq: 0, limit: 10 });
    expect(all).toStrictEqual([
      { seq: 1, ...event('a') },
      { seq: 2, id: 'b', kind: 'user.erased', userId: 'u-2', channelId: 'rest', at: 2000, data: {} },
      { seq: 3, ...event('c') },
    ]);
    expect(await subscriptions().lastEventSeq()).toBe(3);
  });

  it('when events are read, then the cursor, the kinds and the limit apply, and the count says how many remain', async () => {
    await subscriptions().appendEvents([
      event('1'),
      event('2', { kind: 'dialog.completed' }),
      event('3'),
      event('4', { kind: 'user.erased' }),
      event('5'),
    ]);
    expect(
      (await subscriptions().readEvents({ afterSeq: 1, kinds: ['dialog.started'], limit: 10 })).map((e) => e.id),
    ).toEqual(['3', '5']);
    expect(
      (await subscriptions().readEvents({ afterSeq: 0, kinds: ['dialog.started', 'user.erased'], limit: 3 })).map(
        (e) => e.id,
      ),
    ).toEqual(['1', '3', '4']);
    expect(await subscriptions().readEvents({ afterSeq: 0, kinds: [], limit: 3 })).toEqual([]);
    expect(await subscriptions().countEvents({ afterSeq: 1, kinds: ['dialog.started'] })).toBe(2);
    expect(await subscriptions().countEvents({ afterSeq: 0 })).toBe(5);
  });

  it('when many append at once while a reader follows the log, then every event is recorded once and the reader never sees a gap', async () => {
    const writers = Array.from({ length: 6 }, (_, w) =>
      (async () => {
        for (let i = 0; i < 5; i++) await subscriptions().appendEvents([event(`w${w}-${i}-a`), event(`w${w}-${i}-b`)]);
      })(),
    );
    let cursor = 0;
    const seen: string[] = [];
    let done = false;
    const reader = (async () => {
      while (!done || cursor < 60) {
        const batch = await subscriptions().readEvents({ afterSeq: cursor, limit: 7 });
        for (const e of batch) {
          expect(e.seq).toBe(cursor + 1);
          cursor = e.seq;
          seen.push(e.id);
        }
        if (batch.length === 0) await new Promise((resolve) => setTimeout(resolve, 2));
      }
    })();
    await Promise.all(writers);
    done = true;
    await reader;
    expect(seen).toHaveLength(60);
    expect(new Set(seen).size).toBe(60);
    // One writer's events keep their order.
    const own = seen.filter((id) => id.startsWith('w3-'));
    expect(own).toEqual(Array.from({ length: 5 }, (_, i) => [`w3-${i}-a`, `w3-${i}-b`]).flat());
  });

  it('when a subscription is updated with the cursor it expects, then the patch applies; with a stale cursor or once gone, nothing changes', async () => {
    await subscriptions().createSubscription(subscription('s1'));
    const moved = await subscriptions().updateSubscription(
      's1',
      { cursor: 4, lastDeliveredAt: 900, failures: 0, lastError: null },
      0,
    );
    expect(moved).toMatchObject({ cursor: 4, lastDeliveredAt: 900 });
    expect(await subscriptions().updateSubscription('s1', { cursor: 9 }, 0)).toBeNull();
    const paused = await subscriptions().updateSubscription('s1', {
      status: 'paused',
      pausedAt: 950,
      failures: 20,
      lastError: 'HTTP 503',
      lastAttemptAt: 950,
    });
    expect(paused).toMatchObject({
      status: 'paused',
      pausedAt: 950,
      failures: 20,
      lastError: 'HTTP 503',
      cursor: 4,
      secret: 'secret-s1',
    });
    expect(await subscriptions().getSubscription('s1')).toStrictEqual(paused);
    await subscriptions().deleteSubscription('s1');
    expect(await subscriptions().updateSubscription('s1', { status: 'active' })).toBeNull();
  });

  it('when events are erased or purged, then only those go, and their seqs are never handed out again', async () => {
    await subscriptions().appendEvents([
      event('old', { at: 100 }),
      event('mid', { at: 200, userId: 'u-2' }),
      event('new', { at: 300, userId: 'u-2' }),
    ]);
    expect(await subscriptions().firstEventSeqAt(150)).toBe(2);
    expect(await subscriptions().firstEventSeqAt(301)).toBeNull();
    expect(await subscriptions().eraseUserEvents('u-2')).toBe(2);
    expect(await subscriptions().lastEventSeq()).toBe(3);
    expect(await subscriptions().purgeEventsBefore(150)).toBe(1);
    expect(await subscriptions().readEvents({ afterSeq: 0, limit: 10 })).toEqual([]);
    await subscriptions().appendEvents([event('later', { at: 400 })]);
    expect((await subscriptions().readEvents({ afterSeq: 0, limit: 10 })).map((e) => [e.id, e.seq])).toEqual([
      ['later', 4],
    ]);
    const created = await subscriptions().createSubscription(subscription('s2'));
    expect(created.cursor).toBe(4);
  });
}
