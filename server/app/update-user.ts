import type { Store, UserPatch, UserRecord } from '../ports/store.ts';

const MAX_ATTEMPTS = 8;

/**
 * Read-modify-write of one user with optimistic concurrency: when another
 * writer (another server process) got there first, read again and redo the
 * change on fresh data, so no update is ever lost.
 */
export async function updateUserWithRetry(
  store: Store,
  userId: string,
  now: number,
  change: (user: UserRecord) => UserPatch,
): Promise<UserRecord> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const user = await store.getUser(userId);
    if (!user) throw new Error(`user ${userId} does not exist`);
    const updated = await store.updateUser(userId, user.version, change(user), now);
    if (updated) return updated;
  }
  throw new Error(`user ${userId} kept changing under ${MAX_ATTEMPTS} attempts to update it`);
}
