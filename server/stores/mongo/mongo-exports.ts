import type { Db, Filter, ObjectId } from 'mongodb';
import type { KnownUserRow, TranscriptExportRow } from '../../ports/personal-data.ts';
import type { RangeQuery, RangeRead } from '../../ports/store.ts';
import type { PersonalDataExports } from '../common/personal-data-parts.ts';
import { encodeCursor } from '../common/range-cursor.ts';
import { seekRead } from '../common/range-read.ts';
import { COLLECTIONS, fromJson } from './mongo-common.ts';
import { objectIdStart, rangeFilter, type ObjectIdPosition } from './range-filter.ts';
import type { TranscriptDoc } from './transcript-doc.ts';
import { PREVIEW_USERS, type UserDoc } from './user-doc.ts';

/**
 * The exports of what the store knows of people: users' data and the transcript, page by page,
 * preview users left out. MongoDB features used: find with range filters, sort and limit, $nin.
 */
export function mongoExports(db: Db): PersonalDataExports {
  const users = db.collection<UserDoc>(COLLECTIONS.users);
  const transcript = db.collection<TranscriptDoc & { _id: ObjectId }>(COLLECTIONS.transcript);

  /** Users but preview users in the order of `time`, then of their creation, page by page. */
  const readUsers = (
    query: RangeQuery,
    time: 'listedAt' | 'lastMessageAt',
    filterAfter: (after: ObjectIdPosition | null) => Filter<UserDoc>,
  ) =>
    seekRead(query.batchSize, {
      start: () => objectIdStart(query),
      fetch: (after, limit) =>
        users
          .find(filterAfter(after), { projection: { _id: 1, [time]: 1, order: 1, userData: 1 } })
          .sort({ [time]: 1, order: 1 })
          .limit(limit)
          .toArray(),
      positionOf: (doc) => ({ t: doc[time] ?? 0, o: doc.order }),
      toRow: (doc): KnownUserRow => {
        const timestamp = doc[time] ?? 0;
        return {
          userId: doc._id,
          timestamp,
          userData: fromJson<Record<string, unknown>>(doc.userData),
          cursor: encodeCursor({ t: timestamp, o: doc.order.toHexString() }),
        };
      },
    });

  return {
    // listedAt: the last message, else the creation (UserDoc.listedAt), on the by_listed index.
    exportKnownUsers: (query) =>
      readUsers(query, 'listedAt', (after) => ({
        $and: [rangeFilter<UserDoc>('listedAt', 'order', query, after), { preview: { $exists: false } }],
      })),

    exportUsers: (query) =>
      readUsers(query, 'lastMessageAt', (after) =>
        rangeFilter<UserDoc>('lastMessageAt', 'order', query, after, {
          lastMessageAt: { $ne: null },
          preview: { $exists: false },
        }),
      ),

    exportTranscript(query: RangeQuery): RangeRead<TranscriptExportRow> {
      return seekRead(query.batchSize, {
        start: () => objectIdStart(query),
        fetch: async (after, limit) => {
          // Preview users are few (one a studio author at a time): asked again per batch, so one started meanwhile stays out too.
          const previews = (await users.find(PREVIEW_USERS, { projection: { _id: 1 } }).toArray()).map(
            (doc) => doc._id,
          );
          const range = rangeFilter<TranscriptDoc & { _id: ObjectId }>('at', '_id', query, after);
          const filter = previews.length === 0 ? range : { $and: [range, { userId: { $nin: previews } }] };
          return transcript.find(filter).sort({ at: 1, _id: 1 }).limit(limit).toArray();
        },
        positionOf: (doc) => ({ t: doc.at, o: doc._id }),
        toRow: (doc): TranscriptExportRow => ({
          userId: doc.userId,
          seq: doc.seq,
          from: doc.from,
          at: doc.at,
          message: fromJson<Record<string, unknown>>(doc.message),
          dialogId: doc.dialogId ?? null,
          stepId: doc.stepId ?? null,
          cursor: encodeCursor({ t: doc.at, o: doc._id.toHexString() }),
        }),
      });
    },
  };
}
