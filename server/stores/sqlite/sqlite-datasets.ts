import type { Database } from './database.ts';
import type { DatasetInfo, DatasetRow, Store } from '../../ports/store.ts';
import { fromJson, toJson } from './json.ts';

interface RowRow {
  id: string;
  tags: string;
  lat: number | null;
  lon: number | null;
  data: string;
}

type DatasetOps = Pick<
  Store,
  'replaceDataset' | 'upsertDatasetRows' | 'deleteDatasetRows' | 'readDataset' | 'datasetInfo'
>;

export function sqliteDatasets(db: Database): DatasetOps {
  const upsertRow = db.prepare(
    `INSERT INTO dataset_rows (dataset, id, tags, lat, lon, data)
     VALUES (@dataset, @id, @tags, @lat, @lon, @data)
     ON CONFLICT (dataset, id) DO UPDATE SET
       tags = excluded.tags, lat = excluded.lat, lon = excluded.lon, data = excluded.data`,
  );
  const deleteAll = db.prepare('DELETE FROM dataset_rows WHERE dataset = ?');
  const deleteRow = db.prepare('DELETE FROM dataset_rows WHERE dataset = ? AND id = ?');
  const exists = db.prepare<[string], { name: string }>('SELECT name FROM datasets WHERE name = ?');
  const touch = db.prepare(
    `INSERT INTO datasets (name, row_count, updated_at)
     VALUES (@name, (SELECT count(*) FROM dataset_rows WHERE dataset = @name), @now)
     ON CONFLICT (name) DO UPDATE SET row_count = excluded.row_count, updated_at = excluded.updated_at`,
  );
  const rows = db.prepare<[string], RowRow>(
    'SELECT id, tags, lat, lon, data FROM dataset_rows WHERE dataset = ? ORDER BY id',
  );
  const info = db.prepare<[string], { name: string; row_count: number; updated_at: number }>(
    'SELECT name, row_count, updated_at FROM datasets WHERE name = ?',
  );

  const upsertAll = (name: string, list: readonly DatasetRow[]) => {
    for (const row of list) {
      upsertRow.run({
        dataset: name,
        id: row.id,
        tags: toJson(row.tags),
        lat: row.lat,
        lon: row.lon,
        data: toJson(row.data),
      });
    }
  };

  // One transaction each: readers see the rows before or after, never between.
  const replaceTx = db.transaction((name: string, list: readonly DatasetRow[], now: number) => {
    deleteAll.run(name);
    upsertAll(name, list);
    touch.run({ name, now });
  });
  const upsertTx = db.transaction((name: string, list: readonly DatasetRow[], now: number) => {
    upsertAll(name, list);
    touch.run({ name, now });
  });
  const deleteTx = db.transaction((name: string, ids: readonly string[], now: number) => {
    // Deleting from a dataset that was never written leaves it absent.
    if (exists.get(name) === undefined) return;
    for (const id of ids) deleteRow.run(name, id);
    touch.run({ name, now });
  });

  return {
    async replaceDataset(name, list, now) {
      replaceTx.immediate(name, list, now);
    },
    async upsertDatasetRows(name, list, now) {
      upsertTx.immediate(name, list, now);
    },
    async deleteDatasetRows(name, ids, now) {
      deleteTx.immediate(name, ids, now);
    },
    async readDataset(name) {
      return rows.all(name).map((row): DatasetRow => ({
        id: row.id,
        tags: fromJson<string[]>(row.tags),
        lat: row.lat,
        lon: row.lon,
        data: fromJson(row.data),
      }));
    },
    async datasetInfo(name): Promise<DatasetInfo | null> {
      const row = info.get(name);
      return row === undefined ? null : { name: row.name, rowCount: row.row_count, updatedAt: row.updated_at };
    },
  };
}
