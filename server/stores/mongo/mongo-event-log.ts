import type { Db } from 'mongodb';
import type { BotEventRecord, EventKind, NewBotEvent } from '../../ports/event-subscriptions.ts';
import type { EventLog } from '../common/subscription-parts.ts';
import { COLLECTIONS, fromJson, toJson } from './mongo-common.ts';
import type { MongoStore } from './mongo-store.ts';

interface EventDoc {
  /** The event's id. */
  _id: string;
  seq: number;
  kind: EventKind;
  userId: string;
  channelId: string;
  at: number;
  /** JSON text: FerretDB refuses keys with "." or "$", and the port gives data back as given. */
  data: string;
}

const SEQUENCE_ID = 'events';
/** All appends take this lock: a seq is handed out and its event inserted before the next append starts. */
export const APPEND_LOCK = 'subscription_events:append';

const toEvent = (doc: EventDoc): BotEventRecord => ({
  id: doc._id,
  seq: doc.seq,
  kind: doc.kind,
  userId: doc.userId,
  channelId: doc.channelId,
  at: doc.at,
  data: fromJson(doc.data),
});

/** The highest seq ever handed out: the sequence document's, or the highest stored if a crash kept it behind. */
export function lastSeqOf(db: Db): () => Promise<number> {
  const events = db.collection<EventDoc>(COLLECTIONS.subscriptionEvents);
  const sequence = db.collection<{ _id: string; seq: number }>(COLLECTIONS.subscriptionSequence);
  return async (): Promise<number> => {
    const [counter, top] = await Promise.all([
      sequence.findOne({ _id: SEQUENCE_ID }),
      events
        .find({}, { projection: { seq: 1 } })
        .sort({ seq: -1 })
        .limit(1)
        .next(),
    ]);
    return Math.max(counter?.seq ?? 0, top?.seq ?? 0);
  };
}

/*
 * Appends are serialised by one key lock: under it the next seqs are taken from max(the sequence
 * document, the highest stored seq), the events inserted in order, and only then the sequence
 * document moved on, so a reader never sees seq n+1 before n, and a crash between the insert and
 * the move only makes the next append start from the stored events.
 * MongoDB features used: insertMany (ordered), find with sort and limit, countDocuments,
 * replaceOne with upsert by _id, deleteMany. No aggregation, no change streams.
 */
export function mongoEventLog(store: Pick<MongoStore, 'db' | 'locks'>): EventLog {
  const { db, locks } = store;
  const events = db.collection<EventDoc>(COLLECTIONS.subscriptionEvents);
  const sequence = db.collection<{ _id: string; seq: number }>(COLLECTIONS.subscriptionSequence);
  const lastSeq = lastSeqOf(db);
  // Keeps the sequence document past the removed events: their seqs are never handed out again.
  const removeEvents = (filter: Parameters<typeof events.deleteMany>[0]) =>
    locks.withLock(APPEND_LOCK, async () => {
      const top = await lastSeq();
      const { deletedCount } = await events.deleteMany(filter);
      await sequence.replaceOne({ _id: SEQUENCE_ID }, { seq: top }, { upsert: true });
      return deletedCount;
    });
  const kindFilter = (kinds: readonly EventKind[] | undefined) =>
    kinds === undefined ? {} : { kind: { $in: [...kinds] } };

  return {
    async appendEvents(batch: readonly NewBotEvent[]) {
      if (batch.length === 0) return 0;
      return locks.withLock(APPEND_LOCK, async () => {
        const known = new Set(
          (await events.find({ _id: { $in: batch.map((e) => e.id) } }, { projection: { _id: 1 } }).toArray()).map(
            (d) => d._id,
          ),
        );
        const fresh = batch.filter(
          (event, i) => !known.has(event.id) && batch.findIndex((other) => other.id === event.id) === i,
        );
        if (fresh.length === 0) return 0;
        let seq = await lastSeq();
        const docs = fresh.map((event): EventDoc => ({
          _id: event.id,
          seq: ++seq,
          kind: event.kind,
          userId: event.userId,
          channelId: event.channelId,
          at: event.at,
          data: toJson(event.data),
        }));
        await events.insertMany(docs, { ordered: true });
        await sequence.replaceOne({ _id: SEQUENCE_ID }, { seq }, { upsert: true });
        return docs.length;
      });
    },
    async readEvents({ afterSeq, kinds, limit }) {
      return (
        await events
          .find({ seq: { $gt: afterSeq }, ...kindFilter(kinds) })
          .sort({ seq: 1 })
          .limit(limit)
          .toArray()
      ).map(toEvent);
    },
    async countEvents({ afterSeq, kinds }) {
      return events.countDocuments({ seq: { $gt: afterSeq }, ...kindFilter(kinds) });
    },
    lastEventSeq: lastSeq,
    async firstEventSeqAt(at) {
      const first = await events
        .find({ at: { $gte: at } }, { projection: { seq: 1 } })
        .sort({ seq: 1 })
        .limit(1)
        .next();
      return first?.seq ?? null;
    },
    async eraseUserEvents(userId) {
      return removeEvents({ userId });
    },
    async purgeEventsBefore(at) {
      return removeEvents({ at: { $lt: at } });
    },
  };
}
