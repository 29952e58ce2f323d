/**
 * The Store contract, run against every adapter. An adapter is done when this
 * suite passes on it; behaviour not pinned here is not promised by the port.
 */
import { describe, inject } from 'vitest';
import { datasetCases } from './contract/dataset-cases.ts';
import { mongoLeg, sqliteLeg, useFreshStore, type StoreLeg } from './contract/harness.ts';
import { jobCases } from './contract/job-cases.ts';
import { jobPurgeCases } from './contract/job-purge-cases.ts';
import { leaseCases } from './contract/lease-cases.ts';
import { logCases } from './contract/log-cases.ts';
import { pendingCases } from './contract/pending-cases.ts';
import { subscriptionCases } from './contract/subscription-cases.ts';
import { usageCases } from './contract/usage-cases.ts';
import { storeParts } from '../start/open-store.ts';
import { jobStatsCases, personalDataCases } from './contract/personal-data-cases.ts';
import { transcriptCases } from './contract/transcript-cases.ts';
import { turnCases } from './contract/turn-cases.ts';
import { userCases } from './contract/user-cases.ts';

const mongoUrl = inject('mongoUrl');
if (mongoUrl === '') {
  console.warn(`[store contract] MONGO LEG SKIPPED: ${inject('mongoSkipReason')}`);
}

const legs: ReadonlyArray<{ readonly leg: StoreLeg; readonly skip: boolean }> = [
  { leg: sqliteLeg, skip: false },
  { leg: mongoLeg(mongoUrl), skip: mongoUrl === '' },
];

for (const { leg, skip } of legs) {
  describe.skipIf(skip)(`Store contract: ${leg.name}`, () => {
    const store = useFreshStore(leg);
    describe('users', () => userCases(store));
    describe('transcript', () => transcriptCases(store));
    describe('turns', () => turnCases(store));
    describe('logs', () => logCases(store));
    describe('jobs', () => jobCases(store));
    describe('finished jobs purge', () => jobPurgeCases(store));
    describe('datasets', () => datasetCases(store));
    describe('leases', () => leaseCases(store));
    describe('pending messages', () => pendingCases(store));
    describe('personal data', () => personalDataCases(store));
    describe('job queue', () => jobStatsCases(store));
    describe('event subscriptions', () => subscriptionCases(() => storeParts(store()).events().subscriptions));
    describe('usage counters', () => usageCases(() => storeParts(store()).events().usage));
  });
}
