/** The designer's presence board, run against both stores: an adapter is done when these pass on it. */
import { describe, inject } from 'vitest';
import { mongoLeg, sqliteLeg, useFreshRoom, type StoreLeg } from './contract/harness.ts';
import { studioPresenceCases } from './contract/presence-cases.ts';
import { mongoPresence } from './mongo/mongo-presence.ts';
import { sqlitePresence } from './sqlite/sqlite-presence.ts';

const mongoUrl = inject('mongoUrl');
if (mongoUrl === '') console.warn(`[presence contract] MONGO LEG SKIPPED: ${inject('mongoSkipReason')}`);

const legs: ReadonlyArray<{ readonly leg: StoreLeg; readonly skip: boolean }> = [
  { leg: sqliteLeg, skip: false },
  { leg: mongoLeg(mongoUrl), skip: mongoUrl === '' },
];

for (const { leg, skip } of legs) {
  describe.skipIf(skip)(`Studio presence contract: ${leg.name}`, () => {
    const board = useFreshRoom(leg, (store) =>
      store.kind === 'sqlite' ? sqlitePresence(store.db) : mongoPresence(store.db),
    );
    studioPresenceCases(board);
  });
}
