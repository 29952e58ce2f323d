import { afterEach, beforeEach, expect, it } from 'vitest';
import type { Logger } from '../ports/logger.ts';
import type { Job } from '../ports/store.ts';
import { storeParts } from '../start/open-store.ts';
import { openSqliteStore, type SqliteStore } from '../stores/sqlite/sqlite-store.ts';
import { FINISHED_JOBS_KEEP_MS } from './handlers/finished-jobs.ts';
import {
  SUBSCRIPTION_HOUSEKEEPING_JOB,
  subscriptionHousekeepingHandler,
} from './handlers/subscription-housekeeping.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NOW = Date.UTC(2026, 11, 2);
const quiet: Logger = { info() {}, warn() {}, error() {} };

let store: SqliteStore;
beforeEach(() => {
  store = openSqliteStore({ file: ':memory:' });
});
afterEach(async () => {
  await store.close();
});

/** A channel turn's job that ran and finished at `runAt`. */
async function finishedTurn(id: string, runAt: number): Promise<void> {
  await store.scheduleJob({ id, kind: id, payload: {}, runAt });
  await store.claimJobs({ workerId: 'w1', now: runAt, leaseMs: 1_000, limit: 1, kinds: [id] });
  await store.completeJob(id, 'w1');
}

it('when the hourly housekeeping runs, then jobs finished before the keep window are gone and the week the inbox remembers is kept', async () => {
  expect(FINISHED_JOBS_KEEP_MS).toBe(8 * DAY);
  await finishedTurn('turn:nine-days', NOW - 9 * DAY);
  await finishedTurn('turn:seven-days-and-an-hour', NOW - 7 * DAY - HOUR);
  await store.scheduleJob({ id: 'timer:overdue', kind: 'timer', payload: {}, runAt: NOW - 30 * DAY });

  const handler = subscriptionHousekeepingHandler({
    store,
    subscriptions: storeParts(store).events().subscriptions,
    clock: { now: () => NOW },
    logger: quiet,
    eventDays: 7,
  });
  const housekeeping: Job = {
    id: SUBSCRIPTION_HOUSEKEEPING_JOB,
    kind: SUBSCRIPTION_HOUSEKEEPING_JOB,
    payload: {},
    runAt: NOW,
    status: 'running',
    attempts: 1,
    maxAttempts: 5,
    group: null,
    leaseOwner: 'w1',
    leaseUntil: NOW + 30_000,
    lastError: null,
  };
  expect(await handler(housekeeping)).toStrictEqual({ deferUntil: NOW + HOUR });

  expect(await store.getJob('turn:nine-days')).toBeNull();
  expect(await store.getJob('turn:seven-days-and-an-hour')).toMatchObject({ status: 'done' });
  expect(await store.getJob('timer:overdue')).toMatchObject({ status: 'pending' });
});
