/**
 * The studio's people-side rooms (accounts, sessions, audit trail, secrets) under their
 * contract, on both stores.
 */
import { describe, inject } from 'vitest';
import { mongoLeg, sqliteLeg, useFreshRoom, type StoreLeg } from './contract/harness.ts';
import { studioAccountCases } from './contract/accounts-cases.ts';
import { studioAuditCases } from './contract/audit-cases.ts';
import { studioSecretCases } from './contract/secrets-cases.ts';
import { studioSessionCases } from './contract/sessions-cases.ts';
import { openPeopleRooms } from './studio-rooms.ts';

const mongoUrl = inject('mongoUrl');
if (mongoUrl === '') console.warn(`[studio contract] MONGO LEG SKIPPED: ${inject('mongoSkipReason')}`);

const legs: ReadonlyArray<{ readonly leg: StoreLeg; readonly skip: boolean }> = [
  { leg: sqliteLeg, skip: false },
  { leg: mongoLeg(mongoUrl), skip: mongoUrl === '' },
];

for (const { leg, skip } of legs) {
  describe.skipIf(skip)(`Studio people rooms contract: ${leg.name}`, () => {
    const rooms = useFreshRoom(leg, openPeopleRooms);
    describe('accounts', () => studioAccountCases(() => rooms().accounts));
    describe('sessions', () => studioSessionCases(() => rooms().sessions));
    describe('audit trail', () => studioAuditCases(() => rooms().audit));
    describe('secrets', () => studioSecretCases(() => rooms().secrets));
  });
}
