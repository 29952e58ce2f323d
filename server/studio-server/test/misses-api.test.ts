import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Contract } from '../../api/management/test/contract.ts';
import type { Role } from '../../ports/roles.ts';
import { startTestServer, storeLegs, type TestServer } from '../../test/start-test-server.ts';
import { missesReport } from '../insights/misses.ts';
import { teachableOf } from '../insights/teachable.ts';
import { MISSED, missesBot, runMisses } from './misses-script.ts';
import { invite, setUpOwner, type StudioClient } from './studio-client.ts';

interface Group {
  id: string;
  count: number;
  distinct: number;
  examples: { text: string; count: number; taught: { kind: string; id: string } | null }[];
  suggestion: { intent: { id: string; score: number } | null; faq: { id: string; score: number } | null };
  taught: { all: boolean; to: { kind: string; id: string }[] };
}

const untaught = (examples: readonly { text: string; count: number }[]) =>
  examples.map((e) => ({ ...e, taught: null }));

for (const leg of storeLegs()) {
  describe.skipIf(leg.skip)(`the studio API: misses (${leg.name})`, () => {
    let dir: string;
    let server: TestServer;
    let contract: Contract;
    const as = {} as Record<Role, StudioClient>;

    beforeAll(async () => {
      dir = await mkdtemp(path.join(tmpdir(), 'misses-api-'));
      const file = path.join(dir, 'bot.json');
      await writeFile(file, JSON.stringify(missesBot()));
      server = await startTestServer({ ...leg.env(), BOT_DEFINITION: file, WEBCHAT_RATE_LIMIT: '10000' });
      contract = new Contract(
        (await (await fetch(`${server.url}/api/management/openapi.json`)).json()) as Record<string, unknown>,
      );
      as.owner = await setUpOwner(server.url, server.studio.setupLink!);
      for (const role of ['editor', 'analyst', 'viewer'] as const)
        as[role] = await invite(as.owner, `${role}@example.com`, role);
      await runMisses(server.url);
    }, 120_000);
    afterAll(async () => {
      await server?.stop();
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    /** A request as `role`, its answer checked against the OpenAPI document. */
    async function call(role: Role, method: 'GET' | 'POST', url: string, body?: unknown) {
      const answer = method === 'GET' ? await as[role].get(url) : await as[role].post(url, body);
      const check = await contract.check(
        method,
        `${server.url}${url}`,
        new Response(answer.text, { status: answer.status, headers: answer.headers }),
      );
      expect(check.problems, `${method} ${url} → ${answer.status}`).toEqual([]);
      return answer;
    }

    it('when visitors wrote what nothing understood, then an analyst sees the like inputs (typos too) in one group with their counts, no intent offered where none is near, and the FAQ miss apart', async () => {
      const res = await call('analyst', 'GET', '/studio/api/insights/misses');
      expect(res.status).toBe(200);
      const groups = res.body.unprocessed as Group[];
      // The typo ("parcle") joins the spelling it misses.
      expect(groups.map((g) => [g.count, g.examples])).toEqual([
        [4, untaught(MISSED.parcel)],
        [1, untaught([MISSED.gibberish])],
      ]);
      expect(groups[0]!.distinct).toBe(3);
      expect(groups.map((g) => g.taught)).toEqual([
        { all: false, to: [] },
        { all: false, to: [] },
      ]);
      // No utterance of the bot shares a word with either (the classifier scores them 0): no intent is offered, rather than one at 0.00.
      expect(groups.map((g) => g.suggestion.intent)).toEqual([null, null]);
      expect((res.body.faqMisses as Group[]).map((g) => [g.count, g.examples])).toEqual([[1, untaught([MISSED.faq])]]);
      // No FAQ phrasing shares a word with it: no pair is offered as near.
      expect((res.body.faqMisses as Group[])[0]!.suggestion.faq).toBeNull();
      expect(res.body.read.nlpLog).toMatchObject({ capped: false, readUpTo: null, distinct: 4 });
      expect(res.body.read.nlpLog.rows).toBeGreaterThanOrEqual(5);
      // An analyst changes nothing: the newest version's figures, and no add.
      expect([res.body.canAdd, res.body.source.kind]).toEqual([false, 'version']);
      expect(res.body.intents.map((i: { id: string }) => i.id)).toEqual(['order', 'refund', 'track']);
      // The quality report of that definition: its thin intents (five utterances each) and a threshold.
      expect(res.body.quality.thinIntents).toEqual([]);
      expect(res.body.quality.intents).toBe(3);
      expect(typeof res.body.quality.suggestedThreshold).toBe('number');
      // Who wrote it is nowhere in the answer.
      expect(res.text).not.toMatch(/userId/);
    });

    it('when a viewer asks for the misses, or an analyst adds an input, then the server refuses with 403 naming the roles', async () => {
      const viewer = await call('viewer', 'GET', '/studio/api/insights/misses');
      expect([viewer.status, viewer.body.error.code]).toEqual([403, 'forbidden']);
      expect(viewer.body.error.message).toContain('owner, editor or analyst role');
      const analyst = await call('analyst', 'POST', '/studio/api/insights/misses/add', {
        target: { kind: 'intent', id: 'track' },
        texts: ['Where is my parcel'],
        revision: 1,
      });
      expect([analyst.status, analyst.body.error.code]).toEqual([403, 'forbidden']);
      expect(analyst.body.error.message).toContain('owner or editor role');
    });

    it('when an editor adds a group to an intent, then the draft holds the inputs once each, the audit says how many without the texts, and the published bot is unchanged', async () => {
      const seen = await call('editor', 'GET', '/studio/api/insights/misses');
      expect([seen.body.canAdd, seen.body.source.kind]).toEqual([true, 'draft']);
      const revision = seen.body.source.revision as number;
      const texts = (seen.body.unprocessed as Group[])[0]!.examples.map((e) => e.text);
      const added = await call('editor', 'POST', '/studio/api/insights/misses/add', {
        target: { kind: 'intent', id: 'track' },
        texts: [...texts, 'track my order'],
        revision,
      });
      expect(added.status).toBe(200);
      expect(added.body).toEqual({
        revision: revision + 1,
        added: ['Where is my parcel', 'parcel where??', 'where is my parcle'],
        skipped: ['track my order'],
      });
      const draft = await as.editor.get('/studio/api/draft');
      expect(draft.body.definition.intents.find((i: { id: string }) => i.id === 'track').utterances.slice(-3)).toEqual([
        'Where is my parcel',
        'parcel where??',
        'where is my parcle',
      ]);
      const trail = await as.owner.get('/studio/api/audit?limit=100');
      const entry = (trail.body.entries as { action: string; target: string; details: Record<string, unknown> }[]).find(
        (e) => e.action === 'draft_utterances_added',
      );
      expect(entry).toMatchObject({ target: 'track', details: { added: 3, skipped: 1, revision: revision + 1 } });
      expect(JSON.stringify(trail.body)).not.toContain('parcel');
      // The draft changed: the bot in service did not.
      expect((await as.editor.get('/studio/api/versions/v1')).body.definition.intents[2].utterances).not.toContain(
        'Where is my parcel',
      );
      // The editor's misses now suggest from the changed draft.
      const after = await call('editor', 'GET', '/studio/api/insights/misses');
      expect(after.body.source.revision).toBe(revision + 1);
      expect(after.body.intents.find((i: { id: string }) => i.id === 'track').utterances).toBe(8);
      // The taught group is marked as taught, and to what, and listed after the ones still to teach.
      const groups = after.body.unprocessed as Group[];
      expect(groups.map((g) => [g.examples[0]!.text, g.taught])).toEqual([
        [MISSED.gibberish.text, { all: false, to: [] }],
        [MISSED.parcel[0].text, { all: true, to: [{ kind: 'intent', id: 'track' }] }],
      ]);
      expect(groups[1]!.examples.map((e) => e.taught)).toEqual(
        MISSED.parcel.map(() => ({ kind: 'intent', id: 'track' })),
      );
      // The analyst reads the published version, which does not hold them yet.
      expect(
        ((await call('analyst', 'GET', '/studio/api/insights/misses')).body.unprocessed as Group[])[0]!.taught.all,
      ).toBe(false);
      // Adding the same again changes nothing: no second copy, no new revision.
      const again = await call('editor', 'POST', '/studio/api/insights/misses/add', {
        target: { kind: 'intent', id: 'track' },
        texts: ['where is my  PARCEL'],
        revision: revision + 1,
      });
      expect(again.body).toEqual({ revision: revision + 1, added: [], skipped: ['where is my PARCEL'] });
      expect(
        (await as.editor.get('/studio/api/draft')).body.definition.intents.find((i: { id: string }) => i.id === 'track')
          .utterances,
      ).toHaveLength(8);
    });

    it('when the draft changed since the page read it, or names an intent it lacks, or the body is wrong, then nothing is written and the answer says why', async () => {
      const seen = await call('owner', 'GET', '/studio/api/insights/misses');
      const revision = seen.body.source.revision as number;
      // The designer saved in another tab since.
      expect(
        (
          await as.owner.put('/studio/api/draft', {
            baseVersionId: seen.body.source.baseVersionId,
            revision,
            definition: (await as.owner.get('/studio/api/draft')).body.definition,
          })
        ).status,
      ).toBe(200);
      const stale = await call('owner', 'POST', '/studio/api/insights/misses/add', {
        target: { kind: 'faq', id: 'opening-hours' },
        texts: ['Do you ship to Mars?'],
        revision,
      });
      expect([stale.status, stale.body.error.code]).toEqual([409, 'draft_conflict']);
      expect(stale.body.error.message).toContain('reload the misses');
      const unknown = await call('owner', 'POST', '/studio/api/insights/misses/add', {
        target: { kind: 'intent', id: 'nope' },
        texts: ['x'],
        revision: revision + 1,
      });
      expect([unknown.status, unknown.body.error.code]).toEqual([404, 'not_found']);
      const empty = await call('owner', 'POST', '/studio/api/insights/misses/add', {
        target: { kind: 'intent', id: 'track' },
        texts: [],
        revision: revision + 1,
      });
      expect([empty.status, empty.body.error.code, empty.body.error.message]).toEqual([
        400,
        'invalid_body',
        'texts: must name at least one input.',
      ]);
      const draft = await as.owner.get('/studio/api/draft');
      expect(draft.body.revision).toBe(revision + 1);
      expect(draft.body.definition.faq[0].questions).toEqual(['When are you open?', 'What are your opening hours?']);
      // Then with the revision it has now, the FAQ pair takes the question.
      const added = await call('owner', 'POST', '/studio/api/insights/misses/add', {
        target: { kind: 'faq', id: 'opening-hours' },
        texts: ['Do you ship to Mars?'],
        revision: revision + 1,
      });
      expect(added.body.added).toEqual(['Do you ship to Mars?']);
    });

    it('when the draft is no definition at all (saved as null), then adding to it says the entry is missing, and nothing is written', async () => {
      const before = (await as.editor.get('/studio/api/draft')).body;
      expect(
        (
          await as.editor.put('/studio/api/draft', {
            baseVersionId: before.baseVersionId,
            revision: before.revision,
            definition: null,
          })
        ).status,
      ).toBe(200);
      const res = await call('editor', 'POST', '/studio/api/insights/misses/add', {
        target: { kind: 'faq', id: 'opening-hours' },
        texts: ['Do you ship to Mars?'],
        revision: before.revision + 1,
      });
      expect([res.status, res.body.error.code]).toEqual([404, 'not_found']);
      const after = (await as.editor.get('/studio/api/draft')).body;
      expect([after.revision, after.definition]).toEqual([before.revision + 1, null]);
      // The editor's draft back as it was, for the tests after this one.
      expect(
        (
          await as.editor.put('/studio/api/draft', {
            baseVersionId: before.baseVersionId,
            revision: after.revision,
            definition: before.definition,
          })
        ).status,
      ).toBe(200);
    });

    it('when a log holds more rows than the cap, then only the cap is read and the report says the log was capped', async () => {
      const definition = teachableOf(missesBot());
      const report = await missesReport(
        { store: server.store, rowCap: 2 },
        { fromMs: 0, toMs: Date.now() + 1000 },
        definition,
      );
      // The first two rows are one visitor's two spellings of one input.
      expect(report.read.nlpLog).toMatchObject({ rows: 2, capped: true, distinct: 1 });
      expect(report.read.nlpLog.readUpTo).toEqual(expect.any(Number));
      expect(report.unprocessed.reduce((n, g) => n + g.count, 0)).toBeLessThanOrEqual(2);
      expect(report.read.fuzzyQuestionAnswerLog).toMatchObject({ rows: 1, capped: false });
    });

    it('when a range is backwards or too long, then 400 names the parameter', async () => {
      const res = await call('analyst', 'GET', '/studio/api/insights/misses?from=2026-02-01&to=2026-01-01');
      expect([res.status, res.body.error.code, res.body.error.message]).toEqual([
        400,
        'invalid_parameter',
        'from: must be on or before to.',
      ]);
      expect((await call('analyst', 'GET', '/studio/api/insights/misses?from=2020-01-01&to=2026-01-01')).status).toBe(
        400,
      );
      const missing = await call('analyst', 'GET', '/studio/api/insights/misses?to=2026-02-30');
      expect([missing.status, missing.body.error.message]).toEqual([400, 'to: must be a real date.']);
    });
  });
}
