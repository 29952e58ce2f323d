import { expect, it } from 'vitest';
import type { NewTranscriptEntry, Store, TurnCommit } from '../../ports/store.ts';
import { collect } from './harness.ts';

const bot = (text: string, at = 5): NewTranscriptEntry => ({ from: 'bot', at, message: { type: 'text', text } });
const said = (clientId: string, text: string, at = 5): NewTranscriptEntry => ({
  from: 'user',
  clientId,
  at,
  message: { type: 'text', text },
});
const position = { dialogId: 'd', stepId: 's', awaiting: true, retries: 0 };

function turn(expectedVersion: number, extra: Partial<TurnCommit> = {}): TurnCommit {
  return {
    userId: 'u1',
    expectedVersion,
    patch: { position, variables: { n: expectedVersion }, lastMessageAt: 5 },
    now: 5,
    botEntries: [bot('answer')],
    ...extra,
  };
}

export function turnCases(store: () => Store): void {
  it('when a turn is committed, then the user entry, the bot entries, the snapshots and the state are all stored', async () => {
    await store().ensureUser({ userId: 'u1', channelId: 'c', userData: { email: 'a@b.c' }, now: 1 });
    const outcome = await store().commitTurn(
      turn(1, {
        userEntry: said('m1', 'hi'),
        snapshots: [{ userId: 'u1', timestamp: 5, data: { email: 'a@b.c' } }],
        botEntries: [bot('one'), bot('two')],
      }),
    );
    expect(outcome.status).toBe('committed');
    if (outcome.status !== 'committed') return;
    expect(outcome.entries.map((e) => [e.seq, e.from, e.clientId, e.message.text])).toStrictEqual([
      [1, 'user', 'm1', 'hi'],
      [2, 'bot', null, 'one'],
      [3, 'bot', null, 'two'],
    ]);
    const stored = await store().getUser('u1');
    expect(outcome.user).toStrictEqual(stored);
    expect(stored).toMatchObject({
      version: 2,
      lastSeq: 3,
      position,
      variables: { n: 1 },
      userData: { email: 'a@b.c' },
      lastMessageAt: 5,
      updatedAt: 5,
      createdAt: 1,
    });
    expect((await store().readTranscript('u1', 0, 10)).map((e) => e.message.text)).toStrictEqual(['hi', 'one', 'two']);
    expect((await collect(store().readLogs('userDataSnapshot', {}))).map((l) => l.data)).toStrictEqual([
      { email: 'a@b.c' },
    ]);
  });

  it('when the version moved since the turn read the user, then it is a conflict and nothing is stored', async () => {
    await store().ensureUser({ userId: 'u1', channelId: 'c', now: 1 });
    await store().updateUser('u1', 1, { variables: { other: true } }, 2);
    const outcome = await store().commitTurn(
      turn(1, { userEntry: said('m1', 'hi'), snapshots: [{ userId: 'u1', timestamp: 5, data: {} }] }),
    );
    expect(outcome).toStrictEqual({ status: 'conflict' });
    expect(await store().readTranscript('u1', 0, 10)).toStrictEqual([]);
    expect(await collect(store().readLogs('userDataSnapshot', {}))).toStrictEqual([]);
    expect(await store().getUser('u1')).toMatchObject({ version: 2, variables: { other: true }, lastSeq: 0 });
  });

  it('when the user does not exist, then it is a conflict', async () => {
    expect(await store().commitTurn(turn(1))).toStrictEqual({ status: 'conflict' });
  });

  it("when the user entry's clientId is already stored, then it is a duplicate with the stored entry and nothing else is stored", async () => {
    await store().ensureUser({ userId: 'u1', channelId: 'c', now: 1 });
    const first = await store().commitTurn(turn(1, { userEntry: said('m1', 'hi') }));
    expect(first.status).toBe('committed');
    const again = await store().commitTurn(turn(2, { userEntry: said('m1', 'hi (resent)', 9) }));
    expect(again).toStrictEqual({
      status: 'duplicate',
      entry: { userId: 'u1', seq: 1, from: 'user', clientId: 'm1', at: 5, message: { type: 'text', text: 'hi' } },
    });
    expect((await store().readTranscript('u1', 0, 10)).map((e) => e.seq)).toStrictEqual([1, 2]);
    expect(await store().getUser('u1')).toMatchObject({ version: 2, lastSeq: 2 });
  });

  it('when a turn carries jobs, then they are stored with it, and a conflicting or duplicate turn stores none', async () => {
    await store().ensureUser({ userId: 'u1', channelId: 'c', now: 1 });
    const job = (id: string) => ({ id, kind: 'hand-off', payload: { n: id }, runAt: 5, maxAttempts: 3, group: 'g:u1' });
    const committed = await store().commitTurn(turn(1, { userEntry: said('m1', 'hi'), jobs: [job('j1'), job('j2')] }));
    expect(committed.status).toBe('committed');
    expect(await store().getJob('j1')).toMatchObject({
      id: 'j1',
      kind: 'hand-off',
      payload: { n: 'j1' },
      status: 'pending',
      runAt: 5,
      maxAttempts: 3,
      group: 'g:u1',
    });
    expect(await store().getJob('j2')).toMatchObject({ status: 'pending' });
    expect(await store().commitTurn(turn(1, { jobs: [job('j3')] }))).toStrictEqual({ status: 'conflict' });
    expect((await store().commitTurn(turn(2, { userEntry: said('m1', 'again'), jobs: [job('j4')] }))).status).toBe(
      'duplicate',
    );
    expect(await store().getJob('j3')).toBeNull();
    expect(await store().getJob('j4')).toBeNull();
    const claimed = await store().claimJobs({ workerId: 'w', now: 10, leaseMs: 1000, limit: 10 });
    expect(claimed.map((j) => j.id).sort()).toStrictEqual(['j1', 'j2']);
  });

  it('when a turn carries an outbox (jobs to cancel, jobs to schedule, log rows), then all of it is stored with the turn, and none of a conflicting turn', async () => {
    await store().ensureUser({ userId: 'u1', channelId: 'c', now: 1 });
    await store().scheduleJob({ id: 'timer:u1:old', kind: 'timer', payload: {}, runAt: 50 });
    await store().scheduleJob({ id: 'timer:u1:kept', kind: 'timer', payload: {}, runAt: 50 });
    const nlp = {
      kind: 'nlpLog' as const,
      entry: { userId: 'u1', timestamp: 5, data: { text: 'hi', intent: 'greet' } },
    };
    const faq = {
      kind: 'fuzzyQuestionAnswerLog' as const,
      entry: { userId: 'u1', timestamp: 5, data: { question: 'hi?' } },
    };
    const timer = {
      id: 'timer:u1:new',
      kind: 'timer',
      payload: { userId: 'u1', timerId: 'new' },
      runAt: 60,
      maxAttempts: 5,
    };
    expect(
      await store().commitTurn(
        turn(7, { cancelJobs: ['timer:u1:kept'], jobs: [{ ...timer, id: 'timer:u1:lost' }], logs: [nlp] }),
      ),
    ).toStrictEqual({ status: 'conflict' });
    const committed = await store().commitTurn(
      turn(1, { userEntry: said('m1', 'hi'), cancelJobs: ['timer:u1:old'], jobs: [timer], logs: [nlp, faq] }),
    );
    expect(committed.status).toBe('committed');
    expect(await store().getJob('timer:u1:old')).toMatchObject({ status: 'cancelled' });
    expect(await store().getJob('timer:u1:kept')).toMatchObject({ status: 'pending' });
    expect(await store().getJob('timer:u1:new')).toMatchObject({
      status: 'pending',
      runAt: 60,
      maxAttempts: 5,
      payload: { userId: 'u1', timerId: 'new' },
    });
    expect(await store().getJob('timer:u1:lost')).toBeNull();
    expect((await collect(store().readLogs('nlpLog', {}))).map((l) => l.data)).toStrictEqual([
      { text: 'hi', intent: 'greet' },
    ]);
    expect((await collect(store().readLogs('fuzzyQuestionAnswerLog', {}))).map((l) => l.data)).toStrictEqual([
      { question: 'hi?' },
    ]);
    // The next turn finds nothing of the last one's outbox to do again.
    expect((await store().commitTurn(turn(2, { userEntry: said('m2', 'more') }))).status).toBe('committed');
    expect(await collect(store().readLogs('nlpLog', {}))).toHaveLength(1);
  });

  it('when a turn names the job that ran it, then that job is done with the turn, and not for a conflicting or duplicate turn', async () => {
    await store().ensureUser({ userId: 'u1', channelId: 'c', now: 1 });
    const running = (id: string) =>
      store().scheduleJob({ id, kind: 'channel_turn', payload: {}, runAt: 1, lease: { owner: 'w', until: 10_000 } });
    for (const id of ['e1', 'e2', 'e3']) await running(id);
    const finishing = (id: string) => ({ completeJobs: [{ id, workerId: 'w' }] });
    expect(await store().commitTurn(turn(7, { userEntry: said('m1', 'hi'), ...finishing('e1') }))).toStrictEqual({
      status: 'conflict',
    });
    expect(await store().getJob('e1')).toMatchObject({ status: 'running' });
    expect((await store().commitTurn(turn(1, { userEntry: said('m1', 'hi'), ...finishing('e1') }))).status).toBe(
      'committed',
    );
    expect(await store().getJob('e1')).toMatchObject({ status: 'done', leaseOwner: null });
    expect((await store().commitTurn(turn(2, { userEntry: said('m1', 'hi'), ...finishing('e2') }))).status).toBe(
      'duplicate',
    );
    expect(await store().getJob('e2')).toMatchObject({ status: 'running' });
    // Only its lease holder finishes it: a job another worker took over stays theirs.
    expect(
      (
        await store().commitTurn(
          turn(2, { userEntry: said('m2', 'more'), completeJobs: [{ id: 'e3', workerId: 'x' }] }),
        )
      ).status,
    ).toBe('committed');
    expect(await store().getJob('e3')).toMatchObject({ status: 'running', leaseOwner: 'w' });
  });

  it('when turns and plain appends alternate, then seqs stay gapless and a patch leaves omitted fields as they were', async () => {
    await store().ensureUser({ userId: 'u1', channelId: 'c', userData: { keep: 1 }, variables: { v: 1 }, now: 1 });
    await store().appendTranscript('u1', [bot('before')]);
    const outcome = await store().commitTurn({
      userId: 'u1',
      expectedVersion: 1,
      patch: { position },
      now: 7,
      botEntries: [],
    });
    expect(outcome.status === 'committed' && outcome.entries).toStrictEqual([]);
    await store().appendTranscript('u1', [bot('after')]);
    await store().commitTurn({
      userId: 'u1',
      expectedVersion: 2,
      patch: {},
      now: 8,
      userEntry: said('m2', 'x'),
      botEntries: [bot('y')],
    });
    expect((await store().readTranscript('u1', 0, 10)).map((e) => [e.seq, e.message.text])).toStrictEqual([
      [1, 'before'],
      [2, 'after'],
      [3, 'x'],
      [4, 'y'],
    ]);
    expect(await store().getUser('u1')).toMatchObject({
      version: 3,
      lastSeq: 4,
      position,
      userData: { keep: 1 },
      variables: { v: 1 },
      lastMessageAt: null,
    });
  });

  it('when two turns race on the same version, then exactly one commits and the other is a conflict (no lost update)', async () => {
    await store().ensureUser({ userId: 'u1', channelId: 'c', now: 1 });
    const outcomes = await Promise.all([
      store().commitTurn(turn(1, { userEntry: said('a', 'a'), patch: { variables: { who: 'a' } } })),
      store().commitTurn(turn(1, { userEntry: said('b', 'b'), patch: { variables: { who: 'b' } } })),
    ]);
    const committed = outcomes.filter((o) => o.status === 'committed');
    expect(committed).toHaveLength(1);
    expect(outcomes.filter((o) => o.status === 'conflict')).toHaveLength(1);
    const winner = committed[0]!.status === 'committed' ? committed[0]!.user.variables.who : undefined;
    expect(await store().getUser('u1')).toMatchObject({ version: 2, lastSeq: 2, variables: { who: winner } });
    expect((await store().readTranscript('u1', 0, 10)).map((e) => e.message.text)).toStrictEqual([winner, 'answer']);
  });

  it('when a turn carries a trigger mark, then the mark is stored with its state and later turns without one keep it', async () => {
    await store().ensureUser({ userId: 'u1', channelId: 'c', now: 1 });
    const marked = await store().commitTurn(turn(1, { patch: { position, lastTrigger: 'trigger:0002' } }));
    expect(marked.status === 'committed' && marked.user.lastTrigger).toBe('trigger:0002');
    expect(await store().getUser('u1')).toMatchObject({ version: 2, position, lastTrigger: 'trigger:0002' });
    await store().commitTurn(turn(2, { patch: { variables: { later: true } } }));
    expect(await store().getUser('u1')).toMatchObject({
      version: 3,
      lastTrigger: 'trigger:0002',
      variables: { later: true },
    });
    // A conflicting turn writes no mark either.
    expect(await store().commitTurn(turn(2, { patch: { lastTrigger: 'trigger:0003' } }))).toStrictEqual({
      status: 'conflict',
    });
    expect((await store().getUser('u1'))?.lastTrigger).toBe('trigger:0002');
    const updated = await store().updateUser('u1', 3, { lastTrigger: 'trigger:0004' }, 9);
    expect(updated?.lastTrigger).toBe('trigger:0004');
  });
}
