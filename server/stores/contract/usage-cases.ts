import { expect, it } from 'vitest';
import type { UsageCounters } from '../../ports/usage-counters.ts';

const key = (userId: string, day = '2026-06-01', counter = 'chatCompletion:tokens') => ({ counter, userId, day });

export function usageCases(usage: () => UsageCounters): void {
  it('when amounts are added, then each counter answers its running total and others stay apart', async () => {
    expect(await usage().readUsage(key('u-1'))).toBe(0);
    expect(await usage().addUsage(key('u-1'), 120)).toBe(120);
    expect(await usage().addUsage(key('u-1'), 30)).toBe(150);
    expect(await usage().addUsage(key('u-2'), 7)).toBe(7);
    expect(await usage().addUsage(key('u-1', '2026-06-01', 'other:calls'), 1)).toBe(1);
    expect(await usage().readUsage(key('u-1'))).toBe(150);
    expect(await usage().addUsage(key('u-1'), 0)).toBe(150);
  });

  it('when a new day is counted, then the earlier days of that user and counter are gone, and other users keep theirs', async () => {
    await usage().addUsage(key('u-1', '2026-06-01'), 500);
    await usage().addUsage(key('u-2', '2026-06-01'), 40);
    expect(await usage().addUsage(key('u-1', '2026-06-02'), 10)).toBe(10);
    expect(await usage().readUsage(key('u-1', '2026-06-01'))).toBe(0);
    expect(await usage().readUsage(key('u-2', '2026-06-01'))).toBe(40);
  });

  it("when a user is erased, then their counters go and nobody else's", async () => {
    await usage().addUsage(key('gone'), 5);
    await usage().addUsage(key('gone', '2026-06-01', 'other:calls'), 5);
    await usage().addUsage(key('kept'), 5);
    expect(await usage().eraseUsage('gone')).toBe(2);
    expect(await usage().readUsage(key('gone'))).toBe(0);
    expect(await usage().readUsage(key('kept'))).toBe(5);
    expect(await usage().eraseUsage('gone')).toBe(0);
  });

  it('when many add to one counter at once, then no addition is lost', async () => {
    await Promise.all(Array.from({ length: 12 }, () => usage().addUsage(key('busy'), 5)));
    expect(await usage().readUsage(key('busy'))).toBe(60);
  });
}
