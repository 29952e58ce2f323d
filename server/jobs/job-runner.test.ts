import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../ports/clock.ts';
import type { Logger } from '../ports/logger.ts';
import type { Job, Store } from '../ports/store.ts';
import { openSqliteStore } from '../stores/sqlite/sqlite-store.ts';
import { eventually } from '../test/start-test-server.ts';
import { JobRunner } from './job-runner.ts';

const quiet: Logger = { info() {}, warn() {}, error() {} };
let dir: string;
let store: Store;
const runners: JobRunner[] = [];

function runner(options: Partial<ConstructorParameters<typeof JobRunner>[0]> = {}): JobRunner {
  const made = new JobRunner({ store, clock: systemClock, logger: quiet, pollMs: 20, backoffMs: () => 10, ...options });
  runners.push(made);
  return made;
}

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'jobs-'));
  store = openSqliteStore({ file: path.join(dir, 'store.db') });
});
afterEach(async () => {
  await Promise.all(runners.splice(0).map((r) => r.stop()));
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

describe('job runner', () => {
  it('when a due job is scheduled, then its handler runs once with the payload and the job is done', async () => {
    const seen: Job[] = [];
    const jobs = runner().register('greet', async (job) => void seen.push(job));
    jobs.start();
    await jobs.schedule({ id: 'j1', kind: 'greet', payload: { name: 'Ada' }, runAt: Date.now() });
    await eventually('the job to finish', async () => (await store.getJob('j1'))?.status === 'done' || undefined);
    expect(seen.map((j) => j.payload)).toEqual([{ name: 'Ada' }]);
  });

  it('when a handler keeps failing, then it is retried up to maxAttempts and then dead with the last error', async () => {
    let calls = 0;
    const jobs = runner().register('flaky', async () => {
      calls += 1;
      throw new Error(`boom ${calls}`);
    });
    jobs.start();
    await jobs.schedule({ id: 'j2', kind: 'flaky', payload: {}, runAt: Date.now(), maxAttempts: 3 });
    const dead = await eventually('the job to die', async () => {
      const job = await store.getJob('j2');
      return job?.status === 'dead' ? job : undefined;
    });
    expect(calls).toBe(3);
    expect(dead).toMatchObject({ attempts: 3, lastError: 'boom 3' });
  });

  it('when a worker dies holding a job, then another worker takes it over after the lease and finishes it', async () => {
    let release!: () => void;
    const stuck = new Promise<void>((resolve) => (release = resolve));
    let claimed!: () => void;
    const firstClaim = new Promise<void>((resolve) => (claimed = resolve));
    const first = runner({ leaseMs: 200 }).register('slow', () => {
      // The first worker "crashes" as it starts the job: it stops claiming and its handler never returns.
      void first.stop();
      claimed();
      return stuck;
    });
    first.start();
    await first.schedule({ id: 'j3', kind: 'slow', payload: {}, runAt: Date.now(), maxAttempts: 5 });
    await firstClaim;
    expect((await store.getJob('j3'))?.leaseOwner).toBe(first.workerId);
    const done: string[] = [];
    // A long lease for the second worker: its attempt must not expire on a loaded machine before it completes.
    const second = runner({ leaseMs: 10_000 }).register('slow', async (job) => void done.push(job.id));
    second.start();
    await eventually('the takeover', async () => (await store.getJob('j3'))?.status === 'done' || undefined);
    expect(done).toEqual(['j3']);
    // The stale worker wakes up late: its completion no longer counts.
    release();
    await first.stop();
    expect(await store.getJob('j3')).toMatchObject({ status: 'done', attempts: 2 });
  });

  it('when a handler defers its job, then it runs again after the delay without using up an attempt', async () => {
    const runs: number[] = [];
    const jobs = runner().register('waits', async (job) => {
      runs.push(job.attempts);
      // Not ready twice (waiting for another job), then done: a single allowed attempt is enough.
      return runs.length <= 2 ? { deferUntil: Date.now() + 30 } : undefined;
    });
    jobs.start();
    // Written claimed at once (direct hand-off) and claimed from the store after each deferral: both paths defer.
    await jobs.schedule({ id: 'j4', kind: 'waits', payload: {}, runAt: Date.now(), maxAttempts: 1 });
    await eventually('the job to finish', async () => (await store.getJob('j4'))?.status === 'done' || undefined);
    expect(runs).toEqual([1, 1, 1]);
    expect(await store.getJob('j4')).toMatchObject({ status: 'done', attempts: 1, lastError: null });
  });

  it('when a job is due later, then it does not run before its time', async () => {
    const ran: string[] = [];
    const jobs = runner().register('later', async (job) => void ran.push(job.id));
    jobs.start();
    await jobs.schedule({ id: 'soon', kind: 'later', payload: {}, runAt: Date.now() + 150 });
    await jobs.schedule({ id: 'far', kind: 'later', payload: {}, runAt: Date.now() + 60_000 });
    await eventually('the soon job', () => ran.includes('soon'));
    expect(ran).toEqual(['soon']);
    expect((await store.getJob('far'))?.status).toBe('pending');
  });

  it('when due jobs arrive faster than they run, then they start in the order they were scheduled', async () => {
    const started: string[] = [];
    const jobs = runner({ maxInFlight: 4 }).register('ordered', async (job) => {
      started.push(job.id);
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 3));
    });
    jobs.start();
    // Some are started at once (a free slot, nothing waiting), the rest wait in the store
    // behind them; none may overtake one scheduled before it.
    const ids = Array.from({ length: 300 }, (_, i) => `o${String(i).padStart(3, '0')}`);
    const writes: Promise<void>[] = [];
    for (const id of ids) {
      writes.push(jobs.schedule({ id, kind: 'ordered', payload: {}, runAt: Date.now() }));
      if (Math.random() < 0.2) await new Promise((resolve) => setTimeout(resolve, Math.random() * 4));
    }
    await Promise.all(writes);
    await eventually('every job to start', () => started.length === ids.length, 20_000);
    expect(started).toEqual(ids);
  });

  it('when a turn commits a due job leased on commit, then the runner starts it as the commit lands, without a claim', async () => {
    const ran: Job[] = [];
    // No poll comes in this test's time: only the commit's hand-over can start the job.
    const jobs = runner({ pollMs: 60_000 }).register('send', async (job) => void ran.push(job));
    jobs.start();
    const user = await store.ensureUser({ userId: 'u1', channelId: 'telegram', now: Date.now() });
    // Leased once the runner's first look at the store found nothing waiting that the job could overtake.
    const job = await eventually('a lease', () => {
      const leased = jobs.leaseOnCommit({
        id: 's1',
        kind: 'send',
        payload: { seq: 1 },
        runAt: Date.now(),
        maxAttempts: 3,
      });
      return leased.lease?.owner === jobs.workerId ? leased : undefined;
    });
    const outcome = await store.commitTurn({
      userId: user.userId,
      expectedVersion: user.version,
      patch: {},
      now: Date.now(),
      botEntries: [],
      jobs: [job],
    });
    expect(outcome.status).toBe('committed');
    jobs.committed([job]);
    await eventually('the job to finish', async () => (await store.getJob('s1'))?.status === 'done' || undefined);
    expect(ran.map((j) => [j.id, j.attempts, j.payload])).toEqual([['s1', 1, { seq: 1 }]]);
  });

  it('when a job leased on commit lands after its runner stopped, then it is put back at once for any worker', async () => {
    const first = runner({ pollMs: 60_000 }).register('send', async () => undefined);
    first.start();
    const job = await eventually('a lease', () => {
      const leased = first.leaseOnCommit({ id: 's2', kind: 'send', payload: {}, runAt: Date.now(), maxAttempts: 3 });
      return leased.lease ? leased : undefined;
    });
    await first.stop();
    await store.scheduleJob(job);
    first.committed([job]);
    await eventually(
      'the job to be put back',
      async () => (await store.getJob('s2'))?.status === 'pending' || undefined,
    );
    expect(await store.getJob('s2')).toMatchObject({ attempts: 0, leaseOwner: null });
    const ran: string[] = [];
    const second = runner().register('send', async (j) => void ran.push(j.id));
    second.start();
    await eventually('the job to finish', async () => (await store.getJob('s2'))?.status === 'done' || undefined);
    expect(ran).toEqual(['s2']);
  });

  it('when more jobs are leased on commit in one turn of the event loop than there are slots, then only as many as slots are leased', async () => {
    const jobs = runner({ pollMs: 60_000, maxInFlight: 3 }).register('turn', async () => undefined);
    jobs.start();
    // The runner's first look at the store found nothing waiting: leases may be given.
    await eventually('a lease', () => {
      const probe = jobs.leaseOnCommit({ id: 'probe', kind: 'turn', payload: {}, runAt: Date.now() });
      return probe.lease ? true : undefined;
    });
    await new Promise((resolve) => setImmediate(resolve));
    const burst = Array.from({ length: 10 }, (_, i) =>
      jobs.leaseOnCommit({ id: `b${i}`, kind: 'turn', payload: {}, runAt: Date.now() }),
    );
    expect(burst.filter((job) => job.lease).length).toBe(3);
    // A turn later, the slots those leases stood for are the runner's to count again.
    await new Promise((resolve) => setImmediate(resolve));
    expect(jobs.leaseOnCommit({ id: 'later', kind: 'turn', payload: {}, runAt: Date.now() }).lease).toBeDefined();
  });

  it('when the jobs waiting to start would take more than a share of a turn of the event loop, then what came in meanwhile goes before the rest', async () => {
    const order: string[] = [];
    const jobs = runner({ sliceMs: 2 }).register('heavy', async (job) => {
      // Work arriving while the first job runs (a request would be read in the poll phase between turns).
      if (order.length === 0) setImmediate(() => order.push('request'));
      order.push(job.id);
      busyFor(3);
    });
    // Stored before the runner starts: its first claim takes all four, and all four wait to start at once.
    for (let i = 0; i < 4; i++) await jobs.schedule({ id: `h${i}`, kind: 'heavy', payload: {}, runAt: Date.now() });
    jobs.start();
    await eventually('every job to run', () => order.length === 5 || undefined);
    expect(order.indexOf('request')).toBe(1);
  });

  it('while a request the jobs give way to is under way, then they take a smaller share of each turn, and all still run', async () => {
    const order: string[] = [];
    const jobs = runner({ sliceMs: 1_000, urgentSliceMs: 2 }).register('heavy', async (job) => {
      if (order.length === 0) setImmediate(() => order.push('request'));
      order.push(job.id);
      busyFor(3);
    });
    let answered!: () => void;
    jobs.giveWay(new Promise<void>((resolve) => (answered = resolve)));
    for (let i = 0; i < 4; i++) await jobs.schedule({ id: `u${i}`, kind: 'heavy', payload: {}, runAt: Date.now() });
    jobs.start();
    // The request is still under way: the queue drains all the same, a job or so a turn.
    await eventually('every job to run', () => order.length === 5 || undefined);
    expect(order.indexOf('request')).toBe(1);
    answered();
  });
});

/** Keeps the event loop busy, as a job's synchronous work does (a turn's SQLite reads and writes). */
function busyFor(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}
