import type { EventKind, Subscription, SubscriptionPatch, SubscriptionStore } from '../../ports/event-subscriptions.ts';
import type { SubscriptionRecords } from '../common/subscription-parts.ts';
import { COLLECTIONS } from './mongo-common.ts';
import { APPEND_LOCK, lastSeqOf, mongoEventLog } from './mongo-event-log.ts';
import type { MongoStore } from './mongo-store.ts';

type SubscriptionDoc = Omit<Subscription, 'id' | 'kinds'> & { _id: string; kinds: EventKind[] };

const toSubscription = ({ _id, ...doc }: SubscriptionDoc): Subscription => ({ id: _id, ...doc, kinds: [...doc.kinds] });

/*
 * No transactions here (FerretDB 1.x has none). A subscription's read-check-write (the cursor
 * compare-and-set) runs under the subscription's lock; a new one starts at the end of the event
 * log (mongo-event-log.ts), read under the log's append lock.
 * MongoDB features used: insertOne, find with sort, updateOne by _id, deleteOne.
 */
export function mongoSubscriptions(store: Pick<MongoStore, 'db' | 'locks'>): SubscriptionStore {
  return { ...mongoSubscriptionRecords(store), ...mongoEventLog(store) };
}

function mongoSubscriptionRecords(store: Pick<MongoStore, 'db' | 'locks'>): SubscriptionRecords {
  const { db, locks } = store;
  const subscriptions = db.collection<SubscriptionDoc>(COLLECTIONS.subscriptions);
  const lastSeq = lastSeqOf(db);

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
  };
}
