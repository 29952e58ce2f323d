/**
 * The studio's people-side stores (accounts, sessions, audit trail, secrets) under their
 * contract, on both stores.
 */
import { describe, inject } from 'vitest';
import { mongoLeg, sqliteLeg, useFreshPart, type StoreLeg } from './contract/harness.ts';
import { studioAccountCases } from './contract/accounts-cases.ts';
import { studioAuditCases } from './contract/audit-cases.ts';
import { studioSecretCases } from './contract/secrets-cases.ts';
import { studioSessionCases } from './contract/sessions-cases.ts';
import { storeParts } from '../start/open-store.ts';

const mongoUrl = inject('mongoUrl');
if (mongoUrl === '') console.warn(`[studio contract] MONGO LEG SKIPPED: ${inject('mongoSkipReason')}`);

const legs: ReadonlyArray<{ readonly leg: StoreLeg; readonly skip: boolean }> = [
  { leg: sqliteLeg, skip: false },
  { leg: mongoLeg(mongoUrl), skip: mongoUrl === '' },
];

for (const { leg, skip } of legs) {
  describe.skipIf(skip)(`Studio people stores contract: ${leg.name}`, () => {
    const stores = useFreshPart(leg, (store) => storeParts(store).people());
    describe('accounts', () => studioAccountCases(() => stores().accounts));
    describe('sessions', () => studioSessionCases(() => stores().sessions));
    describe('audit trail', () => studioAuditCases(() => stores().audit));
    describe('secrets', () => studioSecretCases(() => stores().secrets));
  });
}
