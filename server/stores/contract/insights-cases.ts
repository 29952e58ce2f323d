import { expect, it } from 'vitest';
import { DAY_MS, type ConversationSummary, type InsightsStore } from '../../ports/insights.ts';
import type { Store } from '../../ports/store.ts';

const D = 20_000;
const at = (day: number, minute = 0) => day * DAY_MS + minute * 60_000;

function conversation(
  userId: string,
  startedAt: number,
  extra: Partial<ConversationSummary> = {},
): ConversationSummary {
  return {
    userId,
    startedAt,
    lastAt: startedAt + 60_000,
    channel: 'webchat',
    version: 'v1',
    lastVersion: 'v1',
    steps: ['greeting/hello', 'greeting/ask'],
    lastStep: 'greeting/ask',
    integrationError: false,
    messages: 3,
    text: 'Hello there, where is my Parcel?',
    userData: { email: 'ann@example.com', age: 42 },
    events: [{ at: startedAt, kind: 'pageEvent', name: 'opened' }],
    ...extra,
  };
}

export interface InsightsSubject {
  readonly insights: InsightsStore;
  /** The same store's insights with a search budget of BUDGET conversations. */
  readonly budgeted: InsightsStore;
  readonly store: Store;
}

/** The budgeted insights's search budget. */
export const BUDGET = 2;

export function studioInsightsCases(subject: () => InsightsSubject): void {
  const insights = () => subject().insights;

  it('when counters are added in several writes, then a range of days sums them per day, per key and per version', async () => {
    await insights().record({
      counts: [
        { day: D, version: 'v1', metric: 'conversations', n: 2 },
        { day: D, version: 'v2', metric: 'conversations', n: 1 },
        { day: D + 1, version: 'v2', metric: 'conversations', n: 4 },
        { day: D, version: 'v1', metric: 'stepReached', a: 'greeting', b: 'ask', n: 3 },
        { day: D, version: 'v1', metric: 'unprocessed', a: 'wo ist mein paket? 100% sicher.', n: 1 },
      ],
      conversations: [],
    });
    await insights().record({
      counts: [
        { day: D, version: 'v1', metric: 'stepReached', a: 'greeting', b: 'ask', n: 2 },
        { day: D, version: 'v1', metric: 'stepStopped', a: 'greeting', b: 'ask', n: 1 },
        { day: D, version: 'v1', metric: 'stepStopped', a: 'greeting', b: 'ask', n: -1 },
        { day: D + 5, version: 'v1', metric: 'conversations', n: 9 },
      ],
      conversations: [],
    });
    const all = await insights().counters({ fromDay: D, toDay: D + 1 }, [
      'conversations',
      'stepReached',
      'stepStopped',
      'unprocessed',
    ]);
    expect(all.daily.get(D)?.get('conversations')).toBe(3);
    expect(all.daily.get(D + 1)?.get('conversations')).toBe(4);
    expect(all.daily.has(D + 5)).toBe(false);
    expect(all.totals.get('stepReached')?.get('greeting')?.get('ask')).toBe(5);
    expect(all.totals.get('stepStopped')?.get('greeting')?.get('ask') ?? 0).toBe(0);
    expect(all.totals.get('unprocessed')?.get('wo ist mein paket? 100% sicher.')?.get('')).toBe(1);
    const v2 = await insights().counters({ fromDay: D, toDay: D + 1, version: 'v2' }, ['conversations', 'stepReached']);
    expect(v2.totals.get('conversations')?.get('')?.get('')).toBe(5);
    expect(v2.totals.has('stepReached')).toBe(false);
  });

  it('when counters carry channels, then a range sums them per channel, one channel reads its own only, and counts of no channel add to the totals alone', async () => {
    await insights().record({
      counts: [
        { day: D, version: 'v1', metric: 'conversations', channel: 'webchat', n: 2 },
        { day: D, version: 'v1', metric: 'conversations', channel: 'telegram', n: 3 },
        { day: D, version: 'v2', metric: 'conversations', channel: 'telegram', n: 1 },
        { day: D + 1, version: 'v1', metric: 'messagesUser', channel: 'telegram', n: 7 },
        { day: D, version: 'v1', metric: 'stepReached', channel: 'telegram', a: 'greeting', b: 'ask', n: 4 },
        { day: D, version: 'v1', metric: 'stepReached', channel: 'webchat', a: 'greeting', b: 'ask', n: 1 },
        // Written before channels were counted.
        { day: D, version: 'v1', metric: 'conversations', n: 10 },
      ],
      conversations: [],
    });
    const metrics = ['conversations', 'messagesUser', 'stepReached'] as const;
    const all = await insights().counters({ fromDay: D, toDay: D + 1 }, metrics);
    expect(all.daily.get(D)?.get('conversations')).toBe(16);
    expect(all.totals.get('stepReached')?.get('greeting')?.get('ask')).toBe(5);
    expect(
      Object.fromEntries([...all.channels].map(([channel, byMetric]) => [channel, Object.fromEntries(byMetric)])),
    ).toEqual({
      webchat: { conversations: 2, stepReached: 1 },
      telegram: { conversations: 4, messagesUser: 7, stepReached: 4 },
    });
    const telegram = await insights().counters({ fromDay: D, toDay: D + 1, channel: 'telegram' }, metrics);
    expect(telegram.daily.get(D)?.get('conversations')).toBe(4);
    expect(telegram.daily.get(D + 1)?.get('messagesUser')).toBe(7);
    expect(telegram.totals.get('stepReached')?.get('greeting')?.get('ask')).toBe(4);
    expect([...telegram.channels.keys()]).toEqual(['telegram']);
    const telegramV2 = await insights().counters(
      { fromDay: D, toDay: D + 1, version: 'v2', channel: 'telegram' },
      metrics,
    );
    expect(telegramV2.totals.get('conversations')?.get('')?.get('')).toBe(1);
    const none = await insights().counters({ fromDay: D, toDay: D + 1, channel: 'slack' }, metrics);
    expect(none.daily.size).toBe(0);
    // Retention takes a metric's counters of every channel.
    await insights().purge(undefined, { stepReached: D + 1 });
    const left = await insights().counters({ fromDay: D, toDay: D + 1 }, metrics);
    expect(left.totals.has('stepReached')).toBe(false);
    expect(left.channels.get('telegram')?.get('conversations')).toBe(4);
  });

  it('when conversations are written and written again, then the search finds the latest of each by words, field, channel, step and error, newest first', async () => {
    await insights().record({
      counts: [],
      conversations: [
        conversation('ann', at(D, 10)),
        conversation('bob', at(D, 20), {
          channel: 'shop',
          text: 'I want a refund',
          steps: ['greeting/hello', 'refund/ask'],
          integrationError: true,
          userData: { email: 'bob@example.com' },
        }),
        conversation('cid', at(D + 1, 5), {
          text: 'parcel late again',
          userData: { email: 'cid@example.com', age: 7 },
        }),
      ],
    });
    await insights().record({
      counts: [],
      conversations: [
        conversation('ann', at(D, 10), { lastAt: at(D, 40), text: 'Hello there, where is my Parcel? Still waiting' }),
      ],
    });
    const range = { fromMs: at(D - 1), toMs: at(D + 2) };
    const ids = async (query: Partial<Parameters<InsightsStore['searchConversations']>[0]>) =>
      (await insights().searchConversations({ ...range, limit: 10, ...query })).items.map((c) => c.userId);
    expect(await ids({})).toEqual(['cid', 'bob', 'ann']);
    expect(await ids({ text: 'PARCEL' })).toEqual(['cid', 'ann']);
    expect(await ids({ text: '100%' })).toEqual([]);
    expect(await ids({ field: { name: 'email', value: 'bob@example.com' } })).toEqual(['bob']);
    expect(await ids({ field: { name: 'age', value: '42' } })).toEqual(['ann']);
    expect(await ids({ channel: 'shop' })).toEqual(['bob']);
    expect(await ids({ reached: 'refund/ask' })).toEqual(['bob']);
    expect(await ids({ reached: 'refund/as' })).toEqual([]);
    expect(await ids({ integrationError: true })).toEqual(['bob']);
    expect(await ids({ fromMs: at(D + 1), toMs: at(D + 2) })).toEqual(['cid']);
    const ann = (await insights().searchConversations({ ...range, limit: 10, text: 'still waiting' })).items[0];
    expect(ann?.lastAt).toBe(at(D, 40));
    expect(ann?.events).toEqual([{ at: at(D, 10), kind: 'pageEvent', name: 'opened' }]);
  });

  it('when the search is read in pages, then each page carries on after the last one with nothing repeated or missed', async () => {
    const many = Array.from({ length: 7 }, (_, i) => conversation(`u${i}`, at(D, i * 3)));
    await insights().record({ counts: [], conversations: many });
    const seen: string[] = [];
    let before: { startedAt: number; userId: string } | undefined;
    for (let page = 0; page < 10; page++) {
      const result = await insights().searchConversations({
        fromMs: at(D),
        toMs: at(D + 1),
        limit: 3,
        ...(before ? { before } : {}),
      });
      seen.push(...result.items.map((c) => c.userId));
      if (!result.next) break;
      before = result.next;
    }
    expect(seen).toEqual(['u6', 'u5', 'u4', 'u3', 'u2', 'u1', 'u0']);
  });

  it('when a search reads its budget of conversations before it fills a page, then it says how many it read and how far back, and the next pages carry on to the match with nothing repeated', async () => {
    // One conversation a day over five days; only the oldest holds the words.
    const days = [4, 3, 2, 1, 0].map((ago) =>
      conversation(`b${ago}`, at(D - ago, 1), ago === 4 ? { text: 'I want a refund' } : { text: 'opening hours' }),
    );
    await insights().record({ counts: [], conversations: days });
    const first = await subject().budgeted.searchConversations({
      fromMs: at(D - 4),
      toMs: at(D + 1),
      limit: 10,
      text: 'refund',
    });
    expect(first.items).toEqual([]);
    expect(first.searched).toBe(BUDGET);
    // Everything since the second newest day's conversation was read, nothing before that day.
    expect(first.searchedBackTo).toBeLessThanOrEqual(at(D - 1, 1));
    expect(first.searchedBackTo).toBeGreaterThan(at(D - 2, 1));
    let before = first.next;
    const found: string[] = [];
    for (let page = 0; page < 5 && before; page++) {
      const next = await subject().budgeted.searchConversations({
        fromMs: at(D - 4),
        toMs: at(D + 1),
        limit: 10,
        text: 'refund',
        before,
      });
      found.push(...next.items.map((c) => c.userId));
      before = next.next;
    }
    expect(found).toEqual(['b4']);
    // Without words the budget is the same: a page of the newest, then the rest.
    const plain = await subject().budgeted.searchConversations({ fromMs: at(D - 4), toMs: at(D + 1), limit: 10 });
    expect(plain.items.map((c) => c.userId)).toEqual(['b0', 'b1']);
    expect(plain.searched).toBe(BUDGET);
  });

  it('when a user is erased, then their conversations are gone from the search and from their list, and others stay', async () => {
    await insights().record({
      counts: [],
      conversations: [conversation('ann', at(D, 1)), conversation('ann', at(D + 1, 1)), conversation('bob', at(D, 2))],
    });
    expect((await insights().conversationsOf('ann', 10)).map((c) => c.startedAt)).toEqual([at(D + 1, 1), at(D, 1)]);
    expect(await insights().eraseUser('ann')).toBe(2);
    expect(await insights().conversationsOf('ann', 10)).toEqual([]);
    expect(
      (await insights().searchConversations({ fromMs: at(D), toMs: at(D + 2), limit: 10 })).items.map((c) => c.userId),
    ).toEqual(['bob']);
  });

  it('when conversations had a turn since a time, then they are the open ones', async () => {
    await insights().record({
      counts: [],
      conversations: [
        conversation('ann', at(D, 0), { lastAt: at(D, 50), lastStep: 'menu/pick' }),
        conversation('bob', at(D, 0), { lastAt: at(D, 5) }),
      ],
    });
    expect(await insights().openConversations(at(D, 30), 100)).toEqual([
      { startedAt: at(D, 0), channel: 'webchat', lastAt: at(D, 50), lastVersion: 'v1', lastStep: 'menu/pick' },
    ]);
  });

  it('when retention purges, then older conversations and the texts of earlier days go, and the plain counts stay', async () => {
    await insights().record({
      counts: [
        { day: D, version: 'v1', metric: 'conversations', n: 1 },
        { day: D + 3, version: 'v1', metric: 'conversations', n: 1 },
        { day: D, version: 'v1', metric: 'unprocessed', a: 'my number is 555', n: 1 },
        { day: D + 3, version: 'v1', metric: 'unprocessed', a: 'later words', n: 1 },
        { day: D, version: 'v1', metric: 'faqMiss', a: 'an old question', n: 1 },
      ],
      conversations: [conversation('ann', at(D, 1)), conversation('bob', at(D + 3, 1))],
    });
    const purged = await insights().purge(at(D + 2), { unprocessed: D + 2 });
    expect(purged.conversations).toBe(1);
    expect(
      (await insights().searchConversations({ fromMs: at(D - 1), toMs: at(D + 5), limit: 10 })).items.map(
        (c) => c.userId,
      ),
    ).toEqual(['bob']);
    const left = await insights().counters({ fromDay: D, toDay: D + 5 }, ['conversations', 'unprocessed', 'faqMiss']);
    expect([...left.daily.keys()].sort()).toEqual([D, D + 3]);
    expect([...(left.totals.get('unprocessed')?.keys() ?? [])]).toEqual(['later words']);
    expect(left.totals.get('faqMiss')?.get('an old question')?.get('')).toBe(1);
    expect(left.daily.get(D)?.get('conversations')).toBe(1);
  });

  it("when one user's log rows are asked for, then only theirs of the kinds asked come, oldest first, within the range", async () => {
    const store = subject().store;
    await store.ensureUser({ userId: 'ann', channelId: 'webchat', now: 1 });
    await store.appendLog('integrationLog', {
      userId: 'ann',
      timestamp: 2000,
      data: { url: 'https://api.example/b', responseStatus: 500 },
    });
    await store.appendLog('integrationLog', {
      userId: 'ann',
      timestamp: 1000,
      data: { url: 'https://api.example/a', responseStatus: 200 },
    });
    await store.appendLog('integrationLog', { userId: 'bob', timestamp: 1500, data: { url: 'https://api.example/x' } });
    await store.appendLog('nlpLog', { userId: 'ann', timestamp: 1200, data: { query: 'hi' } });
    const rows = await insights().userLogs('ann', ['integrationLog'], 0, 5000, 10);
    expect(rows.map((r) => [r.kind, r.timestamp, r.data.url])).toEqual([
      ['integrationLog', 1000, 'https://api.example/a'],
      ['integrationLog', 2000, 'https://api.example/b'],
    ]);
    expect(await insights().userLogs('ann', ['integrationLog'], 1500, 5000, 10)).toHaveLength(1);
  });

  it('when a preview user is created, then the user record says so and the store lists them among preview users only', async () => {
    const store = subject().store;
    await store.ensureUser({ userId: 'real', channelId: 'webchat', now: 1 });
    await store.ensureUser({ userId: 'draft-run', channelId: 'webchat', now: 1, preview: { accountId: 'acc-1' } });
    expect((await store.getUser('draft-run'))?.preview).toEqual({ accountId: 'acc-1' });
    expect((await store.getUser('real'))?.preview).toBeUndefined();
    expect(await store.previewUsers()).toEqual(['draft-run']);
  });
}
