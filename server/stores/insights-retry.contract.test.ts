/**
 * A flush of the insights counters that fails halfway, then is written again: on both stores,
 * every count lands once. The store underneath is real; only its counter write is made to fail
 * after the first document (contract/failing-counter-writes.ts).
 */
import { describe, expect, inject, it } from 'vitest';
import { InsightsRecorder } from '../app/insights/recorder.ts';
import { firstTurnOf } from '../app/insights/test/first-turn.ts';
import { DAY_MS, dayOf, type InsightsBatch, type InsightsStore, type Metric } from '../ports/insights.ts';
import {
  failingMongoCounters,
  failingSqliteCounters,
  type CounterWriteFault,
} from './contract/failing-counter-writes.ts';
import { mongoLeg, sqliteLeg, useFreshPart, type StoreLeg } from './contract/harness.ts';
import { mongoInsights } from './mongo/mongo-insights.ts';
import { sqliteInsights } from './sqlite/sqlite-insights.ts';

const mongoUrl = inject('mongoUrl');
const D = 20_000;
const NOW = D * DAY_MS + 3_600_000;
const legs: ReadonlyArray<{ readonly leg: StoreLeg; readonly skip: boolean }> = [
  { leg: sqliteLeg, skip: false },
  { leg: mongoLeg(mongoUrl), skip: mongoUrl === '' },
];

async function totals(insights: InsightsStore, metric: Metric, version?: string): Promise<number> {
  const read = await insights.counters({ fromDay: D, toDay: D, ...(version ? { version } : {}) }, [metric]);
  return read.daily.get(D)?.get(metric) ?? 0;
}

const turnOf = (userId: string, text: string) => firstTurnOf(userId, text, NOW);

for (const { leg, skip } of legs) {
  describe.skipIf(skip)(`insights counters written again after a failure halfway: ${leg.name}`, () => {
    const fault: CounterWriteFault = { okWrites: 0, failures: 0 };
    const subject = useFreshPart(leg, async (store) => {
      fault.okWrites = 0;
      fault.failures = 0;
      return store.kind === 'sqlite'
        ? { real: sqliteInsights(store.db), failing: sqliteInsights(failingSqliteCounters(store.db, fault)) }
        : { real: await mongoInsights(store.db), failing: await mongoInsights(failingMongoCounters(store.db, fault)) };
    });

    it('when a batch fails after its first counter document and is written again with its id, then each counter counts it once', async () => {
      const { real, failing } = subject();
      const batch: InsightsBatch = {
        id: 'batch-1',
        counts: [
          { day: D, version: 'v1', metric: 'conversations', n: 1 },
          { day: D, version: 'v2', metric: 'conversations', n: 1 },
          { day: D, version: 'v1', metric: 'messagesUser', n: 3 },
        ],
        conversations: [],
      };
      Object.assign(fault, { okWrites: 1, failures: 1 });
      await expect(failing.record(batch)).rejects.toThrow(/halfway/);
      await failing.record(batch);
      expect(await totals(real, 'conversations')).toBe(2);
      expect(await totals(real, 'conversations', 'v1')).toBe(1);
      expect(await totals(real, 'messagesUser', 'v1')).toBe(3);
      // A later batch, a new id, adds on top.
      await failing.record({ ...batch, id: 'batch-2' });
      expect(await totals(real, 'conversations')).toBe(4);
    });

    it('when the recorder flush fails halfway and turns come in before the next flush, then the dashboard counts every conversation and message once', async () => {
      const { real, failing } = subject();
      const warnings: Record<string, unknown>[] = [];
      const logger = { info() {}, warn: (fields: Record<string, unknown>) => void warnings.push(fields), error() {} };
      const recorder = new InsightsRecorder({
        store: failing,
        logger,
        now: () => NOW,
        version: () => 'v1',
        userOf: async () => ({ preview: false, channel: 'webchat' }),
        windowMs: 1_800_000,
      });
      for (const [user, text] of [
        ['ann', 'hello'],
        ['bob', 'hi there'],
      ] as const) {
        const turn = turnOf(user, text);
        recorder.turn(user, false, turn.counts, turn.summary);
      }
      Object.assign(fault, { okWrites: 1, failures: 1 });
      await recorder.flush();
      expect(warnings.map((w) => w.event)).toStrictEqual(['insights_write_failed']);
      const third = turnOf('cid', 'good morning');
      recorder.turn('cid', false, third.counts, third.summary);
      await recorder.flush();
      await recorder.flush();
      expect(await totals(real, 'conversations')).toBe(3);
      expect(await totals(real, 'messagesUser')).toBe(3);
      expect(await totals(real, 'conversations', 'v1')).toBe(3);
      expect(warnings).toHaveLength(1);
    });
  });
}

// The day the counters above are written on: the fixed NOW's.
if (dayOf(NOW) !== D) throw new Error('NOW must fall on day D');
