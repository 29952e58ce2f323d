import type { UserRecord } from '../ports/store.ts';
import type { AppDeps } from './deps.ts';
import { applyTurn } from './apply-turn.ts';
import { updateUserWithRetry } from './update-user.ts';

export interface PageEvent {
  readonly userId: string;
  readonly name: string;
  readonly payload: Readonly<Record<string, unknown>>;
  /** A change to the user written with the event's own (a channel's record of the request); may throw to store nothing. */
  readonly adjust?: (user: UserRecord) => UserRecord;
}

/**
 * An event from the host page. The latest one is kept as the variable
 * `lastPageEvent`, so the tree can branch on it; what else an event does is
 * decided by the bot definition: `pageEvents` may start a dialog, and a wait
 * step may be cancelled by it.
 */
export function handlePageEvent(deps: AppDeps, event: PageEvent): Promise<void> {
  return deps.turns.run(event.userId, async () => {
    const now = deps.clock.now();
    const change = (current: UserRecord): UserRecord => {
      const adjusted = event.adjust ? event.adjust(current) : current;
      return {
        ...adjusted,
        variables: { ...adjusted.variables, lastPageEvent: { name: event.name, payload: event.payload } },
      };
    };
    const user = await deps.store.getUser(event.userId);
    if (user && matters(deps, event.name, user.variables)) {
      // The event's record is committed with the turn it causes: one write, nothing half done.
      await applyTurn(deps, event.userId, { kind: 'pageEvent', name: event.name, payload: event.payload }, now, {
        userWrote: false,
        user,
        adjust: change,
      });
      return;
    }
    if (user) {
      deps.logger.debug?.(
        { event: 'page_event_unrouted', userId: event.userId, name: event.name },
        'a page event no dialog or waiting timer listens for: kept as lastPageEvent only',
      );
    }
    await updateUserWithRetry(deps.store, event.userId, now, (current) => ({ variables: change(current).variables }));
  });
}

/** Only events the definition routes, or that a running timer waits for, need a turn. */
function matters(deps: AppDeps, name: string, variables: Readonly<Record<string, unknown>>): boolean {
  if (deps.definition.pageEvents.some((e) => e.name === name)) return true;
  const timers = variables['$timers'];
  return (
    typeof timers === 'object' &&
    timers !== null &&
    Object.values(timers).some(
      (t) =>
        Array.isArray((t as { pageEvents?: unknown }).pageEvents) &&
        (t as { pageEvents: string[] }).pageEvents.includes(name),
    )
  );
}
