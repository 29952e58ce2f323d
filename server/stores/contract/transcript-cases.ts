import { expect, it } from 'vitest';
import type { NewTranscriptEntry, Store } from '../../ports/store.ts';

const bot = (text: string, at = 1): NewTranscriptEntry => ({ from: 'bot', at, message: { type: 'text', text } });
const user = (clientId: string, text: string, at = 1): NewTranscriptEntry => ({
  from: 'user',
  clientId,
  at,
  message: { type: 'text', text },
});

async function seqsOf(store: Store, userId: string): Promise<number[]> {
  return (await store.readTranscript(userId, 0, 10_000)).map((entry) => entry.seq);
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

export function transcriptCases(store: () => Store): void {
  it('when entries are appended in several calls, then seqs run 1, 2, 3 … and lastSeq follows', async () => {
    await store().ensureUser({ userId: 'u1', channelId: 'c', now: 0 });
    const first = await store().appendTranscript('u1', [user('m1', 'hi', 10), bot('hello', 11)]);
    expect(first).toStrictEqual([
      {
        userId: 'u1',
        seq: 1,
        from: 'user',
        clientId: 'm1',
        at: 10,
        message: { type: 'text', text: 'hi' },
        duplicate: false,
      },
      {
        userId: 'u1',
        seq: 2,
        from: 'bot',
        clientId: null,
        at: 11,
        message: { type: 'text', text: 'hello' },
        duplicate: false,
      },
    ]);
    await store().appendTranscript('u1', [bot('a'), bot('b'), bot('c')]);
    expect(await store().appendTranscript('u1', [])).toStrictEqual([]);
    const entries = await store().readTranscript('u1', 0, 100);
    expect(entries.map((e) => e.seq)).toStrictEqual([1, 2, 3, 4, 5]);
    expect(entries[0]).toStrictEqual({
      userId: 'u1',
      seq: 1,
      from: 'user',
      clientId: 'm1',
      at: 10,
      message: { type: 'text', text: 'hi' },
    });
    expect(entries.slice(2).map((e) => e.message.text)).toStrictEqual(['a', 'b', 'c']);
    expect((await store().getUser('u1'))?.lastSeq).toBe(5);
  });

  it('when bot entries name the dialog and step that said them, then they are read back with them, by append and by turn alike', async () => {
    await store().ensureUser({ userId: 'u1', channelId: 'c', now: 0 });
    await store().appendTranscript('u1', [{ ...bot('appended'), dialogId: 'd', stepId: 's1' }]);
    const read = await store().getUser('u1');
    await store().commitTurn({
      userId: 'u1',
      expectedVersion: read!.version,
      patch: {},
      now: 2,
      userEntry: user('m1', 'hi', 2),
      botEntries: [{ ...bot('said', 2), dialogId: 'd', stepId: 's2' }, bot('no step', 2)],
    });
    const entries = await store().readTranscript('u1', 0, 10);
    expect(entries.map((e) => [e.message.text, e.dialogId, e.stepId])).toStrictEqual([
      ['appended', 'd', 's1'],
      ['hi', undefined, undefined],
      ['said', 'd', 's2'],
      ['no step', undefined, undefined],
    ]);
    expect(Object.keys(entries[1]!)).not.toContain('dialogId');
  });

  it('when reading after a seq with a limit, then only that page of this user comes', async () => {
    await store().ensureUser({ userId: 'u1', channelId: 'c', now: 0 });
    await store().ensureUser({ userId: 'u2', channelId: 'c', now: 0 });
    await store().appendTranscript(
      'u1',
      range(6).map((n) => bot(`one-${n}`)),
    );
    await store().appendTranscript('u2', [bot('two-1')]);
    expect((await store().readTranscript('u1', 2, 3)).map((e) => e.seq)).toStrictEqual([3, 4, 5]);
    expect((await store().readTranscript('u1', 5, 3)).map((e) => e.seq)).toStrictEqual([6]);
    expect(await store().readTranscript('u1', 6, 3)).toStrictEqual([]);
    expect((await store().readTranscript('u2', 0, 10)).map((e) => [e.seq, e.message.text])).toStrictEqual([
      [1, 'two-1'],
    ]);
    expect(await store().readTranscript('nobody', 0, 10)).toStrictEqual([]);
  });

  it('when a returning user is read with what they missed, then it is the user getUser gives and the entries readTranscript gives; an unknown one is null with none', async () => {
    await store().ensureUser({ userId: 'u1', channelId: 'c', now: 0 });
    await store().appendTranscript(
      'u1',
      range(4).map((n) => bot(`one-${n}`)),
    );
    const returning = await store().readReturning('u1', 1, 2);
    expect(returning.user).toStrictEqual(await store().getUser('u1'));
    expect(returning.missed).toStrictEqual(await store().readTranscript('u1', 1, 2));
    expect(returning.missed.map((e) => e.seq)).toStrictEqual([2, 3]);
    expect(await store().readReturning('nobody', 0, 10)).toStrictEqual({ user: null, missed: [] });
  });

  it('when a user entry repeats a stored clientId, then the stored entry is returned as a duplicate and no seq is used', async () => {
    await store().ensureUser({ userId: 'u1', channelId: 'c', now: 0 });
    await store().appendTranscript('u1', [user('m1', 'original', 10), bot('reply')]);
    const again = await store().appendTranscript('u1', [user('m1', 'resent', 20), user('m2', 'next', 21)]);
    expect(again).toStrictEqual([
      {
        userId: 'u1',
        seq: 1,
        from: 'user',
        clientId: 'm1',
        at: 10,
        message: { type: 'text', text: 'original' },
        duplicate: true,
      },
      {
        userId: 'u1',
        seq: 3,
        from: 'user',
        clientId: 'm2',
        at: 21,
        message: { type: 'text', text: 'next' },
        duplicate: false,
      },
    ]);
    expect(await seqsOf(store(), 'u1')).toStrictEqual([1, 2, 3]);
    expect((await store().getUser('u1'))?.lastSeq).toBe(3);
  });

  it('when one call carries the same clientId twice, then the second is a duplicate of the first', async () => {
    await store().ensureUser({ userId: 'u1', channelId: 'c', now: 0 });
    const result = await store().appendTranscript('u1', [user('m1', 'a'), user('m1', 'b')]);
    expect(result.map((r) => [r.seq, r.duplicate, r.message.text])).toStrictEqual([
      [1, false, 'a'],
      [1, true, 'a'],
    ]);
    expect(await seqsOf(store(), 'u1')).toStrictEqual([1]);
  });

  it('when the same clientId is used by two users, then each user keeps their own entry', async () => {
    await store().ensureUser({ userId: 'u1', channelId: 'c', now: 0 });
    await store().ensureUser({ userId: 'u2', channelId: 'c', now: 0 });
    const one = await store().appendTranscript('u1', [user('m1', 'from one')]);
    const two = await store().appendTranscript('u2', [user('m1', 'from two')]);
    expect([one[0]?.duplicate, two[0]?.duplicate]).toStrictEqual([false, false]);
  });

  it('when two appends on one user run concurrently, then their seqs are distinct and gapless', async () => {
    await store().ensureUser({ userId: 'u1', channelId: 'c', now: 0 });
    for (let round = 0; round < 5; round += 1) {
      await Promise.all([
        store().appendTranscript('u1', [user(`a${round}`, 'a'), bot('a-reply')]),
        store().appendTranscript('u1', [user(`b${round}`, 'b'), bot('b-reply')]),
      ]);
    }
    const entries = await store().readTranscript('u1', 0, 100);
    expect(entries.map((e) => e.seq)).toStrictEqual(range(20));
    expect(new Set(entries.map((e) => e.clientId).filter((c) => c !== null)).size).toBe(10);
    expect((await store().getUser('u1'))?.lastSeq).toBe(20);
  });

  it('when two concurrent appends carry the same clientId, then it is stored once and seqs stay gapless', async () => {
    await store().ensureUser({ userId: 'u1', channelId: 'c', now: 0 });
    for (let round = 0; round < 5; round += 1) {
      const [a, b] = await Promise.all([
        store().appendTranscript('u1', [user(`m${round}`, 'first try')]),
        store().appendTranscript('u1', [user(`m${round}`, 'retry')]),
      ]);
      expect([a?.[0]?.duplicate, b?.[0]?.duplicate].sort()).toStrictEqual([false, true]);
      expect(a?.[0]?.seq).toBe(b?.[0]?.seq);
    }
    expect(await seqsOf(store(), 'u1')).toStrictEqual(range(5));
  });

  it('when appending for a user that was never ensured, then it rejects and stores nothing', async () => {
    await expect(store().appendTranscript('ghost', [bot('x')])).rejects.toThrow(/ghost/);
    expect(await store().readTranscript('ghost', 0, 10)).toStrictEqual([]);
  });
}
