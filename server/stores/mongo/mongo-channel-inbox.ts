import type { Db } from 'mongodb';
import type { ChannelInbox } from '../../ports/channel-inbox.ts';
import type { NewJob } from '../../ports/store.ts';
import { indexedCollection } from './indexes.ts';
import { isDuplicateKey } from './mongo-common.ts';

const COLLECTION = 'channel_inbound';

interface InboundDoc {
  /** `["channel","eventId"]` as JSON: the unique key is the document's own id (PostgreSQL under FerretDB takes no NUL). */
  _id: string;
  channel: string;
  eventId: string;
  jobId: string;
  receivedAt: number;
}

/**
 * The connectors' inbound events on MongoDB: the `_id` is (channel, event id), so the server refuses a second copy.
 * The event's job is stored after it, by `scheduleJob` (the store's, under its job lock): no transaction spans the
 * two, so a crash between them leaves an event without its job, which the webhook's redelivery check repairs.
 */
export async function mongoChannelInbox(db: Db, scheduleJob: (job: NewJob) => Promise<unknown>): Promise<ChannelInbox> {
  const events = await indexedCollection<InboundDoc>(db, COLLECTION, [{ key: { receivedAt: 1 }, name: 'receivedAt' }]);
  return {
    async accept(event) {
      const _id = JSON.stringify([event.channel, event.eventId]);
      try {
        await events.insertOne({
          _id,
          channel: event.channel,
          eventId: event.eventId,
          jobId: event.job.id,
          receivedAt: event.receivedAt,
        });
      } catch (error) {
        if (!isDuplicateKey(error)) throw error;
        const first = await events.findOne({ _id }, { projection: { jobId: 1, receivedAt: 1 } });
        return {
          fresh: false,
          jobId: first?.jobId ?? event.job.id,
          receivedAt: first?.receivedAt ?? event.receivedAt,
        };
      }
      await scheduleJob(event.job);
      return { fresh: true, jobId: event.job.id, receivedAt: event.receivedAt };
    },
    async purge(before) {
      return (await events.deleteMany({ receivedAt: { $lt: before } })).deletedCount;
    },
  };
}
