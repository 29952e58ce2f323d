import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Contract } from '../../api/management/test/contract.ts';
import type { Role } from '../../ports/roles.ts';
import { startTestServer, storeLegs, type TestServer } from '../../test/start-test-server.ts';
import { EXPECTED, runScript, shopBot, startStock, STOCK_TOKEN } from './insights-script.ts';
import { invite, setUpOwner, type StudioClient } from './studio-client.ts';

const WINDOW_MS = 2000;

for (const leg of storeLegs()) {
  describe.skipIf(leg.skip)(`the studio API: insights (${leg.name})`, () => {
    let dir: string;
    let stock: Awaited<ReturnType<typeof startStock>>;
    let server: TestServer;
    let contract: Contract;
    let users: Awaited<ReturnType<typeof runScript>>;
    const as = {} as Record<Role, StudioClient>;

    beforeAll(async () => {
      dir = await mkdtemp(path.join(tmpdir(), 'insights-api-'));
      stock = await startStock();
      const file = path.join(dir, 'bot.json');
      await writeFile(file, JSON.stringify(shopBot(stock.url)));
      server = await startTestServer(
        {
          ...leg.env(),
          BOT_DEFINITION: file,
          INTEGRATION_ALLOWED_HOSTS: '127.0.0.1',
          WEBCHAT_RATE_LIMIT: '10000',
          INSIGHTS_WINDOW: `${WINDOW_MS / 1000}s`,
        },
        undefined,
        { env: { STOCK_TOKEN } },
      );
      contract = new Contract(
        (await (await fetch(`${server.url}/api/management/openapi.json`)).json()) as Record<string, unknown>,
      );
      as.owner = await setUpOwner(server.url, server.studio.setupLink!);
      for (const role of ['editor', 'analyst', 'viewer'] as const)
        as[role] = await invite(as.owner, `${role}@example.com`, role);
      users = await runScript(server.url);
      // Every conversation is over once the window passed without a turn.
      await new Promise((resolve) => setTimeout(resolve, WINDOW_MS + 200));
      await server.insights.recorder!.flush();
    }, 120_000);
    afterAll(async () => {
      await server?.stop();
      await stock?.close();
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    /** GET as `role`, checked against the OpenAPI document. */
    async function read(role: Role, url: string) {
      const answer = await as[role].get(url);
      const check = await contract.check(
        'GET',
        `${server.url}${url}`,
        new Response(answer.text, { status: answer.status, headers: answer.headers }),
      );
      expect(check.problems, `GET ${url} → ${answer.status}`).toEqual([]);
      return answer;
    }

    it('when the scripted conversations ran, then the dashboard shows exactly their conversations, users, messages, completions, misses and calls', async () => {
      const res = await read('analyst', '/studio/api/insights/dashboard');
      expect(res.status).toBe(200);
      const today = res.body.daily.at(-1);
      expect(res.body.daily).toHaveLength(30);
      expect(today).toMatchObject({
        date: new Date().toISOString().slice(0, 10),
        conversations: EXPECTED.conversations,
        activeUsers: EXPECTED.activeUsers,
        messagesUser: EXPECTED.messagesUser,
      });
      expect(res.body.totals.conversations).toBe(EXPECTED.conversations);
      const dialogs = Object.fromEntries(
        res.body.dialogs.map((d: { dialogId: string; started: number; completed: number }) => [
          d.dialogId,
          { started: d.started, completed: d.completed },
        ]),
      );
      expect(dialogs).toEqual(EXPECTED.dialogs);
      expect(res.body.unprocessed).toEqual([{ text: EXPECTED.unprocessed, count: 1 }]);
      const calls = Object.fromEntries(
        res.body.integrations.map((i: { status: string; calls: number }) => [i.status, i.calls]),
      );
      expect(calls).toEqual(EXPECTED.integrations);
      for (const row of res.body.integrations) expect(row.p95Ms).toBeGreaterThanOrEqual(row.p50Ms);
      expect(res.body.sent).toEqual({ emails: 0, sms: 0 });
      expect(res.body.channels).toEqual([
        {
          channel: 'webchat',
          conversations: EXPECTED.conversations,
          messagesUser: EXPECTED.messagesUser,
          messagesBot: res.body.totals.messagesBot,
        },
      ]);
    });

    it('when the dashboard and the drop-off are read for one channel, then they count the conversations started on it only', async () => {
      const webchat = await read('analyst', '/studio/api/insights/dashboard?channel=webchat');
      expect(webchat.body.channel).toBe('webchat');
      expect(webchat.body.totals.conversations).toBe(EXPECTED.conversations);
      const calls = webchat.body.integrations.map((i: { status: string; calls: number }) => [i.status, i.calls]);
      expect(Object.fromEntries(calls)).toEqual(EXPECTED.integrations);
      const telegram = await read('analyst', '/studio/api/insights/dashboard?channel=telegram');
      expect(telegram.body).toMatchObject({
        channel: 'telegram',
        totals: { conversations: 0, messagesUser: 0, messagesBot: 0 },
        channels: [],
        dialogs: [],
        integrations: [],
      });
      const dropOff = await read('analyst', '/studio/api/insights/drop-off?channel=telegram');
      expect(dropOff.body.channel).toBe('telegram');
      expect(dropOff.body.steps.filter((s: { reached: number }) => s.reached > 0)).toEqual([]);
      const webchatDropOff = await read('analyst', '/studio/api/insights/drop-off?channel=webchat');
      expect(webchatDropOff.body.steps).toEqual((await read('analyst', '/studio/api/insights/drop-off')).body.steps);
    });

    it('when the drop-off of the version in service is read, then each step shows exactly how many reached it and how many stopped there, in definition order', async () => {
      const res = await read('analyst', '/studio/api/insights/drop-off');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ version: 'v1', windowMs: WINDOW_MS, open: 0 });
      const steps = res.body.steps as { dialogId: string; stepId: string; reached: number; stopped: number }[];
      expect(steps.slice(0, 6).map((s) => s.stepId)).toEqual(['hello', 'name', 'city', 'lookup', 'thanks', 'finish']);
      const reached = Object.fromEntries(
        steps.filter((s) => s.reached > 0).map((s) => [`${s.dialogId}/${s.stepId}`, s.reached]),
      );
      const stopped = Object.fromEntries(
        steps.filter((s) => s.stopped > 0).map((s) => [`${s.dialogId}/${s.stepId}`, s.stopped]),
      );
      expect(reached).toEqual(EXPECTED.reached);
      expect(stopped).toEqual(EXPECTED.stopped);
      expect((await as.analyst.get('/studio/api/insights/drop-off?version=v99')).status).toBe(404);
    });

    it('when conversations are searched by words, a user-data field, a step reached, an integration error and a channel, then exactly the matching users come back, page by page', async () => {
      const ids = async (query: string) =>
        (
          (await read('analyst', `/studio/api/insights/conversations?${query}`)).body.conversations as {
            userId: string;
          }[]
        ).map((c) => c.userId);
      expect(await ids('text=cara')).toEqual([users.cara]);
      expect(await ids('field=city&value=Nowhere')).toEqual([users.dan]);
      expect(new Set(await ids('reached=order%2Flookup'))).toEqual(new Set([users.cara, users.dan]));
      expect(await ids('integrationError=true')).toEqual([users.dan]);
      expect(new Set(await ids('channel=webchat'))).toEqual(new Set(Object.values(users)));
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page: { body: { conversations: { userId: string }[]; nextCursor: string | null } } = await read(
          'analyst',
          `/studio/api/insights/conversations?limit=2${cursor ? `&cursor=${cursor}` : ''}`,
        );
        seen.push(...page.body.conversations.map((c) => c.userId));
        cursor = page.body.nextCursor;
      } while (cursor);
      expect(seen.sort()).toEqual(Object.values(users).sort());
      const unknownField = await as.analyst.get('/studio/api/insights/conversations?field=shoeSize&value=42');
      expect([unknownField.status, unknownField.body.error.code]).toEqual([400, 'invalid_parameter']);
      expect(unknownField.body.error.message).toContain('name, city');
    });

    it('when a transcript is read, then each message shows its dialog and step, the failed call sits beside the turn that made it, and the service token is nowhere', async () => {
      const res = await read('analyst', `/studio/api/insights/users/${encodeURIComponent(users.dan)}`);
      expect(res.status).toBe(200);
      const messages = res.body.messages as {
        from: string;
        text: string | null;
        dialogId?: string;
        stepId?: string;
        integrationCalls: { responseStatus: number; requestHeaders: Record<string, string> }[];
      }[];
      const said = (text: string) => messages.find((m) => m.text === text)!;
      expect(said('Your city?')).toMatchObject({ from: 'bot', channel: 'webchat', dialogId: 'order', stepId: 'city' });
      expect(new Set(messages.map((m) => (m as { channel?: string }).channel))).toEqual(new Set(['webchat']));
      expect(said('Nowhere')).toMatchObject({ from: 'user', dialogId: 'order', stepId: 'city' });
      expect(said('The stock service failed.')).toMatchObject({ from: 'bot', dialogId: 'sorry', stepId: 'say' });
      const calls = messages.flatMap((m) => m.integrationCalls);
      expect(calls.map((c) => c.responseStatus)).toEqual([500]);
      expect(said('Nowhere').integrationCalls).toHaveLength(1);
      expect(calls[0]!.requestHeaders.authorization).toBe('[redacted]');
      expect(res.text).not.toContain(STOCK_TOKEN);
      expect(res.body.userData).toEqual({ name: 'Dan', city: 'Nowhere' });
      expect(res.body.conversations).toHaveLength(1);
      expect((await as.analyst.get('/studio/api/insights/users/nobody-at-all')).status).toBe(404);
    });

    it('when editors and viewers ask for insights or transcripts, then each is refused 403 naming owner or analyst; an analyst may read but not erase or publish', async () => {
      const paths = [
        '/studio/api/insights/dashboard',
        '/studio/api/insights/drop-off',
        '/studio/api/insights/conversations',
        `/studio/api/insights/users/${encodeURIComponent(users.bob)}`,
      ];
      for (const role of ['editor', 'viewer'] as const) {
        for (const url of paths) {
          const res = await read(role, url);
          expect(res.status, `${role} ${url}`).toBe(403);
          expect(res.body.error).toMatchObject({ code: 'forbidden', details: { needed: ['owner', 'analyst'], role } });
        }
      }
      for (const url of paths) expect((await read('owner', url)).status).toBe(200);
      const erase = await as.analyst.delete(`/studio/api/insights/users/${encodeURIComponent(users.bob)}`);
      expect([erase.status, erase.body.error.code]).toEqual([403, 'forbidden']);
      expect((await as.analyst.post('/studio/api/publish', { versionId: 'v1' })).status).toBe(403);
      expect(
        (await as.analyst.put('/studio/api/draft', { baseVersionId: 'v1', revision: null, definition: {} })).status,
      ).toBe(403);
    });

    it('when an owner erases a user from the studio, then the transcript and the conversation are gone, the audit trail records it without the id, and the counters stay', async () => {
      const erased = await as.owner.delete(`/studio/api/insights/users/${encodeURIComponent(users.ann)}`);
      expect(erased.status).toBe(200);
      expect(erased.body.erased.user).toBe(1);
      expect((await as.owner.get(`/studio/api/insights/users/${encodeURIComponent(users.ann)}`)).status).toBe(404);
      const search = await as.owner.get('/studio/api/insights/conversations');
      expect(search.body.conversations.map((c: { userId: string }) => c.userId)).not.toContain(users.ann);
      const audit = await as.owner.get('/studio/api/audit?limit=1000');
      const entry = audit.body.entries.find((e: { action: string }) => e.action === 'user_erased');
      expect(entry).toMatchObject({
        actor: { kind: 'account', email: 'owner@example.com' },
        target: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
      });
      expect(audit.text).not.toContain(users.ann);
      expect((await as.owner.get('/studio/api/insights/dashboard')).body.totals.conversations).toBe(
        EXPECTED.conversations,
      );
    });

    it('when a preview user has turns stored, then their transcript is not found and no search lists them', async () => {
      const now = Date.now();
      await server.store.ensureUser({
        userId: 'preview-someone',
        channelId: 'webchat',
        now,
        preview: { accountId: 'author-1' },
      });
      expect((await as.analyst.get('/studio/api/insights/users/preview-someone')).status).toBe(404);
      const search = await as.analyst.get('/studio/api/insights/conversations');
      expect(search.text).not.toContain('preview-someone');
    });

    it("when an analyst downloads the exports from the studio, then they come with the API's formats and filters, without the token; editors and viewers are refused", async () => {
      const csv = await as.analyst.get('/studio/api/export/transcript?format=csv&bom=true');
      expect(csv.status).toBe(200);
      expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
      // The body as bytes: a text decoder would drop the byte order mark a spreadsheet needs.
      const raw = new Uint8Array(
        await (
          await fetch(`${server.url}/studio/api/export/transcript?format=csv&bom=true`, {
            headers: { cookie: as.analyst.cookie! },
          })
        ).arrayBuffer(),
      );
      expect([...raw.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      expect(csv.text).toContain('Nowhere');
      const misses = await as.analyst.get('/studio/api/export/nlpLog?format=json');
      expect(misses.body.map((row: { query: string }) => row.query)).toContain(EXPECTED.unprocessed);
      const calls = await as.owner.get('/studio/api/export/integrationLog?format=ndjson');
      expect(calls.status).toBe(200);
      expect(calls.text.trim().split('\n')).toHaveLength(2);
      expect(calls.text).not.toContain(STOCK_TOKEN);
      for (const role of ['editor', 'viewer'] as const) {
        const refused = await as[role].get('/studio/api/export/transcript?format=csv');
        expect([refused.status, refused.body.error.code]).toEqual([403, 'forbidden']);
      }
      expect((await as.analyst.get('/studio/api/export/nothing')).status).toBe(404);
    });

    it('when the range, a parameter or a cursor is wrong, then 400 invalid_parameter says what to fix', async () => {
      const cases: [string, string][] = [
        ['/studio/api/insights/dashboard?from=2026-02-10&to=2026-02-01', 'on or before'],
        ['/studio/api/insights/dashboard?from=2020-01-01&to=2026-01-01', 'at most 366 days'],
        ['/studio/api/insights/dashboard?from=yesterday', 'YYYY-MM-DD'],
        // A day the calendar lacks is refused, not rolled over to the next month's first.
        ['/studio/api/insights/dashboard?to=2026-09-31', 'real date'],
        ['/studio/api/insights/conversations?to=0000-01-01', '1970-01-01 or later'],
        ['/studio/api/insights/dashboard?colour=red', 'unknown'],
        ['/studio/api/insights/dashboard?channel=web%20chat', 'channel name'],
        ['/studio/api/insights/drop-off?channel=', 'channel name'],
        ['/studio/api/insights/conversations?field=city', 'go together'],
        ['/studio/api/insights/conversations?cursor=bm9wZQ', 'next cursor'],
        ['/studio/api/insights/conversations?limit=1000', '1 to 100'],
      ];
      for (const [url, words] of cases) {
        const res = await read('analyst', url);
        expect([res.status, res.body.error.code], url).toEqual([400, 'invalid_parameter']);
        expect(res.body.error.message, url).toContain(words);
      }
      const wrongMethod = await as.analyst.post('/studio/api/insights/dashboard', {});
      expect([wrongMethod.status, wrongMethod.headers.get('allow')]).toEqual([405, 'GET']);
    });
  });
}
