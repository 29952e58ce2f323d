/** The bot's tests room, run against both stores: an adapter is done when these pass on it. */
import { describe, inject } from 'vitest';
import { mongoLeg, sqliteLeg, useFreshRoom, type StoreLeg } from './contract/harness.ts';
import { studioBotTestsCases } from './contract/bot-tests-cases.ts';
import { mongoBotTests } from './mongo/mongo-bot-tests.ts';
import { sqliteBotTests } from './sqlite/sqlite-bot-tests.ts';

const mongoUrl = inject('mongoUrl');
if (mongoUrl === '') console.warn(`[bot tests contract] MONGO LEG SKIPPED: ${inject('mongoSkipReason')}`);

const legs: ReadonlyArray<{ readonly leg: StoreLeg; readonly skip: boolean }> = [
  { leg: sqliteLeg, skip: false },
  { leg: mongoLeg(mongoUrl), skip: mongoUrl === '' },
];

for (const { leg, skip } of legs) {
  describe.skipIf(skip)(`Studio bot tests contract: ${leg.name}`, () => {
    const room = useFreshRoom(leg, (store) =>
      store.kind === 'sqlite' ? sqliteBotTests(store.db) : mongoBotTests(store.db),
    );
    studioBotTestsCases(room);
  });
}
