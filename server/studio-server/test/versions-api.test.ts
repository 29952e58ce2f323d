import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { definitionHash } from '../../definition/canonical.ts';
import { parseDefinitionText } from '../../definition/read-source.ts';
import type { Role } from '../../ports/roles.ts';
import { startTestServer, type TestServer } from '../../test/start-test-server.ts';
import { invite, setUpOwner, StudioClient } from './studio-client.ts';

const bot = {
  settings: { id: 'api', name: 'API bot', startDialog: 'main' },
  dialogs: [
    {
      id: 'main',
      steps: [
        { id: 'ask', type: 'input', prompt: 'Say something.' },
        { id: 'echo', type: 'message', text: 'You said it.' },
      ],
    },
  ],
};
const changed = (text: string) => ({
  ...bot,
  dialogs: [{ id: 'main', steps: [bot.dialogs[0]!.steps[0], { id: 'echo', type: 'message', text }] }],
});

/** The versions part of the studio's API over real HTTP, signed in per role (sessions with CSRF, and an API token). */
describe('the studio API: versions', () => {
  let dir: string;
  let server: TestServer;
  const as = {} as Record<Role, StudioClient>;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'versions-api-'));
    const file = path.join(dir, 'bot.json');
    await writeFile(file, JSON.stringify(bot));
    server = await startTestServer({ BOT_DEFINITION: file });
    as.owner = await setUpOwner(server.url, server.studio.setupLink!);
    for (const role of ['editor', 'analyst', 'viewer'] as const)
      as[role] = await invite(as.owner, `${role}@example.com`, role);
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('when each role reads the versions, a version, its export, the problems and the publish plan, then each may; drafts, saves, imports and publishing are refused to analysts and viewers with 403 naming the role', async () => {
    for (const role of ['owner', 'editor', 'analyst', 'viewer'] as const) {
      const client = as[role];
      const list = await client.get('/studio/api/versions');
      expect(list.status).toBe(200);
      expect(list.body).toMatchObject({
        publishedId: 'v1',
        headId: 'v1',
        versions: [
          { id: 'v1', source: 'file', author: { kind: 'file', name: 'bot.json' }, publishedAt: expect.any(Number) },
        ],
      });
      expect((await client.get('/studio/api/versions/v1')).body).toMatchObject({ id: 'v1', definition: bot });
      expect((await client.get('/studio/api/versions/v1/export?format=yaml')).status).toBe(200);
      expect((await client.post('/studio/api/check', { definition: bot })).body).toEqual({ problems: [] });
      expect((await client.post('/studio/api/publish/plan', { versionId: 'v1' })).status).toBe(200);
    }
    for (const role of ['analyst', 'viewer'] as const) {
      const attempts = [
        await as[role].get('/studio/api/draft'),
        await as[role].put('/studio/api/draft', { baseVersionId: 'v1', revision: null, definition: bot }),
        await as[role].post('/studio/api/versions', { baseVersionId: 'v1', definition: changed('No.'), message: '' }),
        await as[role].request('POST', '/studio/api/import', JSON.stringify(changed('No.')), {
          'content-type': 'application/json',
        }),
        await as[role].post('/studio/api/publish', { versionId: 'v1' }),
      ];
      for (const res of attempts) {
        expect(res.status).toBe(403);
        expect(res.body.error).toMatchObject({ code: 'forbidden', details: { needed: ['owner', 'editor'], role } });
      }
    }
    const anonymous = new StudioClient(server.url);
    expect((await anonymous.get('/studio/api/versions')).body.error.code).toBe('unauthenticated');
    expect((await anonymous.post('/studio/api/publish', { versionId: 'v1' })).status).toBe(401);
    // A signed-in page's write without its CSRF token is refused before anything happens.
    const csrfless = Object.assign(new StudioClient(server.url), { cookie: as.editor.cookie });
    expect((await csrfless.post('/studio/api/publish', { versionId: 'v1' })).body.error.code).toBe('csrf_failed');
    expect((await as.editor.get('/studio/api/versions')).body.versions).toHaveLength(1);
  });

  it('when two editors save on the same base over the API, then the second gets 409 version_conflict with base, theirs and yours, and after saving on theirs both are in the history', async () => {
    const owners = await as.owner.get('/studio/api/draft');
    const editors = await as.editor.get('/studio/api/draft');
    expect([owners.body.baseVersionId, editors.body.baseVersionId]).toEqual(['v1', 'v1']);
    const first = await as.owner.post('/studio/api/versions', {
      baseVersionId: 'v1',
      definition: changed('Owner was here.'),
      message: 'owner',
    });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      created: true,
      version: { id: 'v2', parentId: 'v1', source: 'studio', author: { kind: 'account', name: 'Olive Owner' } },
      problems: [],
    });
    const second = await as.editor.post('/studio/api/versions', {
      baseVersionId: 'v1',
      definition: changed('Editor was here.'),
      message: 'editor',
    });
    expect(second.status).toBe(409);
    expect(second.body.error).toMatchObject({
      code: 'version_conflict',
      details: {
        base: { id: 'v1', definition: bot },
        theirs: { id: 'v2', definition: changed('Owner was here.'), author: { name: 'Olive Owner' } },
        yours: changed('Editor was here.'),
      },
    });
    expect((await as.editor.get('/studio/api/versions')).body.versions.map((v: { id: string }) => v.id)).toEqual([
      'v2',
      'v1',
    ]);
    const again = await as.editor.post('/studio/api/versions', {
      baseVersionId: 'v2',
      definition: changed('Editor was here.'),
      message: 'editor on v2',
    });
    expect(again.body).toMatchObject({ created: true, version: { id: 'v3', parentId: 'v2' } });
    // Saving what the head holds makes no version.
    expect(
      (await as.editor.post('/studio/api/versions', { baseVersionId: 'v3', definition: changed('Editor was here.') }))
        .body,
    ).toMatchObject({ created: false, version: { id: 'v3' } });
    const trail = (await as.owner.get('/studio/api/audit')).body.entries as {
      action: string;
      target?: string;
      actor: { email?: string };
    }[];
    expect(trail.filter((e) => e.action === 'version_saved').map((e) => [e.target, e.actor.email])).toEqual([
      ['v2', 'owner@example.com'],
      ['v3', 'editor@example.com'],
    ]);
  });

  it('when a draft is autosaved from two tabs on one revision, then the second gets 409 draft_conflict and the first is kept', async () => {
    const draft = (await as.editor.get('/studio/api/draft')).body;
    const one = await as.editor.put('/studio/api/draft', {
      baseVersionId: draft.baseVersionId,
      revision: draft.revision,
      definition: changed('tab one'),
    });
    expect(one.status).toBe(200);
    expect(one.body.revision).toBe(draft.revision + 1);
    const two = await as.editor.put('/studio/api/draft', {
      baseVersionId: draft.baseVersionId,
      revision: draft.revision,
      definition: changed('tab two'),
    });
    expect(two.status).toBe(409);
    expect(two.body.error).toMatchObject({ code: 'draft_conflict', details: { revision: draft.revision + 1 } });
    expect((await as.editor.get('/studio/api/draft')).body.definition).toEqual(changed('tab one'));
  });

  it('when a YAML file is imported and exported again, then it is a version from "push" and the export reads back to the same content', async () => {
    const yaml = `settings:\n  id: api\n  name: API bot\n  startDialog: main\ndialogs:\n  - id: main\n    steps:\n      - { id: ask, type: input, prompt: "Say something." }\n      - { id: echo, type: message, text: "From YAML: ünïcødé 🤖" }\n`;
    const imported = await as.editor.request('POST', '/studio/api/import?message=from%20git', yaml, {
      'content-type': 'application/yaml',
    });
    expect(imported.status).toBe(201);
    expect(imported.body).toMatchObject({ created: true, version: { source: 'push', message: 'from git' } });
    const id = imported.body.version.id as string;
    for (const format of ['json', 'yaml'] as const) {
      const exported = await as.viewer.get(`/studio/api/versions/${id}/export?format=${format}`);
      expect(exported.headers.get('content-disposition')).toBe(`attachment; filename="bot-${id}.${format}"`);
      const back = parseDefinitionText(exported.text, format);
      expect('value' in back && definitionHash(back.value)).toBe(imported.body.version.hash);
    }
    const again = await as.editor.request('POST', '/studio/api/import', yaml, { 'content-type': 'application/yaml' });
    expect(again.body).toMatchObject({ created: false, version: { id } });
  });

  it('when bodies break the bounds or the rules, then each is refused with its catalogue code and nothing is saved', async () => {
    const before = (await as.editor.get('/studio/api/versions')).body.headId;
    const head = { baseVersionId: before, message: '' };
    const deep = JSON.stringify({
      ...head,
      definition: JSON.parse(`${'{"a":'.repeat(40)}1${'}'.repeat(40)}`) as unknown,
    });
    const cases: [string, Promise<{ status: number; body: { error: { code: string } } }>, number, string][] = [
      [
        'over 5 MB',
        as.editor.post('/studio/api/versions', {
          ...head,
          definition: { settings: { name: 'x'.repeat(5.2 * 1024 * 1024) } },
        }),
        413,
        'payload_too_large',
      ],
      [
        'nested 40 deep',
        as.editor.request('POST', '/studio/api/versions', deep, { 'content-type': 'application/json' }),
        400,
        'invalid_body',
      ],
      [
        'an unknown key',
        as.editor.post('/studio/api/versions', { ...head, definition: bot, extra: 1 }),
        400,
        'invalid_body',
      ],
      ['no definition', as.editor.post('/studio/api/versions', head), 400, 'invalid_body'],
      [
        'not JSON',
        as.editor.request('POST', '/studio/api/versions', '{"baseVersionId":', { 'content-type': 'application/json' }),
        400,
        'invalid_body',
      ],
      [
        'a form post',
        as.editor.request('POST', '/studio/api/versions', 'a=b', {
          'content-type': 'application/x-www-form-urlencoded',
        }),
        415,
        'unsupported_media_type',
      ],
      [
        'an unknown base',
        as.editor.post('/studio/api/versions', { baseVersionId: 'v999', definition: bot }),
        404,
        'version_not_found',
      ],
      ['a bad version id', as.editor.get('/studio/api/versions/..%2Fetc'), 404, 'version_not_found'],
      [
        'a bad export format',
        as.editor.get(`/studio/api/versions/${before}/export?format=xml`),
        400,
        'invalid_parameter',
      ],
      [
        'a YAML alias bomb',
        as.editor.request(
          'POST',
          '/studio/api/import',
          'a: &a [1,1,1,1,1,1,1,1,1]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n',
          { 'content-type': 'application/yaml' },
        ),
        400,
        'invalid_definition',
      ],
      [
        'an import of text/plain',
        as.editor.request('POST', '/studio/api/import', '{}', { 'content-type': 'text/plain' }),
        415,
        'unsupported_media_type',
      ],
      [
        'a move to nowhere',
        as.editor.post('/studio/api/publish', {
          versionId: 'v2',
          moves: [{ from: { dialogId: 'main', stepId: 'gone' }, to: { dialogId: 'main', stepId: 'ask' } }],
        }),
        400,
        'invalid_move',
      ],
    ];
    for (const [what, pending, status, code] of cases) {
      const res = await pending;
      expect({ what, status: res.status, code: res.body?.error?.code }).toEqual({ what, status, code });
      expect(JSON.stringify(res.body)).not.toMatch(/at .*\.ts:\d+/);
    }
    expect((await as.editor.get('/studio/api/versions')).body.headId).toBe(before);
  });

  it('when a version with hostile strings is saved and read, then they come back exactly, as data', async () => {
    const hostile = {
      ...bot,
      settings: { ...bot.settings, name: '<img src=x onerror=alert(1)> "\'`${x}` \u2028 \u0000 🤖' },
    };
    const head = (await as.editor.get('/studio/api/versions')).body.headId;
    const saved = await as.editor.post('/studio/api/versions', {
      baseVersionId: head,
      definition: hostile,
      message: '<script>alert(1)</script>',
    });
    expect(saved.status).toBe(201);
    const read = await as.viewer.get(`/studio/api/versions/${saved.body.version.id}`);
    expect(read.body.definition).toEqual(hostile);
    expect(read.body.message).toBe('<script>alert(1)</script>');
    expect(read.headers.get('content-type')).toContain('application/json');
    const plan = await as.viewer.post('/studio/api/publish/plan', { versionId: saved.body.version.id });
    expect(plan.body.problems).toEqual([]);
  });
});
