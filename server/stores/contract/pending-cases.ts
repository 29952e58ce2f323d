import { expect, it } from 'vitest';
import type { NewTranscriptEntry, Store } from '../../ports/store.ts';

const said = (clientId: string, text: string): NewTranscriptEntry => ({
  from: 'user',
  clientId,
  at: 5,
  message: { type: 'text', text },
});
const bot = (text: string): NewTranscriptEntry => ({ from: 'bot', at: 6, message: { type: 'text', text } });

export function pendingCases(store: () => Store): void {
  it('when a message is stored pending, then it takes the next seq and the user is marked in the same write; a resend marks nothing', async () => {
    await store().ensureUser({ userId: 'u1', channelId: 'c', now: 1 });
    await store().appendTranscript('u1', [bot('hello')]);
    const stored = await store().storePending('u1', said('m1', 'hi'));
    expect(stored).toMatchObject({ seq: 2, from: 'user', clientId: 'm1', duplicate: false, message: { text: 'hi' } });
    expect(await store().getUser('u1')).toMatchObject({ pendingSeq: 2, lastSeq: 2 });
    expect((await store().readTranscript('u1', 0, 10)).map((e) => e.seq)).toStrictEqual([1, 2]);

    const again = await store().storePending('u1', said('m1', 'hi'));
    expect(again).toMatchObject({ seq: 2, duplicate: true });
    expect((await store().getUser('u1'))?.lastSeq).toBe(2);
  });

  it("when a message is stored pending, then the user's version moves in the same write: a turn computed from a copy read before it is a conflict, and a resend moves nothing", async () => {
    await store().ensureUser({ userId: 'u1', channelId: 'c', now: 1 });
    await store().appendTranscript('u1', [bot('hello')]);
    const before = await store().getUser('u1');
    await store().storePending('u1', said('m1', 'hi'));
    const marked = await store().getUser('u1');
    expect(marked).toMatchObject({ pendingSeq: 2, lastSeq: 2 });
    expect(marked!.version).toBeGreaterThan(before!.version);

    // Another tab's copy from before the message: its turn knows neither the message nor the mark.
    const stale = await store().commitTurn({
      userId: 'u1',
      expectedVersion: before!.version,
      patch: { position: null },
      now: 7,
      botEntries: [bot('from an old copy')],
    });
    expect(stale.status).toBe('conflict');
    expect((await store().readTranscript('u1', 0, 10)).map((e) => e.message.text)).toStrictEqual(['hello', 'hi']);

    await store().storePending('u1', said('m1', 'hi'));
    expect((await store().getUser('u1'))?.version).toBe(marked!.version);
    const fresh = await store().commitTurn({
      userId: 'u1',
      expectedVersion: marked!.version,
      patch: {},
      now: 8,
      botEntries: [bot('You said: hi')],
      answersPending: 2,
    });
    expect(fresh.status).toBe('committed');
  });

  it('when a turn answers the pending message, then the mark is cleared with the state; other turns leave it', async () => {
    await store().ensureUser({ userId: 'u1', channelId: 'c', now: 1 });
    await store().storePending('u1', said('m1', 'hi'));
    const user = await store().getUser('u1');
    const other = await store().commitTurn({
      userId: 'u1',
      expectedVersion: user!.version,
      patch: {},
      now: 7,
      botEntries: [bot('a timer')],
    });
    expect(other.status === 'committed' && other.user.pendingSeq).toBe(1);
    const wrong = await store().commitTurn({
      userId: 'u1',
      expectedVersion: user!.version + 1,
      patch: {},
      now: 8,
      botEntries: [],
      answersPending: 9,
    });
    expect(wrong.status === 'committed' && wrong.user.pendingSeq).toBe(1);

    const answer = await store().commitTurn({
      userId: 'u1',
      expectedVersion: user!.version + 2,
      patch: {},
      now: 9,
      botEntries: [bot('You said: hi')],
      answersPending: 1,
    });
    expect(answer.status).toBe('committed');
    if (answer.status !== 'committed') return;
    expect(answer.user.pendingSeq).toBeUndefined();
    expect(await store().getUser('u1')).toStrictEqual(answer.user);
    expect((await store().readTranscript('u1', 0, 10)).map((e) => e.message.text)).toStrictEqual([
      'hi',
      'a timer',
      'You said: hi',
    ]);
  });

  it('when an update gives up on the pending message, then the mark is cleared', async () => {
    await store().ensureUser({ userId: 'u1', channelId: 'c', now: 1 });
    await store().storePending('u1', said('m1', 'hi'));
    const user = await store().getUser('u1');
    const updated = await store().updateUser('u1', user!.version, { pendingSeq: null }, 9);
    expect(updated?.pendingSeq).toBeUndefined();
    expect((await store().getUser('u1'))?.pendingSeq).toBeUndefined();
  });
}
