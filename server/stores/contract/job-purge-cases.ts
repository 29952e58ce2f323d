import { expect, it } from 'vitest';
import type { Job, Store } from '../../ports/store.ts';

/** Jobs run at 100 and 5_000; the purges below cut at 1_000: "old" is before it, "recent" after. */
const OLD = 100;
const RECENT = 5_000;
const CUT = 1_000;

/** Schedules a job (of a kind of its own, so a claim takes it alone) and brings it to `status` through the workers' side of the port. */
async function jobIn(store: Store, id: string, runAt: number, status: Job['status']): Promise<void> {
  await store.scheduleJob({ id, kind: id, payload: { id }, runAt });
  if (status === 'pending') return;
  if (status === 'cancelled') {
    expect(await store.cancelJob(id)).toBe(true);
    return;
  }
  const [claimed] = await store.claimJobs({ workerId: 'w1', now: runAt, leaseMs: 10, limit: 1, kinds: [id] });
  expect(claimed?.id).toBe(id);
  if (status === 'done') expect(await store.completeJob(id, 'w1')).toBe(true);
  if (status === 'dead') expect(await store.failJob(id, 'w1', 'gave up', null)).toBe(true);
}

const statusOf = async (store: Store, id: string) => (await store.getJob(id))?.status ?? 'gone';

export function jobPurgeCases(store: () => Store): void {
  it('when finished jobs are purged, then the old done, dead and cancelled ones go and recent and unfinished ones stay', async () => {
    for (const status of ['done', 'dead', 'cancelled'] as const) {
      await jobIn(store(), `old-${status}`, OLD, status);
      await jobIn(store(), `recent-${status}`, RECENT, status);
    }
    await jobIn(store(), 'old-pending', OLD, 'pending');
    // Its lease ran out long ago: a worker may take it over, the purge may not.
    await jobIn(store(), 'old-running', OLD, 'running');
    await store().scheduleJob({
      id: 'old-leased',
      kind: 'timer',
      payload: {},
      runAt: OLD,
      lease: { owner: 'w2', until: OLD + 10 },
    });

    expect(await store().purgeFinishedJobs(CUT, 100)).toBe(3);

    for (const status of ['done', 'dead', 'cancelled'] as const) {
      expect(await statusOf(store(), `old-${status}`)).toBe('gone');
      expect(await statusOf(store(), `recent-${status}`)).toBe(status);
    }
    expect(await statusOf(store(), 'old-pending')).toBe('pending');
    expect(await statusOf(store(), 'old-running')).toBe('running');
    expect(await statusOf(store(), 'old-leased')).toBe('running');
    expect(await store().purgeFinishedJobs(CUT, 100)).toBe(0);
  });

  it('when a finished job inside the window is asked for, then it is still there and is not claimed again', async () => {
    await jobIn(store(), 'turn:recent', RECENT, 'done');
    await store().purgeFinishedJobs(CUT, 100);
    // What a redelivered event's check reads: its job exists, so it is not scheduled a second time.
    expect(await store().getJob('turn:recent')).toMatchObject({ status: 'done', attempts: 1 });
    expect(await store().claimJobs({ workerId: 'w1', now: RECENT + 1_000, leaseMs: 10, limit: 10 })).toStrictEqual([]);
  });

  it('when an old finished job is scheduled again under its id, then the purge leaves the new one', async () => {
    await jobIn(store(), 'retention', OLD, 'done');
    await store().scheduleJob({ id: 'retention', kind: 'timer', payload: {}, runAt: OLD });
    expect(await store().purgeFinishedJobs(CUT, 100)).toBe(0);
    expect(await store().getJob('retention')).toMatchObject({ status: 'pending', runAt: OLD });
  });

  it('when more old finished jobs wait than the limit, then each purge removes at least the limit until none is left', async () => {
    for (let n = 0; n < 5; n++) await jobIn(store(), `old-${n}`, OLD, 'done');
    await jobIn(store(), 'recent', RECENT, 'done');
    let total = 0;
    for (let round = 0; round < 5; round++) {
      const removed = await store().purgeFinishedJobs(CUT, 2);
      total += removed;
      if (removed < 2) break;
    }
    expect(total).toBe(5);
    expect(await statusOf(store(), 'recent')).toBe('done');
  });
}
