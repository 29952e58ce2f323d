import type { AppDeps } from './deps.ts';
import { updateUserWithRetry } from './update-user.ts';

export interface PageEvent {
  readonly userId: string;
  readonly name: string;
  readonly payload: Readonly<Record<string, unknown>>;
}

/**
 * An event from the host page. The latest one is kept as the variable
 * `lastPageEvent`, so the tree can branch on it; what else an event does is
 * decided by the bot definition.
 */
export function handlePageEvent(deps: AppDeps, event: PageEvent): Promise<void> {
  return deps.turns.run(event.userId, async () => {
    await updateUserWithRetry(deps.store, event.userId, deps.clock.now(), (user) => ({
      variables: { ...user.variables, lastPageEvent: { name: event.name, payload: event.payload } },
    }));
  });
}
