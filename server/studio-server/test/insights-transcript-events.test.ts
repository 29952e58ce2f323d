import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Contract } from '../../api/management/test/contract.ts';
import type { ConversationSummary } from '../../ports/insights.ts';
import { startTestServer, storeLegs, type TestServer } from '../../test/start-test-server.ts';
import { TRANSCRIPT_PAGE } from '../insights/conversations.ts';
import { invite, setUpOwner, type StudioClient } from './studio-client.ts';

const T0 = Date.UTC(2026, 5, 1, 9);
const MESSAGES = TRANSCRIPT_PAGE + 5;
const at = (index: number) => T0 + index * 1000;

for (const leg of storeLegs()) {
  describe.skipIf(leg.skip)(
    `the studio API: page events and triggers among a transcript's messages (${leg.name})`,
    () => {
      let server: TestServer;
      let analyst: StudioClient;
      let contract: Contract;

      beforeAll(async () => {
        server = await startTestServer(leg.env());
        contract = new Contract(
          (await (await fetch(`${server.url}/api/management/openapi.json`)).json()) as Record<string, unknown>,
        );
        const owner = await setUpOwner(server.url, server.studio.setupLink!);
        analyst = await invite(owner, 'analyst@example.com', 'analyst');
        await server.store.ensureUser({ userId: 'eve', channelId: 'webchat', now: at(-10) });
        await server.store.appendTranscript(
          'eve',
          Array.from({ length: MESSAGES }, (_, i) => ({
            from: i % 2 === 0 ? ('bot' as const) : ('user' as const),
            at: at(i),
            message: { type: 'text', text: `message ${i}` },
          })),
        );
        const summary: ConversationSummary = {
          userId: 'eve',
          startedAt: at(-1),
          lastAt: at(MESSAGES - 1),
          channel: 'webchat',
          version: 'unversioned',
          lastVersion: 'unversioned',
          steps: [],
          lastStep: null,
          integrationError: false,
          messages: MESSAGES,
          text: '',
          userData: {},
          // As the recorder keeps them, oldest first: one before the first message, one between the
          // first two, one after the first page's last message, and one during the second page.
          events: [
            { at: at(0) - 500, kind: 'pageEvent', name: 'pricing-viewed' },
            { at: at(1) + 300, kind: 'trigger', name: 'reminder' },
            { at: at(TRANSCRIPT_PAGE - 1) + 10, kind: 'timer', name: 'nudge' },
            { at: at(TRANSCRIPT_PAGE) + 500, kind: 'pageEvent', name: 'checkout' },
          ],
        };
        await server.insights.room.record({ counts: [], conversations: [summary] });
      }, 60_000);
      afterAll(async () => {
        await server?.stop();
      });

      async function transcript(query = '') {
        const url = `/studio/api/insights/users/eve${query}`;
        const answer = await analyst.get(url);
        const check = await contract.check(
          'GET',
          `${server.url}${url}`,
          new Response(answer.text, { status: answer.status, headers: answer.headers }),
        );
        expect(check.problems, `GET ${url} → ${answer.status}`).toEqual([]);
        expect(answer.status).toBe(200);
        return answer.body as {
          messages: { at: number }[];
          events: { at: number; kind: string; name: string }[];
          nextAfterSeq: number | null;
        };
      }

      it('when a transcript is read page by page, then each page carries the events that happened during its messages, oldest first, and none twice', async () => {
        const first = await transcript();
        expect(first.messages).toHaveLength(TRANSCRIPT_PAGE);
        expect(first.events.map((e) => [e.kind, e.name])).toEqual([
          ['pageEvent', 'pricing-viewed'],
          ['trigger', 'reminder'],
          ['timer', 'nudge'],
        ]);
        // Each falls between the messages the studio places it among.
        expect(first.events[1]!.at).toBeGreaterThan(first.messages[1]!.at);
        expect(first.events[1]!.at).toBeLessThan(first.messages[2]!.at);
        const second = await transcript(`?afterSeq=${first.nextAfterSeq}`);
        expect(second.messages).toHaveLength(MESSAGES - TRANSCRIPT_PAGE);
        expect(second.events.map((e) => e.name)).toEqual(['checkout']);
        expect(second.nextAfterSeq).toBeNull();
      });
    },
  );
}
