import { afterEach, describe, expect, it } from 'vitest';
import { DAY_MS, dayOf, type InsightsBatch, type InsightsStore } from '../../ports/insights.ts';
import { openSqliteStore, type SqliteStore } from '../../stores/sqlite/sqlite-store.ts';
import { sqliteInsights } from '../../stores/sqlite/sqlite-insights.ts';
import type { UserRecord } from '../../ports/store.ts';
import type { TurnEvent } from '../../ports/turn-observer.ts';
import { InsightsRecorder } from './recorder.ts';
import { TRAIL_KEY } from './trail.ts';
import { firstTurnOf } from './test/first-turn.ts';

const NOW = 20_000 * DAY_MS + 3_600_000;
const warnings: Record<string, unknown>[] = [];
const logger = { info() {}, warn: (fields: Record<string, unknown>) => void warnings.push(fields), error() {} };

let store: SqliteStore | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
  warnings.length = 0;
});

/** The real SQLite insights; `refuse` makes the next writes fail as a store that went away would. */
function setUp(refuse = { writes: 0 }) {
  store = openSqliteStore({ file: ':memory:' });
  const real = sqliteInsights(store.db);
  const insights: InsightsStore = {
    ...real,
    record(batch: InsightsBatch) {
      if (refuse.writes > 0) {
        refuse.writes--;
        return Promise.reject(new Error('store unavailable'));
      }
      return real.record(batch);
    },
  };
  const recorder = new InsightsRecorder({
    store: insights,
    logger,
    now: () => NOW,
    version: () => 'v1',
    userOf: async () => ({ preview: false, channel: 'webchat' }),
    windowMs: 1_800_000,
  });
  return { recorder, insights: real };
}

const turnOf = (userId: string, text: string) => firstTurnOf(userId, text, NOW);

const conversations = async (insights: InsightsStore) =>
  (await insights.counters({ fromDay: dayOf(NOW), toDay: dayOf(NOW) }, ['conversations'])).daily
    .get(dayOf(NOW))
    ?.get('conversations') ?? 0;

describe('the insights recorder', () => {
  it('when the store refuses a write, then the counts are kept, logged, and written once with the next write', async () => {
    const refuse = { writes: 1 };
    const { recorder, insights } = setUp(refuse);
    const a = turnOf('u1', 'hello');
    recorder.turn('u1', false, a.counts, a.summary);
    await recorder.flush();
    expect(warnings.map((w) => w.event)).toEqual(['insights_write_failed']);
    expect(await conversations(insights)).toBe(0);
    const b = turnOf('u2', 'hi');
    recorder.turn('u2', false, b.counts, b.summary);
    await recorder.flush();
    expect(await conversations(insights)).toBe(2);
    expect((await insights.conversationsOf('u1', 5)).map((c) => c.text)).toEqual(['hello']);
    await recorder.flush();
    expect(await conversations(insights)).toBe(2);
  });

  it('when a preview user takes turns, clicks links or has calls made, then nothing of theirs is counted', async () => {
    const { recorder, insights } = setUp();
    const a = turnOf('draft', 'hello');
    recorder.turn('draft', true, a.counts, a.summary);
    await recorder.urlClick('draft', 'example.com');
    await recorder.integrationCall('draft', 500, 12);
    recorder.sent({ preview: true, channel: 'webchat' }, 1, 1);
    await recorder.close();
    const totals = await insights.counters({ fromDay: dayOf(NOW), toDay: dayOf(NOW) }, [
      'conversations',
      'urlClicks',
      'integrationCalls',
      'emailsSent',
      'smsSent',
    ]);
    expect(totals.daily.size).toBe(0);
    expect(await insights.conversationsOf('draft', 5)).toEqual([]);
  });

  it('when a user is erased before their turn was written, then their conversation never reaches the store and the counters do', async () => {
    const { recorder, insights } = setUp();
    const a = turnOf('u1', 'my secret words');
    recorder.turn('u1', false, a.counts, a.summary);
    expect(await recorder.eraseUser('u1')).toBe(0);
    await recorder.flush();
    expect(await insights.conversationsOf('u1', 5)).toEqual([]);
    expect(await conversations(insights)).toBe(1);
  });

  it('when integration calls are made, then they count by status class with a latency bucket, and a failure marks the conversation', async () => {
    const { recorder, insights } = setUp();
    await recorder.integrationCall('u1', 200, 40);
    await recorder.integrationCall('u1', 503, 900);
    await recorder.integrationCall('u1', null, 10_000);
    expect(recorder.failedSince('u1', NOW)).toBe(true);
    expect(recorder.failedSince('u2', NOW)).toBe(false);
    await recorder.flush();
    const { totals } = await insights.counters({ fromDay: dayOf(NOW), toDay: dayOf(NOW) }, ['integrationCalls']);
    const calls = totals.get('integrationCalls');
    expect([...(calls?.entries() ?? [])].map(([k, b]) => [k, b.get('')])).toEqual(
      expect.arrayContaining([
        ['2xx', 1],
        ['5xx', 1],
        ['failed', 1],
      ]),
    );
  });
});

describe('the insights recorder as an observer of turns', () => {
  const user = {
    userId: 'u1',
    channelId: 'webchat',
    variables: {},
    userData: { name: 'Ann' },
    lastMessageAt: null,
  } as unknown as UserRecord;

  it('when a turn is observed, then its trail rides in the variables for the commit and nothing counts until it is committed', async () => {
    const { recorder, insights } = setUp();
    const events: TurnEvent[] = [
      { kind: 'userWrote', text: 'hello' },
      { kind: 'stepEntered', dialogId: 'main', stepId: 'hello' },
      { kind: 'botSaid', messages: 1 },
    ];
    const note = recorder.observe({ user, now: NOW, events });
    expect(note.variables?.[TRAIL_KEY]).toMatchObject({ c: NOW, p: 'main/hello', t: 'hello', m: 2 });
    // A try that is not committed (a conflict) is observed again: the first note is dropped.
    recorder.observe({ user, now: NOW, events });
    await recorder.flush();
    expect(await conversations(insights)).toBe(0);
    note.committed?.(user);
    recorder.followed(user, [{ kind: 'emailSent' }, { kind: 'smsSent' }, { kind: 'smsSent' }]);
    await recorder.flush();
    expect(await conversations(insights)).toBe(1);
    const { totals } = await insights.counters({ fromDay: dayOf(NOW), toDay: dayOf(NOW) }, ['emailsSent', 'smsSent']);
    expect(totals.get('emailsSent')?.get('')?.get('')).toBe(1);
    expect(totals.get('smsSent')?.get('')?.get('')).toBe(2);
    expect((await insights.conversationsOf('u1', 10))[0]).toMatchObject({ text: 'hello', userData: { name: 'Ann' } });
  });
});
