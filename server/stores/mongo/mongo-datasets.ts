import type { AnyBulkWriteOperation, Db } from 'mongodb';
import type { DatasetRow, Store } from '../../ports/store.ts';
import type { KeyLocks } from './key-lock.ts';
import { COLLECTIONS, fromJson, toJson } from './mongo-common.ts';

interface DatasetDoc {
  _id: string;
  /** The generation of rows readers see; only ever increases. */
  generation: number;
  rowCount: number;
  updatedAt: number;
}

interface RowDoc {
  dataset: string;
  generation: number;
  id: string;
  tags: string[];
  lat: number | null;
  lon: number | null;
  data: string;
}

/** Re-reads when a replace lands mid-read; more means something is replacing non-stop. */
const READ_ATTEMPTS = 5;

type DatasetOps = Pick<
  Store,
  'replaceDataset' | 'upsertDatasetRows' | 'deleteDatasetRows' | 'readDataset' | 'datasetInfo'
>;

/*
 * Without transactions, a replace writes its rows under a new generation and
 * then points the dataset document at it in one single-document write: the
 * atomic step readers depend on. Old generations are deleted after that; a
 * reader that started before notices the generation moved and re-reads.
 * Writers of one dataset take turns under its lock (see key-lock.ts).
 */
export function mongoDatasets(db: Db, locks: KeyLocks): DatasetOps {
  const datasets = db.collection<DatasetDoc>(COLLECTIONS.datasets);
  const rows = db.collection<RowDoc>(COLLECTIONS.datasetRows);
  const lockKey = (name: string) => `dataset:${name}`;

  const toDoc = (name: string, generation: number, row: DatasetRow): RowDoc => ({
    dataset: name,
    generation,
    id: row.id,
    tags: [...row.tags],
    lat: row.lat,
    lon: row.lon,
    data: toJson(row.data),
  });

  /** The current generation, after clearing rows of a newer one that a cut-short replace left. */
  const currentGeneration = async (name: string): Promise<number> => {
    const meta = await datasets.findOne({ _id: name });
    const generation = meta?.generation ?? 0;
    await rows.deleteMany({ dataset: name, generation: { $gt: generation } });
    return generation;
  };

  const saveInfo = async (name: string, generation: number, now: number) => {
    const rowCount = await rows.countDocuments({ dataset: name, generation });
    await datasets.replaceOne({ _id: name }, { generation, rowCount, updatedAt: now }, { upsert: true });
  };

  return {
    replaceDataset: (name, list, now) =>
      locks.withLock(lockKey(name), async () => {
        const generation = (await currentGeneration(name)) + 1;
        if (list.length > 0)
          await rows.insertMany(
            list.map((row) => toDoc(name, generation, row)),
            { ordered: false },
          );
        await datasets.replaceOne(
          { _id: name },
          { generation, rowCount: list.length, updatedAt: now },
          { upsert: true },
        );
        await rows.deleteMany({ dataset: name, generation: { $lt: generation } });
      }),

    upsertDatasetRows: (name, list, now) =>
      locks.withLock(lockKey(name), async () => {
        const generation = Math.max(1, await currentGeneration(name));
        if (list.length > 0) {
          const operations: AnyBulkWriteOperation<RowDoc>[] = list.map((row) => ({
            replaceOne: {
              filter: { dataset: name, generation, id: row.id },
              replacement: toDoc(name, generation, row),
              upsert: true,
            },
          }));
          await rows.bulkWrite(operations, { ordered: true });
        }
        await saveInfo(name, generation, now);
      }),

    deleteDatasetRows: (name, ids, now) =>
      locks.withLock(lockKey(name), async () => {
        const meta = await datasets.findOne({ _id: name });
        // Deleting from a dataset that was never written leaves it absent.
        if (meta === null) return;
        if (ids.length > 0)
          await rows.deleteMany({ dataset: name, generation: meta.generation, id: { $in: [...ids] } });
        await saveInfo(name, meta.generation, now);
      }),

    async readDataset(name) {
      for (let attempt = 0; attempt < READ_ATTEMPTS; attempt += 1) {
        const before = await datasets.findOne({ _id: name });
        if (before === null) return [];
        const docs = await rows.find({ dataset: name, generation: before.generation }).sort({ id: 1 }).toArray();
        const after = await datasets.findOne({ _id: name });
        if (after?.generation !== before.generation) continue;
        return docs.map((doc): DatasetRow => ({
          id: doc.id,
          tags: doc.tags,
          lat: doc.lat,
          lon: doc.lon,
          data: fromJson(doc.data),
        }));
      }
      throw new Error(`dataset ${name} kept being replaced while it was read`);
    },

    async datasetInfo(name) {
      const doc = await datasets.findOne({ _id: name });
      return doc === null ? null : { name: doc._id, rowCount: doc.rowCount, updatedAt: doc.updatedAt };
    },
  };
}
