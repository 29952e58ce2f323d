import { expect, it } from 'vitest';
import type { Store, UserRecord } from '../../ports/store.ts';
import { collect, tick } from './harness.ts';

export function userCases(store: () => Store): void {
  it('when the store is open, then ping resolves', async () => {
    await expect(store().ping()).resolves.toBeUndefined();
  });

  it('when a user is ensured for the first time, then it is created with defaults', async () => {
    const user = await store().ensureUser({
      userId: 'u1',
      channelId: 'webchat',
      userData: { name: 'Ada' },
      variables: { step: 1 },
      now: 1000,
    });
    const expected: UserRecord = {
      userId: 'u1',
      channelId: 'webchat',
      position: null,
      variables: { step: 1 },
      userData: { name: 'Ada' },
      lastMessageAt: null,
      createdAt: 1000,
      updatedAt: 1000,
      version: 1,
      lastSeq: 0,
      lastTrigger: null,
    };
    expect(user).toStrictEqual(expected);
    expect(await store().getUser('u1')).toStrictEqual(expected);
    const bare = await store().ensureUser({ userId: 'u2', channelId: 'webchat', now: 5 });
    expect([bare.userData, bare.variables]).toStrictEqual([{}, {}]);
  });

  it('when ensureUser is called for an existing user, then the stored user is returned unchanged', async () => {
    const first = await store().ensureUser({ userId: 'u1', channelId: 'a', userData: { x: 1 }, now: 1000 });
    const updated = await store().updateUser('u1', first.version, { lastMessageAt: 1500 }, 1500);
    const again = await store().ensureUser({
      userId: 'u1',
      channelId: 'b',
      userData: { x: 2 },
      variables: { y: 1 },
      now: 2000,
    });
    expect(again).toStrictEqual(updated);
    expect(await store().getUser('u1')).toStrictEqual(updated);
  });

  it('when getUser asks for an unknown id, then it returns null', async () => {
    expect(await store().getUser('nobody')).toBeNull();
  });

  it('when updateUser has the current version, then it replaces only the given fields and bumps version and updatedAt', async () => {
    const user = await store().ensureUser({
      userId: 'u1',
      channelId: 'c',
      userData: { a: 1 },
      variables: { v: 1 },
      now: 1000,
    });
    const position = { dialogId: 'd', stepId: 's', awaiting: true, retries: 2 };
    const after = await store().updateUser('u1', user.version, { position, variables: { v: 2 } }, 2000);
    expect(after).toStrictEqual({ ...user, position, variables: { v: 2 }, updatedAt: 2000, version: user.version + 1 });
    const cleared = await store().updateUser(
      'u1',
      user.version + 1,
      { position: null, lastMessageAt: 3000, userData: {} },
      3000,
    );
    expect(cleared).toStrictEqual({
      ...user,
      position: null,
      variables: { v: 2 },
      userData: {},
      lastMessageAt: 3000,
      updatedAt: 3000,
      version: user.version + 2,
    });
    const unset = await store().updateUser('u1', user.version + 2, { lastMessageAt: null }, 4000);
    expect(unset?.lastMessageAt).toBeNull();
    expect(await store().getUser('u1')).toStrictEqual(unset);
  });

  it('when updateUser has a stale version, then it returns null and changes nothing', async () => {
    const user = await store().ensureUser({ userId: 'u1', channelId: 'c', now: 1000 });
    await store().updateUser('u1', user.version, { variables: { n: 1 } }, 2000);
    const before = await store().getUser('u1');
    expect(await store().updateUser('u1', user.version, { variables: { n: 99 } }, 3000)).toBeNull();
    expect(await store().getUser('u1')).toStrictEqual(before);
  });

  it('when updateUser targets an unknown user, then it returns null and creates nothing', async () => {
    expect(await store().updateUser('ghost', 1, { variables: { a: 1 } }, 1000)).toBeNull();
    expect(await store().getUser('ghost')).toBeNull();
  });

  it('when records hold nested values and keys with dots or dollars, then they come back exactly', async () => {
    const odd = {
      'a.b': { $c: [1, 'two', null, true, { 'd.e': -1.5 }] },
      $top: 'x',
      big: 2 ** 53 - 1,
      unicode: 'żółw 🐢',
      empty: {},
    };
    const user = await store().ensureUser({ userId: 'u.$1', channelId: 'c', userData: odd, variables: odd, now: 1 });
    expect(user.userData).toStrictEqual(odd);
    await store().updateUser('u.$1', user.version, { variables: { ...odd, more: ['x'] } }, 2);
    expect((await store().getUser('u.$1'))?.variables).toStrictEqual({ ...odd, more: ['x'] });
  });

  it('when two writers increment one counter 25 times each with retry on conflict, then no update is lost', async () => {
    await store().ensureUser({ userId: 'u1', channelId: 'c', variables: { counter: 0 }, now: 0 });
    let conflicts = 0;
    const writer = async () => {
      for (let i = 0; i < 25; i += 1) {
        for (;;) {
          const current = await store().getUser('u1');
          if (current === null) throw new Error('user disappeared');
          await tick();
          const counter = (current.variables.counter as number) + 1;
          const updated = await store().updateUser('u1', current.version, { variables: { counter } }, counter);
          if (updated !== null) break;
          conflicts += 1;
        }
      }
    };
    await Promise.all([writer(), writer()]);
    const final = await store().getUser('u1');
    expect(final?.variables.counter).toBe(50);
    expect(final?.version).toBe(51);
    // Not a requirement of the store, but without conflicts this test proves nothing.
    expect(conflicts).toBeGreaterThan(0);
  });

  it('when users are exported, then only those who wrote within [fromMs, toMs) come, by lastMessageAt then creation order', async () => {
    const wrote = async (userId: string, at: number | null) => {
      const user = await store().ensureUser({ userId, channelId: 'c', userData: { id: userId }, now: 1 });
      if (at !== null) await store().updateUser(userId, user.version, { lastMessageAt: at }, at);
    };
    await wrote('late', 300);
    await wrote('silent', null);
    await wrote('atFrom', 100);
    await wrote('tieFirst', 200);
    await wrote('before', 99);
    await wrote('tieSecond', 200);
    await wrote('atTo', 400);
    const rows = await collect(store().exportUsers({ fromMs: 100, toMs: 400 }));
    expect(rows.map((r) => [r.userId, r.timestamp])).toStrictEqual([
      ['atFrom', 100],
      ['tieFirst', 200],
      ['tieSecond', 200],
      ['late', 300],
    ]);
    expect(rows[0]?.userData).toStrictEqual({ id: 'atFrom' });
    const all = await collect(store().exportUsers({}));
    expect(all.map((r) => r.userId)).toStrictEqual(['before', 'atFrom', 'tieFirst', 'tieSecond', 'late', 'atTo']);
    expect(await collect(store().exportUsers({ fromMs: 400, toMs: 400 }))).toStrictEqual([]);
  });

  it('when an export resumes after any cursor, then every later user comes exactly once', async () => {
    const times = [50, 10, 10, 10, 20, 30, 30, 40, 10, 50];
    for (const [index, at] of times.entries()) {
      const user = await store().ensureUser({ userId: `u${index}`, channelId: 'c', now: 1 });
      await store().updateUser(user.userId, user.version, { lastMessageAt: at }, at);
    }
    const full = await collect(store().exportUsers({ batchSize: 3 }));
    expect(full.map((r) => r.userId)).toStrictEqual(['u1', 'u2', 'u3', 'u8', 'u4', 'u5', 'u6', 'u7', 'u0', 'u9']);
    expect(await collect(store().exportUsers({ batchSize: 1000 }))).toStrictEqual(full);
    for (const [index, row] of full.entries()) {
      const rest = await collect(store().exportUsers({ after: row.cursor, batchSize: 2 }));
      expect(rest.map((r) => r.userId)).toStrictEqual(full.slice(index + 1).map((r) => r.userId));
    }
  });
}
