import { expect, it } from 'vitest';
import type { Job, NewJob, Store } from '../../ports/store.ts';

const job = (id: string, runAt = 100, extra: Partial<NewJob> = {}): NewJob => ({
  id,
  kind: 'timer',
  payload: { id },
  runAt,
  ...extra,
});
const ids = (jobs: readonly Job[]) => jobs.map((j) => j.id).sort();

export function jobCases(store: () => Store): void {
  it('when a job is scheduled, then it is pending with no attempts and maxAttempts 1 by default', async () => {
    await store().scheduleJob(job('j1', 100));
    expect(await store().getJob('j1')).toStrictEqual({
      id: 'j1',
      kind: 'timer',
      payload: { id: 'j1' },
      runAt: 100,
      status: 'pending',
      attempts: 0,
      maxAttempts: 1,
      group: null,
      leaseOwner: null,
      leaseUntil: null,
      lastError: null,
    });
    expect(await store().getJob('nope')).toBeNull();
  });

  it('when jobs are claimed, then only due ones of the asked kinds come, at most limit, leased to the worker', async () => {
    await store().scheduleJob(job('due-1', 100));
    await store().scheduleJob(job('due-2', 150));
    await store().scheduleJob(job('exactly-now', 200));
    await store().scheduleJob(job('future', 201));
    await store().scheduleJob({ ...job('mail', 100), kind: 'mail' });
    const claimed = await store().claimJobs({ workerId: 'w1', now: 200, leaseMs: 50, limit: 2, kinds: ['timer'] });
    expect(claimed).toHaveLength(2);
    expect(claimed[0]).toMatchObject({ status: 'running', attempts: 1, leaseOwner: 'w1', leaseUntil: 250 });
    const more = await store().claimJobs({ workerId: 'w1', now: 200, leaseMs: 50, limit: 10, kinds: ['timer'] });
    expect(ids([...claimed, ...more])).toStrictEqual(['due-1', 'due-2', 'exactly-now']);
    expect(await store().getJob('due-1')).toMatchObject({ status: 'running', leaseOwner: 'w1', leaseUntil: 250 });
    expect(ids(await store().claimJobs({ workerId: 'w1', now: 200, leaseMs: 50, limit: 10 }))).toStrictEqual(['mail']);
    expect(await store().claimJobs({ workerId: 'w1', now: 200, leaseMs: 50, limit: 10, kinds: [] })).toStrictEqual([]);
  });

  it('when two workers claim the same jobs concurrently, then each job is won by exactly one', async () => {
    for (let i = 0; i < 10; i += 1) await store().scheduleJob(job(`j${i}`, 100));
    const claims = await Promise.all([
      store().claimJobs({ workerId: 'w1', now: 100, leaseMs: 1000, limit: 10 }),
      store().claimJobs({ workerId: 'w2', now: 100, leaseMs: 1000, limit: 10 }),
      store().claimJobs({ workerId: 'w3', now: 100, leaseMs: 1000, limit: 1 }),
    ]);
    const all = claims.flat();
    expect(ids(all)).toStrictEqual(Array.from({ length: 10 }, (_, i) => `j${i}`).sort());
    for (const claimed of all) expect((await store().getJob(claimed.id))?.leaseOwner).toBe(claimed.leaseOwner);
  });

  it('when two workers race for a single job, then exactly one wins', async () => {
    for (let round = 0; round < 5; round += 1) {
      await store().scheduleJob(job(`solo${round}`, 100));
      const [a, b] = await Promise.all([
        store().claimJobs({ workerId: 'w1', now: 100, leaseMs: 1000, limit: 1 }),
        store().claimJobs({ workerId: 'w2', now: 100, leaseMs: 1000, limit: 1 }),
      ]);
      expect((a?.length ?? 0) + (b?.length ?? 0)).toBe(1);
    }
  });

  it('when a lease expires, then another worker reclaims the job and the first one has lost it', async () => {
    await store().scheduleJob(job('j1', 100, { maxAttempts: 3 }));
    await store().claimJobs({ workerId: 'w1', now: 100, leaseMs: 50, limit: 1 });
    expect(await store().claimJobs({ workerId: 'w2', now: 149, leaseMs: 50, limit: 1 })).toStrictEqual([]);
    const reclaimed = await store().claimJobs({ workerId: 'w2', now: 150, leaseMs: 50, limit: 1 });
    expect(reclaimed).toMatchObject([{ id: 'j1', status: 'running', attempts: 2, leaseOwner: 'w2', leaseUntil: 200 }]);
    expect(await store().completeJob('j1', 'w1')).toBe(false);
    expect(await store().failJob('j1', 'w1', 'late', 500)).toBe(false);
    expect(await store().completeJob('j1', 'w2')).toBe(true);
    expect(await store().getJob('j1')).toMatchObject({ status: 'done', leaseOwner: null, leaseUntil: null });
    expect(await store().claimJobs({ workerId: 'w3', now: 10_000, leaseMs: 50, limit: 5 })).toStrictEqual([]);
    expect(await store().completeJob('j1', 'w2')).toBe(false);
  });

  it('when an attempt fails, then the job retries at retryAt until maxAttempts, then it is dead', async () => {
    await store().scheduleJob(job('j1', 100, { maxAttempts: 2 }));
    await store().claimJobs({ workerId: 'w1', now: 100, leaseMs: 50, limit: 1 });
    expect(await store().failJob('j1', 'w1', 'boom 1', 300)).toBe(true);
    expect(await store().getJob('j1')).toMatchObject({
      status: 'pending',
      runAt: 300,
      attempts: 1,
      lastError: 'boom 1',
      leaseOwner: null,
    });
    expect(await store().claimJobs({ workerId: 'w1', now: 299, leaseMs: 50, limit: 1 })).toStrictEqual([]);
    expect(await store().claimJobs({ workerId: 'w2', now: 300, leaseMs: 50, limit: 1 })).toMatchObject([
      { attempts: 2 },
    ]);
    expect(await store().failJob('j1', 'w1', 'not mine', 400)).toBe(false);
    expect(await store().failJob('j1', 'w2', 'boom 2', 400)).toBe(true);
    expect(await store().getJob('j1')).toMatchObject({
      status: 'dead',
      attempts: 2,
      lastError: 'boom 2',
      leaseOwner: null,
    });
    expect(await store().claimJobs({ workerId: 'w1', now: 10_000, leaseMs: 50, limit: 1 })).toStrictEqual([]);
    expect(await store().failJob('j1', 'w2', 'again', 500)).toBe(false);
  });

  it('when an attempt fails with no retry time, then the job is dead at once though attempts remain', async () => {
    await store().scheduleJob(job('j1', 100, { maxAttempts: 12 }));
    await store().claimJobs({ workerId: 'w1', now: 100, leaseMs: 50, limit: 1 });
    expect(await store().failJob('j1', 'w2', 'not mine', null)).toBe(false);
    expect(await store().failJob('j1', 'w1', 'refused for good', null)).toBe(true);
    expect(await store().getJob('j1')).toMatchObject({
      status: 'dead',
      attempts: 1,
      lastError: 'refused for good',
      leaseOwner: null,
    });
    expect(await store().claimJobs({ workerId: 'w1', now: 10_000, leaseMs: 50, limit: 1 })).toStrictEqual([]);
  });

  it('when a job with the same id is scheduled again, then a pending one is replaced and a running one kept', async () => {
    await store().scheduleJob(job('j1', 100));
    await store().scheduleJob({ id: 'j1', kind: 'other', payload: { v: 2 }, runAt: 500, maxAttempts: 4 });
    expect(await store().getJob('j1')).toMatchObject({
      kind: 'other',
      payload: { v: 2 },
      runAt: 500,
      maxAttempts: 4,
      status: 'pending',
    });
    expect(await store().claimJobs({ workerId: 'w1', now: 499, leaseMs: 50, limit: 5 })).toStrictEqual([]);
    await store().claimJobs({ workerId: 'w1', now: 500, leaseMs: 50, limit: 5 });
    expect(await store().scheduleJob(job('j1', 900))).toBe(false);
    expect(await store().getJob('j1')).toMatchObject({
      kind: 'other',
      runAt: 500,
      status: 'running',
      leaseOwner: 'w1',
    });
    expect(await store().completeJob('j1', 'w1')).toBe(true);
    expect(await store().scheduleJob(job('j1', 900))).toBe(true);
    expect(await store().getJob('j1')).toMatchObject({ kind: 'timer', runAt: 900, status: 'pending', attempts: 0 });
  });

  it('when a job is scheduled already leased, then it runs for its owner only, until the lease ends', async () => {
    expect(
      await store().scheduleJob({ ...job('taken', 100), maxAttempts: 3, lease: { owner: 'w1', until: 1_000 } }),
    ).toBe(true);
    expect(await store().getJob('taken')).toMatchObject({
      status: 'running',
      attempts: 1,
      maxAttempts: 3,
      leaseOwner: 'w1',
      leaseUntil: 1_000,
    });
    expect(await store().claimJobs({ workerId: 'w2', now: 999, leaseMs: 50, limit: 5 })).toStrictEqual([]);
    // Its owner died: after the lease another worker takes it over as the second attempt.
    expect(await store().claimJobs({ workerId: 'w2', now: 1_000, leaseMs: 50, limit: 5 })).toMatchObject([
      { id: 'taken', attempts: 2, leaseOwner: 'w2' },
    ]);
    expect(await store().completeJob('taken', 'w1')).toBe(false);
    expect(await store().completeJob('taken', 'w2')).toBe(true);
    // A leased write never replaces a job that is running.
    await store().scheduleJob(job('busy', 10));
    await store().claimJobs({ workerId: 'w3', now: 10, leaseMs: 10_000, limit: 5 });
    expect(await store().scheduleJob({ ...job('busy', 10), lease: { owner: 'w4', until: 99 } })).toBe(false);
    expect(await store().getJob('busy')).toMatchObject({ leaseOwner: 'w3' });
  });

  it('when a job is cancelled, then it is never claimed and a worker holding it loses it', async () => {
    await store().scheduleJob(job('pending', 100));
    await store().scheduleJob(job('running', 50));
    expect(await store().claimJobs({ workerId: 'w1', now: 50, leaseMs: 10_000, limit: 5 })).toMatchObject([
      { id: 'running' },
    ]);
    expect(await store().cancelJob('pending')).toBe(true);
    expect(await store().getJob('pending')).toMatchObject({ status: 'cancelled' });
    expect(await store().cancelJob('pending')).toBe(false);
    expect(await store().cancelJob('unknown')).toBe(false);
    expect(await store().cancelJob('running')).toBe(true);
    expect(await store().completeJob('running', 'w1')).toBe(false);
    expect(await store().getJob('running')).toMatchObject({ status: 'cancelled' });
    expect(await store().claimJobs({ workerId: 'w3', now: 20_000, leaseMs: 50, limit: 5 })).toStrictEqual([]);
  });

  it('when grouped jobs are asked for, then the first unfinished one strictly between the two ids comes, by id', async () => {
    const grouped = (id: string, group = 'g1') => job(id, 100, { group, maxAttempts: 3 });
    for (const id of ['a3', 'a1', 'a5', 'a2', 'a4']) await store().scheduleJob(grouped(id));
    await store().scheduleJob(grouped('a0', 'other'));
    await store().scheduleJob(job('a00'));
    expect(await store().getJob('a1')).toMatchObject({ group: 'g1' });
    expect(await store().firstUnfinishedJob('g1', '', 'a5')).toMatchObject({
      id: 'a1',
      group: 'g1',
      status: 'pending',
    });
    expect(await store().firstUnfinishedJob('g1', 'a1', 'a5')).toMatchObject({ id: 'a2' });
    expect(await store().firstUnfinishedJob('g1', 'a4', 'a5')).toBeNull();
    expect(await store().firstUnfinishedJob('g1', '', 'a1')).toBeNull();
    expect(await store().firstUnfinishedJob('nobody', '', 'z')).toBeNull();
    // Through: the job with the second id counts too, so a job asking with its own id finds itself when nothing is before it.
    const own = await store().firstUnfinishedJob('g1', '', 'a1', true);
    // Where the job stands, not its payload: the asker holds it, and it is not read back.
    expect(own).toEqual({ id: 'a1', group: 'g1', status: 'pending', runAt: 100, leaseOwner: null, leaseUntil: null });
    expect(await store().firstUnfinishedJob('g1', 'a4', 'a5', true)).toMatchObject({ id: 'a5' });
    expect(await store().firstUnfinishedJob('g1', 'a5', 'a6', true)).toBeNull();
    // A running job still counts; a done, a dead and a cancelled one never do.
    const claimed = await store().claimJobs({ workerId: 'w1', now: 100, leaseMs: 1000, limit: 3, kinds: ['timer'] });
    expect(claimed.map((j) => j.id)).toStrictEqual(['a0', 'a00', 'a1']);
    expect(await store().firstUnfinishedJob('g1', '', 'a5')).toMatchObject({
      id: 'a1',
      status: 'running',
      leaseOwner: 'w1',
    });
    await store().completeJob('a1', 'w1');
    await store().scheduleJob({ ...grouped('a2'), maxAttempts: 1 });
    await store().claimJobs({ workerId: 'w1', now: 100, leaseMs: 1000, limit: 1 });
    await store().failJob('a2', 'w1', 'for good', 200);
    await store().cancelJob('a3');
    expect(await store().getJob('a2')).toMatchObject({ status: 'dead' });
    expect(await store().firstUnfinishedJob('g1', '', 'a5')).toMatchObject({ id: 'a4', status: 'pending' });
  });

  it('when a claimed job is deferred, then it is pending at the new time with the attempt given back, for its lease holder only', async () => {
    await store().scheduleJob(job('j1', 100, { group: 'g', maxAttempts: 2 }));
    await store().claimJobs({ workerId: 'w1', now: 100, leaseMs: 50, limit: 1 });
    expect(await store().deferJob('j1', 'w2', 400)).toBe(false);
    expect(await store().deferJob('j1', 'w1', 400)).toBe(true);
    expect(await store().getJob('j1')).toMatchObject({
      status: 'pending',
      runAt: 400,
      attempts: 0,
      leaseOwner: null,
      leaseUntil: null,
      group: 'g',
    });
    expect(await store().deferJob('j1', 'w1', 500)).toBe(false);
    expect(await store().claimJobs({ workerId: 'w1', now: 399, leaseMs: 50, limit: 1 })).toStrictEqual([]);
    // Deferred any number of times, the job still has all its attempts: two failures make it dead, not one.
    for (let round = 0; round < 3; round += 1) {
      expect(await store().claimJobs({ workerId: 'w1', now: 400 + round, leaseMs: 50, limit: 1 })).toMatchObject([
        { id: 'j1', attempts: 1 },
      ]);
      expect(await store().deferJob('j1', 'w1', 401 + round)).toBe(true);
    }
    await store().claimJobs({ workerId: 'w1', now: 500, leaseMs: 50, limit: 1 });
    await store().failJob('j1', 'w1', 'once', 600);
    expect(await store().getJob('j1')).toMatchObject({ status: 'pending', attempts: 1 });
    await store().claimJobs({ workerId: 'w1', now: 600, leaseMs: 50, limit: 1 });
    await store().failJob('j1', 'w1', 'twice', 700);
    expect(await store().getJob('j1')).toMatchObject({ status: 'dead', attempts: 2 });
    expect(await store().deferJob('j1', 'w1', 800)).toBe(false);
  });

  it('when a job scheduled already leased is deferred, then it is pending with no attempt used', async () => {
    await store().scheduleJob({ ...job('taken', 100), group: 'g', lease: { owner: 'w1', until: 1_000 } });
    expect(await store().deferJob('taken', 'w1', 300)).toBe(true);
    expect(await store().getJob('taken')).toMatchObject({ status: 'pending', runAt: 300, attempts: 0, group: 'g' });
  });
}
