/**
 * The insights room's contract, run against both stores: an adapter is done when these pass on it.
 */
import { describe, inject } from 'vitest';
import { mongoLeg, sqliteLeg, useFreshRoom, type StoreLeg } from './contract/harness.ts';
import { BUDGET, studioInsightsCases } from './contract/insights-cases.ts';
import { mongoInsights } from './mongo/mongo-insights.ts';
import { sqliteInsights } from './sqlite/sqlite-insights.ts';

const mongoUrl = inject('mongoUrl');
if (mongoUrl === '') console.warn(`[insights contract] MONGO LEG SKIPPED: ${inject('mongoSkipReason')}`);

const legs: ReadonlyArray<{ readonly leg: StoreLeg; readonly skip: boolean }> = [
  { leg: sqliteLeg, skip: false },
  { leg: mongoLeg(mongoUrl), skip: mongoUrl === '' },
];

for (const { leg, skip } of legs) {
  describe.skipIf(skip)(`Studio insights contract: ${leg.name}`, () => {
    const subject = useFreshRoom(leg, async (store) =>
      store.kind === 'sqlite'
        ? { store, room: sqliteInsights(store.db), budgeted: sqliteInsights(store.db, { searchBudget: BUDGET }) }
        : {
            store,
            room: await mongoInsights(store.db),
            budgeted: await mongoInsights(store.db, { searchBudget: BUDGET }),
          },
    );
    studioInsightsCases(subject);
  });
}
