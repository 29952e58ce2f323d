import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Contract } from '../../api/management/test/contract.ts';
import { DAY_MS, type ConversationSummary } from '../../ports/insights.ts';
import { startTestServer, storeLegs, type TestServer } from '../../test/start-test-server.ts';
import { invite, setUpOwner, type StudioClient } from './studio-client.ts';

/** Conversations a search reads at most, for this server: small, so five conversations go past it. */
const BUDGET = 3;

function conversation(userId: string, startedAt: number, text: string): ConversationSummary {
  return {
    userId,
    startedAt,
    lastAt: startedAt + 60_000,
    channel: 'webchat',
    version: 'unversioned',
    lastVersion: 'unversioned',
    steps: ['main/ask'],
    lastStep: 'main/ask',
    integrationError: false,
    messages: 2,
    text,
    userData: {},
    events: [],
  };
}

for (const leg of storeLegs()) {
  describe.skipIf(leg.skip)(`the studio API: a conversation search stops at its budget (${leg.name})`, () => {
    let server: TestServer;
    let analyst: StudioClient;
    let contract: Contract;
    const today = Math.floor(Date.now() / DAY_MS);

    beforeAll(async () => {
      server = await startTestServer({ ...leg.env(), INSIGHTS_SEARCH_BUDGET: String(BUDGET) });
      contract = new Contract(
        (await (await fetch(`${server.url}/api/management/openapi.json`)).json()) as Record<string, unknown>,
      );
      const owner = await setUpOwner(server.url, server.studio.setupLink!);
      analyst = await invite(owner, 'analyst@example.com', 'analyst');
      // Five conversations, one a day over the last five days, written as the recorder writes them; only the oldest holds the word.
      await server.insights.room.record({
        counts: [],
        conversations: [4, 3, 2, 1, 0].map((ago) =>
          conversation(
            `visitor-${ago}`,
            (today - ago) * DAY_MS + 3_600_000,
            ago === 4 ? 'i want a refund' : 'opening hours please',
          ),
        ),
      });
    }, 60_000);
    afterAll(async () => {
      await server?.stop();
    });

    async function search(query: string) {
      const url = `/studio/api/insights/conversations?${query}`;
      const answer = await analyst.get(url);
      const check = await contract.check(
        'GET',
        `${server.url}${url}`,
        new Response(answer.text, { status: answer.status, headers: answer.headers }),
      );
      expect(check.problems, `GET ${url} → ${answer.status}`).toEqual([]);
      expect(answer.status).toBe(200);
      return answer.body as {
        conversations: { userId: string }[];
        nextCursor: string | null;
        searchedBackTo?: number;
        searchedConversations?: number;
      };
    }

    // The range is the five days of conversations: the Mongo adapter also stops after 700 ms, and reads days with none too.
    const range = () => `from=${new Date((today - 4) * DAY_MS).toISOString().slice(0, 10)}`;

    it('when a search by words reads more conversations than its budget, then it stops there, says how many it read and how far back, and the next page carries on to the match', async () => {
      const first = await search(`text=refund&${range()}`);
      expect(first.conversations).toEqual([]);
      expect(first.searchedConversations).toBe(BUDGET);
      // It read the three newest days: every conversation that started since the third newest one's day.
      expect(first.searchedBackTo).toBeLessThanOrEqual((today - 2) * DAY_MS + 3_600_000);
      expect(first.searchedBackTo).toBeGreaterThan((today - 3) * DAY_MS + 3_600_000);
      expect(first.nextCursor).toEqual(expect.any(String));

      const second = await search(`text=refund&${range()}&cursor=${first.nextCursor}`);
      expect(second.conversations.map((c) => c.userId)).toEqual(['visitor-4']);
      expect(second.searchedBackTo).toBeUndefined();
      expect(second.nextCursor).toBeNull();
    });

    it('when a search finds a full page before its budget, then it does not say it stopped', async () => {
      const page = await search(`text=hours&limit=2&${range()}`);
      expect(page.conversations.map((c) => c.userId)).toEqual(['visitor-0', 'visitor-1']);
      expect(page.searchedBackTo).toBeUndefined();
      expect(page.searchedConversations).toBeUndefined();
    });

    it('when a search with no words reads the range within its budget, then every conversation comes back and nothing is said about a budget', async () => {
      const page = await search(`from=${new Date((today - 1) * DAY_MS).toISOString().slice(0, 10)}`);
      expect(page.conversations.map((c) => c.userId)).toEqual(['visitor-0', 'visitor-1']);
      expect(page.searchedBackTo).toBeUndefined();
    });
  });
}
