/** One person's linked addresses on both stores (ports/identity-links.ts): an adapter is done when these pass on it. */
import { describe, inject } from 'vitest';
import { mongoLeg, sqliteLeg, useFreshPart, type StoreLeg } from './contract/harness.ts';
import { identityLinksCases } from './contract/identity-links-cases.ts';
import { mongoIdentityLinks } from './mongo/mongo-identity-links.ts';
import { sqliteIdentityLinks } from './sqlite/sqlite-identity-links.ts';

const mongoUrl = inject('mongoUrl');
if (mongoUrl === '') console.warn(`[identity links contract] MONGO LEG SKIPPED: ${inject('mongoSkipReason')}`);

const legs: ReadonlyArray<{ readonly leg: StoreLeg; readonly skip: boolean }> = [
  { leg: sqliteLeg, skip: false },
  { leg: mongoLeg(mongoUrl), skip: mongoUrl === '' },
];

for (const { leg, skip } of legs) {
  describe.skipIf(skip)(`Identity links contract: ${leg.name}`, () => {
    const stores = useFreshPart(leg, async (store) => ({
      links: store.kind === 'sqlite' ? sqliteIdentityLinks(store.db) : await mongoIdentityLinks(store.db),
    }));
    identityLinksCases(stores);
  });
}
