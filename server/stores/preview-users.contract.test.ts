/** The preview marker on both stores (ports/preview.ts): an adapter is done when these pass on it. */
import { describe, inject } from 'vitest';
import { mongoLeg, sqliteLeg, useFreshPart, type StoreLeg } from './contract/harness.ts';
import { previewCases } from './contract/preview-cases.ts';
import { mongoPreviewUsers } from './mongo/mongo-preview-users.ts';
import { mongoRestingUsers } from './mongo/mongo-resting-users.ts';
import { sqlitePreviewUsers } from './sqlite/sqlite-preview-users.ts';
import { sqliteRestingUsers } from './sqlite/sqlite-resting-users.ts';

const mongoUrl = inject('mongoUrl');
if (mongoUrl === '') console.warn(`[preview contract] MONGO LEG SKIPPED: ${inject('mongoSkipReason')}`);

const legs: ReadonlyArray<{ readonly leg: StoreLeg; readonly skip: boolean }> = [
  { leg: sqliteLeg, skip: false },
  { leg: mongoLeg(mongoUrl), skip: mongoUrl === '' },
];

for (const { leg, skip } of legs) {
  describe.skipIf(skip)(`Preview users contract: ${leg.name}`, () => {
    const stores = useFreshPart(leg, (store) =>
      store.kind === 'sqlite'
        ? { store, previews: sqlitePreviewUsers(store.db), resting: sqliteRestingUsers(store.db) }
        : { store, previews: mongoPreviewUsers(store.db), resting: mongoRestingUsers(store.db) },
    );
    previewCases(stores);
  });
}
