import { ObjectId, type Db } from 'mongodb';
import type { Store } from '../../ports/store.ts';
import type { KeyLocks } from './key-lock.ts';
import { PREVIEW_USERS, toUser, userLockKey, type UserDoc } from './user-doc.ts';
import type { UserDocCache } from './user-doc-cache.ts';
import { COLLECTIONS, isDuplicateKey, toJson } from './mongo-common.ts';

type UserOps = Pick<Store, 'getUser' | 'ensureUser' | 'updateUser' | 'previewUsers'>;

export function mongoUsers(db: Db, locks: KeyLocks, cache?: UserDocCache): UserOps {
  const users = db.collection<UserDoc>(COLLECTIONS.users);

  return {
    async getUser(userId) {
      const doc = await users.findOne({ _id: userId });
      if (doc === null) {
        cache?.forget(userId);
        return null;
      }
      cache?.put(doc);
      return toUser(doc);
    },

    async previewUsers() {
      return (await users.find(PREVIEW_USERS, { projection: { _id: 1 } }).toArray()).map((doc) => doc._id);
    },

    async ensureUser(user) {
      const existing = await users.findOne({ _id: user.userId });
      if (existing !== null) return toUser(existing);
      const doc: UserDoc = {
        _id: user.userId,
        channelId: user.channelId,
        position: null,
        variables: toJson(user.variables ?? {}),
        userData: toJson(user.userData ?? {}),
        lastMessageAt: null,
        listedAt: user.now,
        createdAt: user.now,
        updatedAt: user.now,
        version: 1,
        lastSeq: 0,
        lastTrigger: null,
        recent: [],
        order: new ObjectId(),
        ...(user.preview ? { preview: { accountId: user.preview.accountId } } : {}),
      };
      try {
        await users.insertOne(doc);
        return toUser(doc);
      } catch (error) {
        // Another writer created the user in between: theirs stands.
        if (!isDuplicateKey(error)) throw error;
        const winner = await users.findOne({ _id: user.userId });
        if (winner === null) throw new Error(`user ${user.userId} vanished right after a duplicate insert`);
        return toUser(winner);
      }
    },

    async updateUser(userId, expectedVersion, patch, now) {
      const set: Partial<UserDoc> = { updatedAt: now };
      if (patch.position !== undefined) set.position = patch.position;
      if (patch.variables !== undefined) set.variables = toJson(patch.variables);
      if (patch.userData !== undefined) set.userData = toJson(patch.userData);
      if (patch.lastMessageAt !== undefined) set.lastMessageAt = patch.lastMessageAt;
      if (typeof patch.lastMessageAt === 'number') set.listedAt = patch.lastMessageAt;
      if (patch.lastTrigger !== undefined) set.lastTrigger = patch.lastTrigger;
      if (patch.pendingSeq === null) set.pendingSeq = null;
      // Compare and set: findOneAndUpdate on a version filter is atomic on MongoDB by itself;
      // on FerretDB it is not, so it runs under the user's lock, which makes it so there.
      return locks.withLock(userLockKey(userId), async () => {
        // A user made to have never written is listed by their creation again.
        if (patch.lastMessageAt === null) {
          const current = await users.findOne({ _id: userId }, { projection: { createdAt: 1 } });
          if (current !== null) set.listedAt = current.createdAt;
        }
        const next = await users.findOneAndUpdate(
          { _id: userId, version: expectedVersion },
          { $set: { ...set, version: expectedVersion + 1 } },
          { returnDocument: 'after' },
        );
        return next === null ? null : toUser(next);
      });
    },
  };
}
