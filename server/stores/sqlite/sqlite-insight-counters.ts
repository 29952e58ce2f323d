import type { Database } from './database.ts';
import type { CountDelta, CounterTotals, DayRange, Metric } from '../../ports/insights.ts';
import { totalsOf, type CounterRow } from '../common/insights-common.ts';

/**
 * The insights counters on the embedded store (migrations 12 and 19): rows keyed by (day, metric,
 * version, channel, a, b), so a dashboard sums a range of days with one query on the key, for every
 * version and channel or for one of each.
 */
export function sqliteInsightCounters(db: Database) {
  const addCount = db.prepare<[number, string, string, string, string, string, number]>(
    `INSERT INTO insight_counts (day, metric, version, channel, a, b, n) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (day, metric, version, channel, a, b) DO UPDATE SET n = n + excluded.n`,
  );
  const purgeCounts = db.prepare<[string, number]>('DELETE FROM insight_counts WHERE metric = ? AND day < ?');

  return {
    /** Adds the deltas; the caller holds the transaction. */
    add(counts: readonly CountDelta[]): void {
      for (const c of counts) addCount.run(c.day, c.metric, c.version, c.channel ?? '', c.a ?? '', c.b ?? '', c.n);
    },

    totals(range: DayRange, metrics: readonly Metric[]): CounterTotals {
      if (metrics.length === 0) return totalsOf([]);
      const where = ['day >= ?', 'day <= ?', `metric IN (${metrics.map(() => '?').join(', ')})`];
      const params: unknown[] = [range.fromDay, range.toDay, ...metrics];
      if (range.version !== undefined) {
        where.push('version = ?');
        params.push(range.version);
      }
      if (range.channel !== undefined) {
        where.push('channel = ?');
        params.push(range.channel);
      }
      const rows = db
        .prepare<unknown[], CounterRow>(
          `SELECT day, metric, channel, a, b, sum(n) FROM insight_counts WHERE ${where.join(' AND ')}
           GROUP BY day, metric, channel, a, b`,
        )
        .raw(true)
        .all(...params);
      return totalsOf(rows);
    },

    /** Retention: each metric's counters of the days before its cut-off. Returns how many rows went. */
    purge(countersBeforeDay: Readonly<Partial<Record<Metric, number>>>): number {
      let counters = 0;
      for (const [metric, beforeDay] of Object.entries(countersBeforeDay))
        if (beforeDay !== undefined) counters += purgeCounts.run(metric, beforeDay).changes;
      return counters;
    },
  };
}
