/**
 * The versions room's contract and the resting-users count, run against both stores: an
 * adapter is done when these pass on it.
 */
import { describe, inject } from 'vitest';
import { mongoLeg, sqliteLeg, useFreshRoom, type StoreLeg } from './contract/harness.ts';
import { restingUsersCases } from './contract/resting-users-cases.ts';
import { studioVersionsCases } from './contract/versions-cases.ts';
import { mongoRestingUsers } from './mongo/mongo-resting-users.ts';
import { mongoVersions } from './mongo/mongo-versions.ts';
import { sqliteRestingUsers } from './sqlite/sqlite-resting-users.ts';
import { sqliteVersions } from './sqlite/sqlite-versions.ts';

const mongoUrl = inject('mongoUrl');
if (mongoUrl === '') console.warn(`[versions contract] MONGO LEG SKIPPED: ${inject('mongoSkipReason')}`);

const legs: ReadonlyArray<{ readonly leg: StoreLeg; readonly skip: boolean }> = [
  { leg: sqliteLeg, skip: false },
  { leg: mongoLeg(mongoUrl), skip: mongoUrl === '' },
];

for (const { leg, skip } of legs) {
  describe.skipIf(skip)(`Studio versions contract: ${leg.name}`, () => {
    describe('versions, publications, drafts', () => {
      const room = useFreshRoom(leg, (store) =>
        store.kind === 'sqlite' ? sqliteVersions(store.db) : mongoVersions(store.db, store.locks),
      );
      studioVersionsCases(room);
    });
    describe('users resting on a position', () => {
      const subject = useFreshRoom(leg, (store) => ({
        store,
        resting: store.kind === 'sqlite' ? sqliteRestingUsers(store.db) : mongoRestingUsers(store.db),
      }));
      restingUsersCases(subject);
    });
  });
}
