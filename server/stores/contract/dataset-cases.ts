import { expect, it } from 'vitest';
import type { DatasetRow, Store } from '../../ports/store.ts';

const row = (id: string, extra: Partial<DatasetRow> = {}): DatasetRow => ({
  id,
  tags: ['t'],
  lat: null,
  lon: null,
  data: { id },
  ...extra,
});

export function datasetCases(store: () => Store): void {
  it('when a dataset was never written, then info is null and it reads empty', async () => {
    expect(await store().datasetInfo('events')).toBeNull();
    expect(await store().readDataset('events')).toStrictEqual([]);
  });

  it('when a dataset is replaced, then it reads exactly the new rows by id and info counts them', async () => {
    const first = [row('b', { tags: ['x', 'y'], lat: 52.2297, lon: 21.0122, data: { 'a.b': { $c: 1 } } }), row('a')];
    await store().replaceDataset('events', first, 1000);
    expect(await store().readDataset('events')).toStrictEqual([first[1], first[0]]);
    expect(await store().datasetInfo('events')).toStrictEqual({ name: 'events', rowCount: 2, updatedAt: 1000 });
    await store().replaceDataset('events', [row('c')], 2000);
    expect(await store().readDataset('events')).toStrictEqual([row('c')]);
    expect(await store().datasetInfo('events')).toStrictEqual({ name: 'events', rowCount: 1, updatedAt: 2000 });
    await store().replaceDataset('events', [], 3000);
    expect(await store().readDataset('events')).toStrictEqual([]);
    expect(await store().datasetInfo('events')).toStrictEqual({ name: 'events', rowCount: 0, updatedAt: 3000 });
  });

  it('when rows are upserted, then existing ids are replaced and new ones added, creating the dataset if needed', async () => {
    await store().upsertDatasetRows('places', [row('p2'), row('p1')], 1000);
    expect(await store().datasetInfo('places')).toStrictEqual({ name: 'places', rowCount: 2, updatedAt: 1000 });
    await store().upsertDatasetRows('places', [row('p1', { tags: [], data: { v: 2 } }), row('p3')], 2000);
    expect(await store().readDataset('places')).toStrictEqual([
      row('p1', { tags: [], data: { v: 2 } }),
      row('p2'),
      row('p3'),
    ]);
    expect(await store().datasetInfo('places')).toStrictEqual({ name: 'places', rowCount: 3, updatedAt: 2000 });
  });

  it('when rows are deleted, then only those go and info follows; deleting from an unknown dataset creates nothing', async () => {
    await store().replaceDataset('events', [row('a'), row('b'), row('c')], 1000);
    await store().deleteDatasetRows('events', ['a', 'c', 'missing'], 2000);
    expect(await store().readDataset('events')).toStrictEqual([row('b')]);
    expect(await store().datasetInfo('events')).toStrictEqual({ name: 'events', rowCount: 1, updatedAt: 2000 });
    await store().deleteDatasetRows('ghost', ['a'], 3000);
    expect(await store().datasetInfo('ghost')).toBeNull();
  });

  it('when datasets share row ids, then they stay separate', async () => {
    await store().replaceDataset('one', [row('a', { data: { from: 'one' } })], 1);
    await store().replaceDataset('two', [row('a', { data: { from: 'two' } })], 2);
    await store().deleteDatasetRows('two', ['a'], 3);
    expect(await store().readDataset('one')).toStrictEqual([row('a', { data: { from: 'one' } })]);
    expect(await store().readDataset('two')).toStrictEqual([]);
  });

  it('when readers run while the dataset is replaced, then each sees all old rows or all new ones, never a mix', async () => {
    const generation = (label: string) =>
      Array.from({ length: 20 }, (_, i) => row(`${label}${String(i).padStart(2, '0')}`, { data: { label } }));
    await store().replaceDataset('events', generation('A'), 1);
    let writing = true;
    const writer = (async () => {
      for (let i = 0; i < 6; i += 1) await store().replaceDataset('events', generation(i % 2 === 0 ? 'B' : 'A'), i + 2);
      writing = false;
    })();
    const seen = new Set<string>();
    while (writing) {
      const rows = await store().readDataset('events');
      const labels = new Set(rows.map((r) => r.data.label as string));
      expect(rows).toHaveLength(20);
      expect(labels.size).toBe(1);
      for (const label of labels) seen.add(label);
    }
    await writer;
    expect([...seen].length).toBeGreaterThan(0);
  });
}
