import type { Db } from 'mongodb';
import type { ChannelInbox } from '../../ports/channel-inbox.ts';
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

/** The connectors' inbound events on MongoDB: the `_id` is (channel, event id), so the server refuses a second copy. */
export async function mongoChannelInbox(db: Db): Promise<ChannelInbox> {
  const events = await indexedCollection<InboundDoc>(db, COLLECTION, [{ key: { receivedAt: 1 }, name: 'receivedAt' }]);
  return {
    async accept(event) {
      const _id = JSON.stringify([event.channel, event.eventId]);
      try {
        await events.insertOne({
          _id,
          channel: event.channel,
          eventId: event.eventId,
          jobId: event.jobId,
          receivedAt: event.receivedAt,
        });
        return { fresh: true, jobId: event.jobId, receivedAt: event.receivedAt };
      } catch (error) {
        if (!isDuplicateKey(error)) throw error;
        const first = await events.findOne({ _id }, { projection: { jobId: 1, receivedAt: 1 } });
        return { fresh: false, jobId: first?.jobId ?? event.jobId, receivedAt: first?.receivedAt ?? event.receivedAt };
      }
    },
    async purge(before) {
      return (await events.deleteMany({ receivedAt: { $lt: before } })).deletedCount;
    },
  };
}
