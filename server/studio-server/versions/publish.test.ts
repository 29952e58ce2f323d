import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Session } from '../../../shared/protocol.ts';
import {
  botTexts,
  connectClient,
  eventually,
  startTestServer,
  storeLegs,
  type TestServer,
} from '../../test/start-test-server.ts';
import { readDraft, saveVersion, autosaveDraft, listVersions } from './editing.ts';
import { publish, publishPlan } from './publishing.ts';
import type { Acting } from './versions-deps.ts';

const ada: Acting = {
  actor: { kind: 'account', accountId: 'a1', email: 'ada@example.com' },
  name: 'Ada',
  ip: '127.0.0.1',
};
const bob: Acting = { actor: { kind: 'account', accountId: 'b2', email: 'bob@example.com' }, name: 'Bob' };

/** The file: the user is asked their name, then rests on "more". */
const v1 = {
  settings: { id: 'versions', name: 'Versions bot', startDialog: 'greeting' },
  userDataFields: ['name'],
  dialogs: [
    {
      id: 'greeting',
      steps: [
        { id: 'hello', type: 'message', text: 'Hi!' },
        { id: 'ask', type: 'input', prompt: "What's your name?", saveTo: { userData: 'name' } },
        { id: 'more', type: 'input', prompt: 'Thanks, {{name}}! Anything else?' },
        { id: 'bye', type: 'message', text: 'Bye.' },
      ],
    },
  ],
};

/** The studio's change: "more" is gone, a help dialog is new, the greeting says something new. */
const v2 = {
  ...v1,
  dialogs: [
    {
      id: 'greeting',
      steps: [
        { id: 'hello', type: 'message', text: 'Welcome back!' },
        { id: 'ask', type: 'input', prompt: "What's your name?", saveTo: { userData: 'name' } },
        { id: 'bye', type: 'message', text: 'Bye.' },
      ],
    },
    { id: 'help', steps: [{ id: 'offer', type: 'input', prompt: 'How can I help?' }] },
  ],
};

describe('publishing a version in a running server', () => {
  let dir: string;
  let file: string;
  let server: TestServer | undefined;
  const clients: ReturnType<typeof connectClient>[] = [];
  let n = 0;

  const start = async (env: Record<string, string> = {}) =>
    (server = await startTestServer({ BOT_DEFINITION: file, ...env }, path.join(dir, 'data')));
  const visitor = async (token?: { userId: string; sessionToken: string }) => {
    const client = connectClient(server!.url, token ?? {});
    clients.push(client);
    const session = await new Promise<Session>((resolve) => client.once('session', resolve));
    return Object.assign(client, { session });
  };
  const say = (client: ReturnType<typeof connectClient>, text: string) =>
    client.emitWithAck('message', { clientId: `m${++n}`, text });
  const heard = (client: ReturnType<typeof connectClient>, text: string) =>
    eventually(JSON.stringify(text), () => botTexts(client.items).includes(text), 10_000);

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'publish-'));
    file = path.join(dir, 'bot.json');
    await writeFile(file, JSON.stringify(v1));
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) client.disconnect();
    await server?.stop();
    server = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  it('when a version that removes a step users rest on is published with a chosen target, then such a user moves there at their next message, the move is logged with old and new position, and a rollback brings the old flow back', async () => {
    await start();
    const resting = await visitor();
    await heard(resting, "What's your name?");
    await say(resting, 'Ada');
    await heard(resting, 'Thanks, Ada! Anything else?');

    const base = (await readDraft(server!.versions, ada)).baseVersionId!;
    const saved = await saveVersion(server!.versions, ada, {
      baseVersionId: base,
      definition: v2,
      message: 'help dialog, no more "more"',
    });
    expect(saved).toMatchObject({
      created: true,
      version: { id: 'v2', parentId: 'v1', source: 'studio', author: { name: 'Ada' } },
      problems: [],
    });

    const plan = await publishPlan(server!.versions, 'v2');
    expect(plan).toMatchObject({ versionId: 'v2', liveVersionId: 'v1', rollback: false, problems: [] });
    expect(plan.stranded).toEqual([
      { dialogId: 'greeting', stepId: 'more', users: 1, defaultTarget: { dialogId: 'greeting', stepId: 'hello' } },
    ]);
    expect(plan.diff.map((c) => c.words)).toEqual([
      'Step "hello" in dialog "greeting" changed: text.',
      'Step "more" removed from dialog "greeting".',
      'Dialog "help" added (1 step).',
    ]);

    const { publication } = await publish(
      server!.versions,
      {
        versionId: 'v2',
        moves: [{ from: { dialogId: 'greeting', stepId: 'more' }, to: { dialogId: 'help', stepId: 'offer' } }],
        message: 'go live',
      },
      ada,
    );
    expect(publication).toMatchObject({
      versionId: 'v2',
      previousId: 'v1',
      kind: 'publish',
      by: { name: 'Ada' },
      moves: [{ from: { dialogId: 'greeting', stepId: 'more' }, to: { dialogId: 'help', stepId: 'offer' } }],
    });
    // The same connection carries on: no socket was dropped.
    expect(resting.connected).toBe(true);
    await say(resting, 'I need something');
    await heard(resting, 'How can I help?');
    const moved = await eventually('the move logged', () => server!.logs.find((l) => l.code === 'stale_position'));
    expect(moved).toMatchObject({
      userId: resting.session.userId,
      fromDialogId: 'greeting',
      fromStepId: 'more',
      toDialogId: 'help',
      toStepId: 'offer',
      chosenAtPublish: true,
    });
    // A new visitor meets the new flow.
    const fresh = await visitor();
    await heard(fresh, 'Welcome back!');
    const trail = async () =>
      (await server!.studio.rooms.audit.read({ limit: 100 })).filter((entry) => entry.action !== 'setup_link_created');
    expect((await trail()).map((entry) => [entry.action, entry.target])).toEqual([
      ['version_imported', 'v1'],
      ['published', 'v1'],
      ['version_saved', 'v2'],
      ['published', 'v2'],
    ]);

    // Rollback: publishing v1 again.
    const back = await publishPlan(server!.versions, 'v1');
    expect(back).toMatchObject({
      rollback: true,
      liveVersionId: 'v2',
      stranded: [{ dialogId: 'help', stepId: 'offer', users: 1 }],
    });
    await publish(server!.versions, { versionId: 'v1', moves: [] }, bob);
    const again = await visitor();
    await heard(again, 'Hi!');
    expect(botTexts(again.items)).not.toContain('Welcome back!');
    const audit = (await trail()).at(-1);
    expect(audit).toMatchObject({
      action: 'rolled_back',
      target: 'v1',
      actor: { accountId: 'b2' },
      details: { previous: 'v2', moves: [{ from: 'help.offer', to: 'greeting.hello' }] },
    });
    const list = await listVersions(server!.versions, 10);
    expect(list).toMatchObject({
      publishedId: 'v1',
      headId: 'v2',
      versions: [
        { id: 'v2', publishedAt: expect.any(Number) },
        { id: 'v1', publishedAt: expect.any(Number) },
      ],
    });
  }, 60_000);

  it('when a publish names a target the version lacks, a position nobody would be stranded on, or the live version, then it is refused and nothing changes', async () => {
    await start();
    await saveVersion(server!.versions, ada, { baseVersionId: 'v1', definition: v2, message: '' });
    const refused = (
      moves: { from: { dialogId: string; stepId: string }; to: { dialogId: string; stepId: string } }[],
    ) => publish(server!.versions, { versionId: 'v2', moves }, ada);
    await expect(
      refused([{ from: { dialogId: 'greeting', stepId: 'more' }, to: { dialogId: 'help', stepId: 'nowhere' } }]),
    ).rejects.toMatchObject({ status: 400, code: 'invalid_move' });
    await expect(
      refused([{ from: { dialogId: 'greeting', stepId: 'ask' }, to: { dialogId: 'help', stepId: 'offer' } }]),
    ).rejects.toMatchObject({ status: 400, code: 'invalid_move' });
    await expect(publish(server!.versions, { versionId: 'v1', moves: [] }, ada)).rejects.toMatchObject({
      status: 409,
      code: 'already_live',
    });
    await expect(publish(server!.versions, { versionId: 'v9', moves: [] }, ada)).rejects.toMatchObject({
      status: 404,
      code: 'version_not_found',
    });
    const broken = { ...v2, settings: { ...v2.settings, startDialog: 'nope' } };
    await saveVersion(server!.versions, ada, { baseVersionId: 'v2', definition: broken, message: 'broken' });
    const plan = await publishPlan(server!.versions, 'v3');
    expect(plan.problems).toEqual([{ path: 'settings.startDialog', message: 'no dialog "nope"', severity: 'error' }]);
    await expect(publish(server!.versions, { versionId: 'v3', moves: [] }, ada)).rejects.toMatchObject({
      status: 422,
      code: 'definition_invalid',
      details: { problems: plan.problems },
    });
    expect(server!.versions.live().version?.id).toBe('v1');
  }, 60_000);

  it('when two editors save on the same base, then the second gets the conflict with both versions and its draft keeps its work', async () => {
    await start();
    const adaDraft = await readDraft(server!.versions, ada);
    const bobDraft = await readDraft(server!.versions, bob);
    expect([adaDraft.baseVersionId, bobDraft.baseVersionId]).toEqual(['v1', 'v1']);
    const bobs = { ...v1, settings: { ...v1.settings, name: "Bob's bot" } };
    await autosaveDraft(server!.versions, bob, { baseVersionId: 'v1', revision: bobDraft.revision, definition: bobs });
    await saveVersion(server!.versions, ada, { baseVersionId: 'v1', definition: v2, message: 'Ada first' });
    const conflict = await saveVersion(server!.versions, bob, {
      baseVersionId: 'v1',
      definition: bobs,
      message: 'Bob second',
    }).catch((error: unknown) => error);
    expect(conflict).toMatchObject({
      status: 409,
      code: 'version_conflict',
      message: expect.stringContaining('Ada saved version v2 since you started from v1'),
      details: {
        base: { id: 'v1', definition: v1 },
        theirs: { id: 'v2', definition: v2, author: { name: 'Ada' } },
        yours: bobs,
      },
    });
    expect((await readDraft(server!.versions, bob)).definition).toEqual(bobs);
    // On the new head it goes in.
    expect(
      await saveVersion(server!.versions, bob, { baseVersionId: 'v2', definition: bobs, message: 'Bob on v2' }),
    ).toMatchObject({ created: true, version: { id: 'v3', parentId: 'v2' } });
  }, 60_000);

  for (const leg of storeLegs()) {
    it.skipIf(leg.skip)(
      `when the server restarts with the old file after a studio publish (${leg.name}), then the studio's version stays live; a changed file is published as from the file and the studio's stays in the history`,
      async () => {
        const env = leg.env();
        await start(env);
        await saveVersion(server!.versions, ada, { baseVersionId: 'v1', definition: v2, message: '' });
        await publish(server!.versions, { versionId: 'v2', moves: [] }, ada);
        await server!.stop();

        await start(env);
        expect(server!.versions.live().version?.id).toBe('v2');
        const client = await visitor();
        await heard(client, 'Welcome back!');
        expect((await listVersions(server!.versions, 10)).versions.map((v) => v.id)).toEqual(['v2', 'v1']);
        await server!.stop();

        // The same content in another key order and as YAML is the same file: nothing changes.
        const yamlFile = path.join(dir, 'bot.yaml');
        await writeFile(
          yamlFile,
          `dialogs: ${JSON.stringify(v1.dialogs)}\nuserDataFields: [name]\nsettings: ${JSON.stringify(v1.settings)}\n`,
        );
        file = yamlFile;
        await start(env);
        expect(server!.versions.live().version?.id).toBe('v2');
        await server!.stop();

        await writeFile(
          yamlFile,
          `dialogs: ${JSON.stringify(v1.dialogs).replace('Hi!', 'Hello from the file!')}\nuserDataFields: [name]\nsettings: ${JSON.stringify(v1.settings)}\n`,
        );
        await start(env);
        expect(server!.versions.live().version?.id).toBe('v3');
        expect((await listVersions(server!.versions, 10)).versions.map((v) => [v.id, v.source])).toEqual([
          ['v3', 'file'],
          ['v2', 'studio'],
          ['v1', 'file'],
        ]);
        expect(server!.logs.find((l) => l.event === 'definition_file_published')).toMatchObject({
          level: 40,
          version: 'v3',
          replaced: 'v2',
        });
        const reader = await visitor();
        await heard(reader, 'Hello from the file!');
      },
      120_000,
    );
  }
});
