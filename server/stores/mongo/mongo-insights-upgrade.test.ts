/**
 * The MongoDB insights insights opening on data of earlier shapes (counters as nested `$inc` fields
 * in the `insights` collection, no open-conversation lists; conversation buckets as nested JSON
 * strings there; one open list a day): what was counted reads the same after the upgrade, once,
 * a conversation going on at the upgrade is still open for the drop-off, and the conversations
 * are found by the search and the transcript view as before.
 */
import { MongoClient, type Db } from 'mongodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DAY_MS, dayOf, type ConversationSummary } from '../../ports/insights.ts';
import { openMongoStore, type MongoStore } from './mongo-store.ts';
import { CONVERSATIONS_COLLECTION } from './mongo-insight-conversations.ts';
import { OPEN_COLLECTION } from './mongo-insight-docs.ts';
import { bucketId, bucketOf, conversationKey, encodeKey, mongoInsights } from './mongo-insights.ts';

const mongoUrl = inject('mongoUrl');

function summary(userId: string, startedAt: number, lastAt: number): ConversationSummary {
  return {
    userId,
    startedAt,
    lastAt,
    channel: 'webchat',
    version: 'v1',
    lastVersion: 'v1',
    steps: ['menu/ask'],
    lastStep: 'menu/ask',
    integrationError: false,
    messages: 2,
    text: 'hello',
    userData: {},
    events: [],
  };
}

describe.skipIf(!mongoUrl)('MongoDB insights insights on data of the earlier shape', () => {
  let store: MongoStore;
  let client: MongoClient;
  let db: Db;
  const now = Date.now();
  const today = dayOf(now);

  beforeAll(async () => {
    const dbName = `insights_upgrade_${process.pid}_${now.toString(36)}`;
    store = await openMongoStore({ url: mongoUrl, dbName });
    client = await MongoClient.connect(mongoUrl);
    db = client.db(dbName);
    // What the earlier insights wrote: a day's counters per version and for every version, nested and encoded.
    const nested = (n: number) => ({
      conversations: { [encodeKey('')]: { [encodeKey('')]: n } },
      unprocessed: { [encodeKey('what about it?')]: { [encodeKey('')]: n } },
      stepReached: { [encodeKey('menu')]: { [encodeKey('ask')]: n } },
    });
    await db.collection('insights').insertMany([
      { _id: `n:${today - 1}:${encodeKey('v1')}` as never, kind: 'n', day: today - 1, c: nested(3) },
      { _id: `n:${today - 1}:*` as never, kind: 'n', day: today - 1, c: nested(3) },
      { _id: `n:${today}:${encodeKey('v1')}` as never, kind: 'n', day: today, c: nested(2) },
      { _id: `n:${today}:*` as never, kind: 'n', day: today, c: nested(2) },
    ]);
    // A conversation going on (its last turn a minute ago) and one long over, in their day buckets.
    const going = summary('ann', now - 10 * 60_000, now - 60_000);
    const over = summary('bob', now - 3 * DAY_MS, now - 3 * DAY_MS + 60_000);
    for (const s of [going, over]) {
      await db
        .collection('insights')
        .updateOne(
          { _id: bucketId(dayOf(s.startedAt), bucketOf(s.userId)) as never },
          { $set: { kind: 'c', day: dayOf(s.startedAt), [`c.${conversationKey(s)}`]: JSON.stringify(s) } },
          { upsert: true },
        );
      await db
        .collection('insight_users')
        .updateOne(
          { _id: s.userId as never },
          { $set: { [`c.${conversationKey(s)}`]: bucketId(dayOf(s.startedAt), bucketOf(s.userId)) } },
          { upsert: true },
        );
    }
  });

  afterAll(async () => {
    await db?.dropDatabase();
    await client?.close();
    await store?.close();
  });

  it('when the insights opens, then the counters read as before, per day and version, and the old documents are gone', async () => {
    const insights = await mongoInsights(store.db);
    const all = await insights.counters({ fromDay: today - 1, toDay: today }, [
      'conversations',
      'unprocessed',
      'stepReached',
    ]);
    expect(all.daily.get(today - 1)?.get('conversations')).toBe(3);
    expect(all.daily.get(today)?.get('conversations')).toBe(2);
    expect(all.totals.get('unprocessed')?.get('what about it?')?.get('')).toBe(5);
    expect(all.totals.get('stepReached')?.get('menu')?.get('ask')).toBe(5);
    const v1 = await insights.counters({ fromDay: today, toDay: today, version: 'v1' }, ['conversations']);
    expect(v1.daily.get(today)?.get('conversations')).toBe(2);
    expect(await db.collection('insights').countDocuments({ kind: 'n' })).toBe(0);
  });

  it('when the insights opens again and counts go on, then nothing is added twice', async () => {
    const insights = await mongoInsights(store.db);
    await insights.record({
      counts: [{ day: today, version: 'v1', metric: 'conversations', n: 1 }],
      conversations: [],
    });
    const again = await mongoInsights(store.db);
    const all = await again.counters({ fromDay: today - 1, toDay: today }, ['conversations']);
    expect(all.daily.get(today)?.get('conversations')).toBe(3);
    expect(all.daily.get(today - 1)?.get('conversations')).toBe(3);
  });

  it('when a conversation was going on at the upgrade, then the drop-off finds it open, and not one long over', async () => {
    const insights = await mongoInsights(store.db);
    const open = await insights.openConversations(now - 30 * 60_000, 100);
    expect(open).toEqual([
      {
        startedAt: now - 10 * 60_000,
        channel: 'webchat',
        lastAt: now - 60_000,
        lastVersion: 'v1',
        lastStep: 'menu/ask',
      },
    ]);
  });

  it('when the insights opens, then the old buckets are gone and each conversation is found by words, by user and still open', async () => {
    const insights = await mongoInsights(store.db);
    expect(await db.collection('insights').countDocuments({ kind: 'c' })).toBe(0);
    expect(await db.collection(CONVERSATIONS_COLLECTION).countDocuments({ kind: 'c' })).toBe(2);
    const found = await insights.searchConversations({
      fromMs: now - 5 * DAY_MS,
      toMs: now + DAY_MS,
      limit: 10,
      text: 'hello',
    });
    expect(found.items.map((s) => s.userId)).toEqual(['ann', 'bob']);
    expect((await insights.conversationsOf('bob', 10)).map((s) => s.startedAt)).toEqual([now - 3 * DAY_MS]);
  });

  it('when a user is erased, then no open-conversation list names them any more', async () => {
    const insights = await mongoInsights(store.db);
    expect(await insights.eraseUser('ann')).toBe(1);
    expect(await insights.openConversations(now - 30 * 60_000, 100)).toEqual([]);
    const lists = await db.collection<{ t: string }>(OPEN_COLLECTION).find({ kind: 'o' }).toArray();
    expect(lists.length).toBeGreaterThan(0);
    for (const list of lists)
      expect(
        Object.keys(JSON.parse(list.t) as object).map((key) => Buffer.from(key.slice(1), 'base64url').toString('utf8')),
      ).not.toContainEqual(expect.stringContaining('ann'));
  });
});

describe.skipIf(!mongoUrl)('MongoDB insights insights on open lists of one document a day', () => {
  let store: MongoStore;
  let client: MongoClient;
  let db: Db;
  const now = Date.now();
  const today = dayOf(now);
  const users = ['carl', 'dora', 'emil', 'fay'];

  beforeAll(async () => {
    const dbName = `insights_open_upgrade_${process.pid}_${now.toString(36)}`;
    store = await openMongoStore({ url: mongoUrl, dbName });
    client = await MongoClient.connect(mongoUrl);
    db = client.db(dbName);
    // The counters were upgraded already (u:1); the open lists still one document a day.
    await db.collection('insight_counters').insertOne({ _id: 'u:1' as never, kind: 'u', day: today, t: '{}' });
    const list = Object.fromEntries(
      users.map((userId, i) => {
        const s = summary(userId, now - (20 + i) * 60_000, now - (5 + i) * 60_000);
        return [conversationKey(s), [s.startedAt, s.lastAt, s.lastVersion, s.lastStep]];
      }),
    );
    await db
      .collection(OPEN_COLLECTION)
      .insertOne({ _id: `o:${today}` as never, kind: 'o', day: today, t: JSON.stringify(list) });
  });

  afterAll(async () => {
    await db?.dropDatabase();
    await client?.close();
    await store?.close();
  });

  it("when the insights opens, twice, then every open conversation is still open once, in the lists of its users' buckets", async () => {
    await mongoInsights(store.db);
    const insights = await mongoInsights(store.db);
    const open = await insights.openConversations(now - 60 * 60_000, 100);
    expect(open.map((o) => o.lastAt)).toEqual(users.map((_, i) => now - (5 + i) * 60_000));
    const ids = (await db.collection(OPEN_COLLECTION).find({ kind: 'o' }).toArray())
      .map((doc) => String(doc._id))
      .sort();
    expect(ids).toEqual([...new Set(users.map((userId) => `o:${today}:${bucketOf(userId)}`))].sort());
  });

  it('when a conversation of the old list goes on, then it is open with its latest turn only', async () => {
    const insights = await mongoInsights(store.db);
    const s = summary('carl', now - 20 * 60_000, now - 60_000);
    await insights.record({ counts: [], conversations: [s] });
    const open = await insights.openConversations(now - 60 * 60_000, 100);
    expect(open).toHaveLength(users.length);
    expect(open[0]).toEqual({
      startedAt: s.startedAt,
      channel: 'webchat',
      lastAt: now - 60_000,
      lastVersion: 'v1',
      lastStep: 'menu/ask',
    });
  });
});
