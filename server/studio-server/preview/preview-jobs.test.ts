import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { NewJob } from '../../ports/store.ts';
import { PreviewJobs } from './preview-jobs.ts';

const DAY = 86_400_000;
const timer = (timerId: string, runAt: number): NewJob => ({
  id: `timer:preview-1:${timerId}`,
  kind: 'timer',
  payload: { userId: 'preview-1', timerId },
  runAt,
  maxAttempts: 5,
});

/** One preview's jobs with the process's timers faked, so days pass at once. */
describe('the jobs of one preview', () => {
  let fired: Array<{ timerId: string; delayMs: number }>;
  let calls: NewJob[];
  let jobs: PreviewJobs;

  beforeEach(() => {
    vi.useFakeTimers({ now: Date.UTC(2026, 0, 5) });
    fired = [];
    calls = [];
    jobs = new PreviewJobs({
      now: () => Date.now(),
      timer: async (timerId, delayMs) => void fired.push({ timerId, delayMs }),
      integration: async (job) => void calls.push(job),
      changed: () => undefined,
    });
  });
  afterEach(() => {
    jobs.close();
    vi.useRealTimers();
  });

  it('when a wait longer than a timer can be set for (30 days) is pending, then it runs when due and not before, with the wait the step asked for', async () => {
    const at = Date.now();
    jobs.committed([timer('home.month', at + 30 * DAY)], [], at);
    await vi.advanceTimersByTimeAsync(25 * DAY);
    expect(fired).toEqual([]);
    expect(jobs.list()).toEqual([{ id: 'home.month', dueAt: at + 30 * DAY }]);
    await vi.advanceTimersByTimeAsync(5 * DAY);
    expect(fired).toEqual([{ timerId: 'home.month', delayMs: 30 * DAY }]);
    expect(jobs.list()).toEqual([]);
  });

  it('when a later turn stops the wait, or sets it again, then only the last word counts', async () => {
    const at = Date.now();
    jobs.committed([timer('home.a', at + DAY), timer('home.b', at + DAY)], [], at);
    jobs.committed([], ['timer:preview-1:home.a'], at + 1000);
    jobs.committed([timer('home.b', at + 2 * DAY)], [], at + 1000);
    await vi.advanceTimersByTimeAsync(DAY + 1000);
    expect(fired).toEqual([]);
    expect(jobs.list().map((t) => t.id)).toEqual(['home.b']);
    await vi.advanceTimersByTimeAsync(DAY);
    expect(fired.map((f) => f.timerId)).toEqual(['home.b']);
  });

  it('when the author skips a wait, then it runs at once and only once; a wait already run or unknown is refused', async () => {
    const at = Date.now();
    jobs.committed([timer('home.pause', at + DAY)], [], at);
    expect(jobs.runNow('home.pause')).toBe(true);
    expect(fired).toEqual([{ timerId: 'home.pause', delayMs: DAY }]);
    expect(jobs.runNow('home.pause')).toBe(false);
    expect(jobs.runNow('nope.nope')).toBe(false);
    await vi.advanceTimersByTimeAsync(2 * DAY);
    expect(fired).toHaveLength(1);
  });

  it('when the preview ends, then no pending wait runs and no new job starts', async () => {
    const at = Date.now();
    jobs.committed([timer('home.pause', at + 1000)], [], at);
    jobs.close();
    jobs.committed(
      [timer('home.again', at + 1000), { id: 'integration:1', kind: 'integration', payload: {}, runAt: at }],
      [],
      at,
    );
    await vi.advanceTimersByTimeAsync(5000);
    expect(fired).toEqual([]);
    expect(calls).toEqual([]);
    expect(jobs.list()).toEqual([]);
  });

  it('when a turn starts an asynchronous call, then it is run at once beside the conversation', () => {
    const at = Date.now();
    const call: NewJob = { id: 'integration:1', kind: 'integration', payload: { step: {} }, runAt: at };
    jobs.committed([call], [], at);
    expect(calls).toEqual([call]);
  });
});
