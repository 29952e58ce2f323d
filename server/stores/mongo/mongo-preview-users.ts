import type { Db, Filter } from 'mongodb';
import type { PreviewUsers } from '../../ports/preview.ts';
import { COLLECTIONS } from './mongo-common.ts';
import { PREVIEW_USERS, type UserDoc } from './user-doc.ts';

/** Preview users through the `previews` index (indexes.ts). */
export function mongoPreviewUsers(db: Db): PreviewUsers {
  const users = db.collection<UserDoc>(COLLECTIONS.users);
  return {
    async listPreviewUsers(query) {
      const filter: Filter<UserDoc> = {
        ...(query.accountId === undefined ? PREVIEW_USERS : { 'preview.accountId': query.accountId }),
        ...(query.updatedBefore === undefined ? {} : { updatedAt: { $lt: query.updatedBefore } }),
      };
      const docs = await users
        .find(filter, { projection: { _id: 1, preview: 1, updatedAt: 1 } })
        .sort({ updatedAt: 1, _id: 1 })
        .limit(query.limit)
        .toArray();
      return docs.map((doc) => ({
        userId: doc._id,
        accountId: doc.preview?.accountId ?? '',
        updatedAt: doc.updatedAt,
      }));
    },
  };
}
