import type { ErasureReport } from '../ports/personal-data.ts';
import type { AppDeps } from './deps.ts';

/**
 * The right to erasure: removes everything stored about one user. It waits its
 * turn behind the user's running turn, so a turn being computed cannot write the
 * user back after the erasure. The log line counts what went, without the id:
 * the log must not keep what was just erased.
 */
export async function eraseUser(deps: Pick<AppDeps, 'store' | 'turns' | 'logger' | 'clock' | 'events' | 'usage'>, userId: string): Promise<ErasureReport> {
  const { erased, counters } = await deps.turns.run(userId, async () => {
    const known = await deps.store.getUser(userId);
    const report = await deps.store.eraseUser(userId);
    const usage = (await deps.usage?.eraseUsage(userId)) ?? 0;
    // Subscribers' copy of the user's events goes too, and they hear of the erasure to do the same
    // (a job, after any of the user's events still being recorded).
    await deps.events?.emit({ userId, channelId: known?.channelId ?? 'unknown' }, known ? [{ kind: 'user.erased', data: {} }] : [], deps.clock.now(), { erase: true });
    return { erased: report, counters: usage };
  });
  const logRows = Object.values(erased.logs).reduce((sum, count) => sum + count, 0);
  deps.logger.info({ event: 'user_erased', found: erased.user === 1, transcript: erased.transcript, logs: logRows, jobs: erased.jobs, usageCounters: counters }, 'a user was erased');
  return erased;
}
