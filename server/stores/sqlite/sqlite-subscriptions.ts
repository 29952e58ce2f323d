import type {
  BotEventRecord,
  EventKind,
  Subscription,
  SubscriptionPatch,
  SubscriptionStore,
} from '../../ports/event-subscriptions.ts';
import { fromJson, toJson } from './json.ts';
import type { SqliteStore } from './sqlite-store.ts';

interface SubscriptionRow {
  id: string;
  target_url: string;
  kinds: string;
  secret: string;
  created_at: number;
  status: 'active' | 'paused';
  cursor: number;
  failures: number;
  last_error: string | null;
  last_attempt_at: number | null;
  last_delivered_at: number | null;
  paused_at: number | null;
}

interface EventRow {
  seq: number;
  id: string;
  kind: EventKind;
  user_id: string;
  channel_id: string;
  at: number;
  data: string;
}

const toSubscription = (row: SubscriptionRow): Subscription => ({
  id: row.id,
  targetUrl: row.target_url,
  kinds: fromJson<EventKind[]>(row.kinds),
  secret: row.secret,
  createdAt: row.created_at,
  status: row.status,
  cursor: row.cursor,
  failures: row.failures,
  lastError: row.last_error,
  lastAttemptAt: row.last_attempt_at,
  lastDeliveredAt: row.last_delivered_at,
  pausedAt: row.paused_at,
});

const toEvent = (row: EventRow): BotEventRecord => ({
  seq: row.seq,
  id: row.id,
  kind: row.kind,
  userId: row.user_id,
  channelId: row.channel_id,
  at: row.at,
  data: fromJson(row.data),
});

const COLUMNS: Record<keyof SubscriptionPatch, string> = {
  status: 'status',
  cursor: 'cursor',
  failures: 'failures',
  lastError: 'last_error',
  lastAttemptAt: 'last_attempt_at',
  lastDeliveredAt: 'last_delivered_at',
  pausedAt: 'paused_at',
};

/**
 * Event subscriptions of a store opened by openSqliteStore (migration 10). Every write is one
 * statement or one immediate transaction on the store's connection: an event's seq is handed
 * out and stored in the same transaction, so no reader ever sees a later seq without an earlier one.
 */
export function sqliteSubscriptions(store: Pick<SqliteStore, 'db'>): SubscriptionStore {
  const { db } = store;
  const select = db.prepare<[string], SubscriptionRow>('SELECT * FROM subscriptions WHERE id = ?');
  const list = db.prepare<[], SubscriptionRow>('SELECT * FROM subscriptions ORDER BY created_at, id');
  const insert = db.prepare(
    `INSERT INTO subscriptions (id, target_url, kinds, secret, created_at, status, cursor, failures)
     VALUES (@id, @targetUrl, @kinds, @secret, @createdAt, 'active', @cursor, 0)`,
  );
  const remove = db.prepare<[string]>('DELETE FROM subscriptions WHERE id = ?');
  const topSeq = db.prepare<[], { seq: number }>("SELECT seq FROM sqlite_sequence WHERE name = 'subscription_events'");
  // Checked first rather than ON CONFLICT DO NOTHING, which would use up a seq for the skipped event.
  const known = db.prepare<[string], { one: number }>('SELECT 1 AS one FROM subscription_events WHERE id = ?');
  const insertEvent = db.prepare(
    'INSERT INTO subscription_events (id, kind, user_id, channel_id, at, data) VALUES (@id, @kind, @userId, @channelId, @at, @data)',
  );
  const firstAt = db.prepare<[number], { seq: number }>(
    'SELECT MIN(seq) AS seq FROM subscription_events WHERE at >= ?',
  );
  const eraseUser = db.prepare<[string]>('DELETE FROM subscription_events WHERE user_id = ?');
  const purge = db.prepare<[number]>('DELETE FROM subscription_events WHERE at < ?');
  const lastSeq = () => topSeq.get()?.seq ?? 0;

  const kindFilter = (kinds: readonly EventKind[] | undefined) =>
    kinds === undefined
      ? { sql: '', params: [] as string[] }
      : { sql: ` AND kind IN (${kinds.map(() => '?').join(', ') || 'NULL'})`, params: [...kinds] };

  const create = db.transaction((subscription: Parameters<SubscriptionStore['createSubscription']>[0]) => {
    insert.run({ ...subscription, kinds: toJson(subscription.kinds), cursor: lastSeq() });
    return toSubscription(select.get(subscription.id)!);
  });
  const append = db.transaction((events: Parameters<SubscriptionStore['appendEvents']>[0]) => {
    let added = 0;
    for (const event of events)
      if (!known.get(event.id)) added += insertEvent.run({ ...event, data: toJson(event.data) }).changes;
    return added;
  });

  return {
    async createSubscription(subscription) {
      return create.immediate(subscription);
    },
    async getSubscription(id) {
      const row = select.get(id);
      return row ? toSubscription(row) : null;
    },
    async listSubscriptions() {
      return list.all().map(toSubscription);
    },
    async updateSubscription(id, patch, ifCursor) {
      const entries = Object.entries(patch).filter(([, value]) => value !== undefined) as [
        keyof SubscriptionPatch,
        unknown,
      ][];
      const sets = entries.map(([field]) => `${COLUMNS[field]} = ?`);
      const where = ifCursor === undefined ? 'id = ?' : 'id = ? AND cursor = ?';
      const sql =
        sets.length > 0
          ? `UPDATE subscriptions SET ${sets.join(', ')} WHERE ${where} RETURNING *`
          : `SELECT * FROM subscriptions WHERE ${where}`;
      const row = db
        .prepare<unknown[], SubscriptionRow>(sql)
        .get(...entries.map(([, value]) => value), id, ...(ifCursor === undefined ? [] : [ifCursor]));
      return row ? toSubscription(row) : null;
    },
    async deleteSubscription(id) {
      return remove.run(id).changes === 1;
    },
    async appendEvents(events) {
      return events.length === 0 ? 0 : append.immediate(events);
    },
    async readEvents({ afterSeq, kinds, limit }) {
      const filter = kindFilter(kinds);
      return db
        .prepare<unknown[], EventRow>(
          `SELECT * FROM subscription_events WHERE seq > ?${filter.sql} ORDER BY seq LIMIT ?`,
        )
        .all(afterSeq, ...filter.params, limit)
        .map(toEvent);
    },
    async countEvents({ afterSeq, kinds }) {
      const filter = kindFilter(kinds);
      return db
        .prepare<unknown[], { n: number }>(`SELECT COUNT(*) AS n FROM subscription_events WHERE seq > ?${filter.sql}`)
        .get(afterSeq, ...filter.params)!.n;
    },
    async lastEventSeq() {
      return lastSeq();
    },
    async firstEventSeqAt(at) {
      return firstAt.get(at)?.seq ?? null;
    },
    async eraseUserEvents(userId) {
      return eraseUser.run(userId).changes;
    },
    async purgeEventsBefore(at) {
      return purge.run(at).changes;
    },
  };
}
