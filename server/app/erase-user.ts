import type { ErasureReport } from '../ports/personal-data.ts';
import type { AppDeps } from './deps.ts';

/**
 * The right to erasure: removes everything stored about one user. It waits its
 * turn behind the user's running turn, so a turn being computed cannot write the
 * user back after the erasure. The log line counts what went, without the id:
 * the log must not keep what was just erased.
 */
type ErasureDeps = Pick<AppDeps, 'store' | 'turns' | 'logger' | 'clock' | 'events' | 'usage' | 'identityLinks'> & {
  readonly delivery?: Pick<AppDeps['delivery'], 'erasing'>;
  readonly insights?: { eraseUser(userId: string): Promise<number> };
};

/**
 * The right to erasure of a person: every address linked with the user's (ports/identity-links.ts)
 * is erased as the user is, then the links themselves. The report adds up what went.
 */
export async function eraseUser(deps: ErasureDeps, userId: string): Promise<ErasureReport> {
  const person = await deps.identityLinks?.personOf(userId);
  const others = (person?.addresses ?? []).map((address) => address.userId).filter((id) => id !== userId);
  let report = await eraseAddress(deps, userId);
  for (const other of others) report = addReports(report, await eraseAddress(deps, other));
  // Last: should an erasure fail half-way, asking again still finds every address.
  await deps.identityLinks?.forget(userId);
  return report;
}

function addReports(a: ErasureReport, b: ErasureReport): ErasureReport {
  const logs = { ...a.logs };
  for (const [kind, count] of Object.entries(b.logs) as [keyof typeof logs, number][])
    logs[kind] = (logs[kind] ?? 0) + count;
  return { user: a.user + b.user, transcript: a.transcript + b.transcript, logs, jobs: a.jobs + b.jobs };
}

async function eraseAddress(deps: ErasureDeps, userId: string): Promise<ErasureReport> {
  const { erased, counters, events } = await deps.turns.run(userId, async () => {
    const known = await deps.store.getUser(userId);
    // A channel's send job for the user's last turn may be under way on this node: it stops, and what is kept of them goes.
    deps.delivery?.erasing?.(userId, true);
    const report = await deps.store.eraseUser(userId).finally(() => deps.delivery?.erasing?.(userId, false));
    // The insights' summaries of the user's conversations hold their words and data: they go too.
    await deps.insights?.eraseUser(userId);
    const usage = (await deps.usage?.eraseUsage(userId)) ?? 0;
    // Subscribers' copy of the user's events goes too, at once; those that asked hear of the erasure
    // to do the same (a job, which erases again after any of the user's events still being recorded).
    const events = (await deps.events?.forget(userId)) ?? 0;
    if (known)
      await deps.events?.emit(
        { userId, channelId: known.channelId },
        [{ kind: 'user.erased', data: {} }],
        deps.clock.now(),
        { erase: true },
      );
    return { erased: report, counters: usage, events };
  });
  const logRows = Object.values(erased.logs).reduce((sum, count) => sum + count, 0);
  deps.logger.info(
    {
      event: 'user_erased',
      found: erased.user === 1,
      transcript: erased.transcript,
      logs: logRows,
      jobs: erased.jobs,
      usageCounters: counters,
      events,
    },
    'a user was erased',
  );
  return erased;
}
