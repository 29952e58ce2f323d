import type { Db } from 'mongodb';
import type { RestingUsers } from '../../ports/resting-users.ts';
import { COLLECTIONS } from './mongo-common.ts';
import type { UserDoc } from './user-doc.ts';

/*
 * A count per position, a few at a time: a publish plan asks rarely and for few positions, so
 * no index is kept for it (one on the position would cost every turn's write). countDocuments
 * with a plain equality filter is in the subset FerretDB 1.x runs.
 */
export function mongoRestingUsers(db: Db): RestingUsers {
  const users = db.collection<UserDoc>(COLLECTIONS.users);
  return {
    async countResting(positions) {
      const counts: number[] = [];
      for (let start = 0; start < positions.length; start += 4) {
        const batch = positions.slice(start, start + 4);
        counts.push(
          ...(await Promise.all(
            batch.map((p) =>
              users.countDocuments({
                'position.dialogId': p.dialogId,
                'position.stepId': p.stepId,
                preview: { $exists: false },
              }),
            ),
          )),
        );
      }
      return counts;
    },
  };
}
