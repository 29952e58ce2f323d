import type { Db } from 'mongodb';
import type { DueJobs, Store } from '../../ports/store.ts';
import { COLLECTIONS } from './mongo-common.ts';

interface JobFields {
  _id: string;
  kind: string;
  status: string;
  runAt: number;
}

/** The job queue's depth and age: distinct kinds, then a count and the oldest per kind (plain queries FerretDB 1.x serves from the `due` index). */
export function mongoJobStats(db: Db): Pick<Store, 'dueJobs'> {
  const jobs = db.collection<JobFields>(COLLECTIONS.jobs);
  return {
    async dueJobs(now) {
      const filter = { status: 'pending', runAt: { $lte: now } };
      const kinds = (await jobs.distinct('kind', filter)).sort();
      const result: DueJobs[] = [];
      for (const kind of kinds) {
        const count = await jobs.countDocuments({ ...filter, kind });
        const oldest = await jobs.findOne({ ...filter, kind }, { sort: { runAt: 1 }, projection: { runAt: 1 } });
        if (count > 0 && oldest) result.push({ kind, count, oldestRunAt: oldest.runAt });
      }
      return result;
    },
  };
}
