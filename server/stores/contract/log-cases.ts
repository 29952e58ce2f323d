import { expect, it } from 'vitest';
import type { NewLogEntry, Store } from '../../ports/store.ts';
import { InvalidCursorError } from '../common/range-cursor.ts';
import { collect } from './harness.ts';

const entry = (label: string, timestamp: number): NewLogEntry => ({
  userId: `user-${label}`,
  timestamp,
  data: { label },
});
const labels = (entries: ReadonlyArray<{ readonly data: Readonly<Record<string, unknown>> }>) =>
  entries.map((e) => e.data.label);

export function logCases(store: () => Store): void {
  it('when logs are appended, then they read back by timestamp then insertion order, per kind', async () => {
    await store().appendLog('nlpLog', entry('t30', 30));
    await store().appendLogs('nlpLog', [entry('t10-a', 10), entry('t20', 20), entry('t10-b', 10)]);
    await store().appendLogs('nlpLog', []);
    await store().appendLog('outgoingSms', entry('sms', 15));
    await store().appendLog('nlpLog', entry('t10-c', 10));
    const read = await collect(store().readLogs('nlpLog', {}));
    expect(labels(read)).toStrictEqual(['t10-a', 't10-b', 't10-c', 't20', 't30']);
    expect(read[0]).toMatchObject({ userId: 'user-t10-a', timestamp: 10, data: { label: 't10-a' } });
    expect(
      Object.keys(read[0] ?? {})
        .filter((key) => key !== 'dataJson')
        .sort(),
    ).toStrictEqual(['cursor', 'data', 'timestamp', 'userId']);
    expect(labels(await collect(store().readLogs('outgoingSms', {})))).toStrictEqual(['sms']);
    expect(await collect(store().readLogs('urlTracker', {}))).toStrictEqual([]);
  });

  it('when a range is given, then an entry exactly at fromMs is included and one exactly at toMs is excluded', async () => {
    await store().appendLogs('integrationLog', [
      entry('before', 99),
      entry('atFrom', 100),
      entry('inside', 150),
      entry('justBeforeTo', 199),
      entry('atTo', 200),
    ]);
    expect(labels(await collect(store().readLogs('integrationLog', { fromMs: 100, toMs: 200 })))).toStrictEqual([
      'atFrom',
      'inside',
      'justBeforeTo',
    ]);
    expect(labels(await collect(store().readLogs('integrationLog', { fromMs: 150 })))).toStrictEqual([
      'inside',
      'justBeforeTo',
      'atTo',
    ]);
    expect(labels(await collect(store().readLogs('integrationLog', { toMs: 100 })))).toStrictEqual(['before']);
    expect(await collect(store().readLogs('integrationLog', { fromMs: 150, toMs: 150 }))).toStrictEqual([]);
  });

  it('when a read resumes after any cursor, in any batch size, then every later entry comes exactly once', async () => {
    const times = [5, 1, 1, 1, 2, 3, 3, 3, 3, 4, 1, 5, 5];
    await store().appendLogs(
      'urlTracker',
      times.map((t, i) => entry(`e${i}`, t)),
    );
    const full = await collect(store().readLogs('urlTracker', {}));
    expect(labels(full)).toStrictEqual([
      'e1',
      'e2',
      'e3',
      'e10',
      'e4',
      'e5',
      'e6',
      'e7',
      'e8',
      'e9',
      'e0',
      'e11',
      'e12',
    ]);
    for (const batchSize of [1, 2, 4, 100]) {
      expect(labels(await collect(store().readLogs('urlTracker', { batchSize })))).toStrictEqual(labels(full));
    }
    for (const [index, item] of full.entries()) {
      const rest = await collect(store().readLogs('urlTracker', { after: item.cursor, batchSize: 3 }));
      expect(labels(rest)).toStrictEqual(labels(full.slice(index + 1)));
    }
  });

  it('when a range is read a batch at a time, then the batches hold the rows of the row-by-row read, in order, none empty or larger than asked', async () => {
    const times = [5, 1, 1, 2, 3, 3, 4, 1, 5];
    await store().appendLogs(
      'urlTracker',
      times.map((t, i) => entry(`e${i}`, t)),
    );
    const full = await collect(store().readLogs('urlTracker', {}));
    for (const batchSize of [1, 2, 4, 9, 100]) {
      const batches = await collect(store().readLogs('urlTracker', { batchSize }).batches());
      expect(batches.flat()).toStrictEqual(full);
      expect(batches.every((batch) => batch.length > 0 && batch.length <= batchSize)).toBe(true);
    }
    const read = store().readLogs('urlTracker', { after: full[2]!.cursor, batchSize: 2 });
    // A read runs from its start each time it is iterated, row by row or by batch.
    expect((await collect(read.batches())).flat()).toStrictEqual(full.slice(3));
    expect(await collect(read)).toStrictEqual(full.slice(3));
    await expect(collect(store().readLogs('urlTracker', { after: 'nonsense' }).batches())).rejects.toBeInstanceOf(
      InvalidCursorError,
    );
  });

  it('when a cursor is combined with a range, then both apply', async () => {
    await store().appendLogs('outgoingEmail', [
      entry('a', 10),
      entry('b', 20),
      entry('c', 20),
      entry('d', 30),
      entry('e', 40),
    ]);
    const full = await collect(store().readLogs('outgoingEmail', { fromMs: 20, toMs: 40 }));
    expect(labels(full)).toStrictEqual(['b', 'c', 'd']);
    const rest = await collect(store().readLogs('outgoingEmail', { fromMs: 20, toMs: 40, after: full[0]?.cursor }));
    expect(labels(rest)).toStrictEqual(['c', 'd']);
  });

  it('when entries are appended after a read ended, then resuming from its last cursor returns only the new ones', async () => {
    await store().appendLogs('userDataSnapshot', [entry('old-1', 10), entry('old-2', 20)]);
    const first = await collect(store().readLogs('userDataSnapshot', {}));
    await store().appendLogs('userDataSnapshot', [entry('same-time', 20), entry('later', 30)]);
    const rest = await collect(store().readLogs('userDataSnapshot', { after: first.at(-1)?.cursor }));
    expect(labels(rest)).toStrictEqual(['same-time', 'later']);
  });

  it('when the cursor is not one the store produced, then the read rejects with InvalidCursorError', async () => {
    await store().appendLog('nlpLog', entry('x', 1));
    await expect(collect(store().readLogs('nlpLog', { after: 'not-a-cursor' }))).rejects.toBeInstanceOf(
      InvalidCursorError,
    );
  });

  it('when a store hands the stored text of an entry beside its data, then it is exactly JSON.stringify of the data', async () => {
    const data = { quote: 'a "b", c\nd', emoji: '😀 é', nested: { list: [1, null, true, { x: -1.5 }] }, none: null };
    await store().appendLog('nlpLog', { userId: 'u', timestamp: 1, data });
    for (const row of [
      ...(await collect(store().readLogs('nlpLog', {}))),
      ...(await collect(store().readLogs('nlpLog', {}).batches())).flat(),
    ]) {
      expect(row.data).toStrictEqual(data);
      if (row.dataJson !== undefined) expect(row.dataJson).toBe(JSON.stringify(row.data));
    }
  });
}
