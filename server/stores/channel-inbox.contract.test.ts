/** The connectors' inbound events on both stores (ports/channel-inbox.ts): an adapter is done when these pass on it. */
import { describe, inject } from 'vitest';
import { mongoLeg, sqliteLeg, useFreshPart, type StoreLeg } from './contract/harness.ts';
import { channelInboxCases } from './contract/channel-inbox-cases.ts';
import { mongoChannelInbox } from './mongo/mongo-channel-inbox.ts';
import { sqliteChannelInbox } from './sqlite/sqlite-channel-inbox.ts';

const mongoUrl = inject('mongoUrl');
if (mongoUrl === '') console.warn(`[channel inbox contract] MONGO LEG SKIPPED: ${inject('mongoSkipReason')}`);

const legs: ReadonlyArray<{ readonly leg: StoreLeg; readonly skip: boolean }> = [
  { leg: sqliteLeg, skip: false },
  { leg: mongoLeg(mongoUrl), skip: mongoUrl === '' },
];

for (const { leg, skip } of legs) {
  describe.skipIf(skip)(`Channel inbox contract: ${leg.name}`, () => {
    const stores = useFreshPart(leg, async (store) => ({
      inbox:
        store.kind === 'sqlite'
          ? sqliteChannelInbox(store.db)
          : await mongoChannelInbox(store.db, (job) => store.scheduleJob(job)),
      getJob: (id: string) => store.getJob(id),
    }));
    channelInboxCases(stores);
  });
}
