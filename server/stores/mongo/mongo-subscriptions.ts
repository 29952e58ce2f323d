import type {
  BotEventRecord,
  EventKind,
  NewBotEvent,
  Subscription,
  SubscriptionPatch,
  SubscriptionStore,
} from '../../ports/event-subscriptions.ts';
import { COLLECTIONS, fromJson, toJson } from './mongo-common.ts';
import type { MongoStore } from './mongo-store.ts';

type SubscriptionDoc = Omit<Subscription, 'id' | 'kinds'> & { _id: string; kinds: EventKind[] };

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
const APPEND_LOCK = 'subscription_events:append';

const toSubscription = ({ _id, ...doc }: SubscriptionDoc): Subscription => ({ id: _id, ...doc, kinds: [...doc.kinds] });
const toEvent = (doc: EventDoc): BotEventRecord => ({
  id: doc._id,
  seq: doc.seq,
  kind: doc.kind,
  userId: doc.userId,
  channelId: doc.channelId,
  at: doc.at,
  data: fromJson(doc.data),
});

/*
 * No transactions here (FerretDB 1.x has none). Appends are serialised by one key lock: under
 * it the next seqs are taken from max(the sequence document, the highest stored seq), the
 * events inserted in order, and only then the sequence document moved on, so a reader never
 * sees seq n+1 before n, and a crash between the insert and the move only makes the next
 * append start from the stored events. A subscription's read-check-write (the cursor
 * compare-and-set) runs under the subscription's lock.
 * MongoDB features used: insertMany (ordered), find with sort and limit, countDocuments,
 * updateOne/replaceOne by _id, deleteOne/deleteMany. No aggregation, no change streams.
 */
export function mongoSubscriptions(store: Pick<MongoStore, 'db' | 'locks'>): SubscriptionStore {
  const { db, locks } = store;
  const subscriptions = db.collection<SubscriptionDoc>(COLLECTIONS.subscriptions);
  const events = db.collection<EventDoc>(COLLECTIONS.subscriptionEvents);
  const sequence = db.collection<{ _id: string; seq: number }>(COLLECTIONS.subscriptionSequence);

  const lastSeq = async (): Promise<number> => {
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
    async createSubscription(subscription) {
      // Under the append lock: no event can land between reading the end of the log and storing the cursor.
      return locks.withLock(APPEND_LOCK, async () => {
        const doc: SubscriptionDoc = {
          _id: subscription.id,
          targetUrl: subscription.targetUrl,
          kinds: [...subscription.kinds],
          secret: subscription.secret,
          createdAt: subscription.createdAt,
          status: 'active',
          cursor: await lastSeq(),
          failures: 0,
          lastError: null,
          lastAttemptAt: null,
          lastDeliveredAt: null,
          pausedAt: null,
        };
        await subscriptions.insertOne(doc);
        return toSubscription(doc);
      });
    },
    async getSubscription(id) {
      const doc = await subscriptions.findOne({ _id: id });
      return doc ? toSubscription(doc) : null;
    },
    async listSubscriptions() {
      return (await subscriptions.find({}).sort({ createdAt: 1, _id: 1 }).toArray()).map(toSubscription);
    },
    async updateSubscription(id, patch, ifCursor) {
      return locks.withLock(`subscription:${id}`, async () => {
        const current = await subscriptions.findOne({ _id: id });
        if (!current || (ifCursor !== undefined && current.cursor !== ifCursor)) return null;
        const set = Object.fromEntries(
          Object.entries(patch).filter(([, value]) => value !== undefined),
        ) as Partial<SubscriptionPatch>;
        if (Object.keys(set).length > 0) await subscriptions.updateOne({ _id: id }, { $set: set });
        return toSubscription({ ...current, ...set });
      });
    },
    async deleteSubscription(id) {
      return locks.withLock(
        `subscription:${id}`,
        async () => (await subscriptions.deleteOne({ _id: id })).deletedCount === 1,
      );
    },
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
