import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dayOf } from '../ports/insights.ts';
import type { Store } from '../ports/store.ts';
import { eventually, startTestServer, storeLegs, type TestServer } from '../test/start-test-server.ts';
import { RETENTION_EVERY_MS, RETENTION_JOB } from './handlers/retention.ts';

const DAY = 86_400_000;
const text = (t: string) => ({ type: 'text', text: t });

/** A user with a turn at `at`: their message and the bot's answer. */
async function turnAt(store: Store, userId: string, at: number, label: string): Promise<void> {
  const user = await store.ensureUser({ userId, channelId: 'webchat', now: at });
  await store.commitTurn({
    userId,
    expectedVersion: user.version,
    patch: { lastMessageAt: at },
    now: at,
    userEntry: { from: 'user', clientId: label, at, message: text(`${label} question`) },
    botEntries: [{ from: 'bot', at, message: text(`${label} answer`) }],
  });
}

for (const leg of storeLegs()) {
  describe.skipIf(leg.skip)(`retention (${leg.name})`, () => {
    let server: TestServer | undefined;
    let dataDir: string | undefined;
    afterAll(async () => {
      await server?.stop();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    });

    it('when the server starts with retention settings, then the durable job removes only records older than their setting, and comes back in an hour', async () => {
      const env = leg.env();
      dataDir = await mkdtemp(path.join(tmpdir(), 'retention-'));
      const now = Date.now();
      // Written by a server without retention, as a store holding years of history would be.
      const before = await startTestServer(env, dataDir);
      await turnAt(before.store, 'old-user', now - 40 * DAY, 'old');
      await turnAt(before.store, 'both-user', now - 31 * DAY, 'older');
      const both = await before.store.getUser('both-user');
      await before.store.commitTurn({
        userId: 'both-user',
        expectedVersion: both!.version,
        patch: {},
        now: now - 29 * DAY,
        botEntries: [{ from: 'bot', at: now - 29 * DAY, message: text('younger answer') }],
      });
      for (const [kind, age] of [
        ['nlpLog', 31],
        ['nlpLog', 29],
        ['integrationLog', 400],
        ['urlTracker', 8],
        ['urlTracker', 6],
      ] as const) {
        await before.store.appendLog(kind, { userId: 'both-user', timestamp: now - age * DAY, data: { age } });
      }
      // Insights keep the users' words in conversation summaries and in the counters of what was not understood.
      const summary = (userId: string, startedAt: number) => ({
        userId,
        startedAt,
        lastAt: startedAt,
        channel: 'webchat',
        version: 'v1',
        lastVersion: 'v1',
        steps: [],
        lastStep: null,
        integrationError: false,
        messages: 1,
        text: `${userId} words`,
        userData: {},
        events: [],
      });
      await before.insights.store.record({
        counts: [
          { day: dayOf(now - 31 * DAY), version: 'v1', metric: 'unprocessed', a: 'old words', n: 1 },
          { day: dayOf(now - 31 * DAY), version: 'v1', metric: 'conversations', n: 1 },
          { day: dayOf(now - 29 * DAY), version: 'v1', metric: 'unprocessed', a: 'younger words', n: 1 },
        ],
        conversations: [summary('old-user', now - 40 * DAY), summary('both-user', now - 20 * DAY)],
      });
      await before.stop();

      server = await startTestServer(
        { ...env, RETENTION_TRANSCRIPT_DAYS: '30', RETENTION_NLP_LOG_DAYS: '30', RETENTION_URL_TRACKER_DAYS: '7' },
        dataDir,
      );
      const store = server.store;
      const purged = await eventually(
        'the retention run',
        () => server!.logs.find((line) => line.event === 'retention_purged'),
        10_000,
      );
      expect(purged).toMatchObject({
        transcript: 4,
        logs: { nlpLog: 1, urlTracker: 1, integrationLog: 0 },
        insights: { conversations: 1 },
      });
      expect(await server.insights.store.conversationsOf('old-user', 5)).toStrictEqual([]);
      expect((await server.insights.store.conversationsOf('both-user', 5)).map((c) => c.text)).toStrictEqual([
        'both-user words',
      ]);
      const counters = await server.insights.store.counters({ fromDay: dayOf(now - 40 * DAY), toDay: dayOf(now) }, [
        'unprocessed',
        'conversations',
      ]);
      expect([...(counters.totals.get('unprocessed')?.keys() ?? [])]).toStrictEqual(['younger words']);
      // Counts that hold no one's words stay for the dashboard's history.
      expect(counters.daily.get(dayOf(now - 31 * DAY))?.get('conversations')).toBe(1);

      expect(await store.readTranscript('old-user', 0, 10)).toStrictEqual([]);
      expect((await store.readTranscript('both-user', 0, 10)).map((e) => [e.seq, e.message.text])).toStrictEqual([
        [3, 'younger answer'],
      ]);
      const ages = async (kind: 'nlpLog' | 'integrationLog' | 'urlTracker') => {
        const found: unknown[] = [];
        for await (const entry of store.readLogs(kind, {}))
          if (entry.userId === 'both-user') found.push(entry.data.age);
        return found;
      };
      expect(await ages('nlpLog')).toStrictEqual([29]);
      expect(await ages('urlTracker')).toStrictEqual([6]);
      // No setting for the integration log: kept however old.
      expect(await ages('integrationLog')).toStrictEqual([400]);
      // Users are not a retention kind: both still exist, with their numbering.
      expect((await store.getUser('old-user'))?.lastSeq).toBe(2);

      const job = await eventually('the next run scheduled', async () => {
        const found = await store.getJob(RETENTION_JOB);
        return found?.status === 'pending' ? found : undefined;
      });
      expect(job.runAt).toBeGreaterThanOrEqual(now + RETENTION_EVERY_MS);
    });
  });
}
