import type { UserRecord } from '../ports/store.ts';
import type { AppDeps } from './deps.ts';
import { emitOutsideTurn, userDataChange } from './bot-events.ts';
import { updateUserWithRetry } from './update-user.ts';

/**
 * Splits what the page knows into declared user-data fields (exported) and
 * variables (everything else, e.g. an auth token, which must never reach an export).
 */
export function splitPageData(deps: AppDeps, fields: Readonly<Record<string, unknown>>) {
  const declared = new Set(deps.definition.userDataFields);
  const userData: Record<string, unknown> = {};
  const variables: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    (declared.has(key) ? userData : variables)[key] = value;
  }
  return { userData, variables };
}

/**
 * The page saves what it knows about the user; runs in the user's turn order. `adjust` is
 * a change written in the same update (a channel's record of the request); it may throw to store nothing.
 */
export function setUserData(
  deps: AppDeps,
  userId: string,
  fields: Readonly<Record<string, unknown>>,
  adjust?: (user: UserRecord) => UserRecord,
): Promise<void> {
  const { userData, variables } = splitPageData(deps, fields);
  return deps.turns.run(userId, async () => {
    const now = deps.clock.now();
    let before: Readonly<Record<string, unknown>> = {};
    const updated = await updateUserWithRetry(deps.store, userId, now, (current) => {
      before = current.userData;
      const user = adjust ? adjust(current) : current;
      return {
        userData: { ...user.userData, ...userData },
        variables: { ...user.variables, ...variables },
      };
    });
    const change = userDataChange(before, updated.userData);
    if (change) await emitOutsideTurn(deps, updated, [{ kind: 'userData.changed', data: change }], now);
  });
}
