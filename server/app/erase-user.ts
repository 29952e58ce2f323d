import type { ErasureReport } from '../ports/personal-data.ts';
import type { AppDeps } from './deps.ts';

/**
 * The right to erasure: removes everything stored about one user. It waits its
 * turn behind the user's running turn, so a turn being computed cannot write the
 * user back after the erasure. The log line counts what went, without the id:
 * the log must not keep what was just erased.
 */
export async function eraseUser(
  deps: Pick<AppDeps, 'store' | 'turns' | 'logger'> & { readonly insights?: { eraseUser(userId: string): Promise<number> } },
  userId: string,
): Promise<ErasureReport> {
  const erased = await deps.turns.run(userId, async () => {
    const report = await deps.store.eraseUser(userId);
    // The insights' summaries of the user's conversations hold their words and data: they go too.
    await deps.insights?.eraseUser(userId);
    return report;
  });
  const logRows = Object.values(erased.logs).reduce((sum, count) => sum + count, 0);
  deps.logger.info({ event: 'user_erased', found: erased.user === 1, transcript: erased.transcript, logs: logRows, jobs: erased.jobs }, 'a user was erased');
  return erased;
}
