import { expect, it } from 'vitest';
import type { NewVersion, VersionAuthor, VersionsRoom } from '../../ports/versions.ts';

const ada: VersionAuthor = { kind: 'account', accountId: 'a1', email: 'ada@example.com', name: 'Ada' };
const bob: VersionAuthor = { kind: 'account', accountId: 'b2', email: 'bob@example.com', name: 'Bob' };

const version = (text: string, overrides: Partial<NewVersion> = {}): NewVersion => ({
  author: ada,
  createdAt: 1000,
  message: 'a change',
  hash: `hash-of-${text.length}-${text.slice(0, 20)}`,
  source: 'studio',
  definitionText: text,
  ...overrides,
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function studioVersionsCases(room: () => VersionsRoom): void {
  it('when nothing was saved yet, then there is no head, no published version, no draft and no file mark', async () => {
    expect(await room().head()).toBeNull();
    expect(await room().published()).toBeNull();
    expect(await room().listVersions(10)).toEqual([]);
    expect(await room().publications(10)).toEqual([]);
    expect(await room().getVersion('v1')).toBeNull();
    expect(await room().readDraft('a1')).toBeNull();
    expect(await room().fileSeen()).toBeNull();
  });

  it('when versions are saved each on the head, then they are numbered in order, each names its parent, and the list pages newest first', async () => {
    const first = await room().createVersion(
      version('{"a":1}', { source: 'file', author: { kind: 'file', name: 'bot.json' } }),
      null,
    );
    expect(first).toEqual({
      status: 'created',
      version: {
        id: 'v1',
        number: 1,
        parentId: null,
        author: { kind: 'file', name: 'bot.json' },
        createdAt: 1000,
        message: 'a change',
        hash: 'hash-of-7-{"a":1}',
        source: 'file',
      },
    });
    const second = await room().createVersion(
      version('{"a":2}', { author: bob, createdAt: 2000, message: 'second' }),
      'v1',
    );
    const third = await room().createVersion(version('{"a":3}', { source: 'push', createdAt: 3000 }), 'v2');
    expect(second).toMatchObject({
      status: 'created',
      version: { id: 'v2', parentId: 'v1', author: bob, message: 'second' },
    });
    expect(third).toMatchObject({ status: 'created', version: { id: 'v3', parentId: 'v2', source: 'push' } });
    expect((await room().head())?.id).toBe('v3');
    expect((await room().listVersions(10)).map((v) => v.id)).toEqual(['v3', 'v2', 'v1']);
    expect((await room().listVersions(2)).map((v) => v.id)).toEqual(['v3', 'v2']);
    expect((await room().listVersions(2, 2)).map((v) => v.id)).toEqual(['v1']);
    // The list holds no definition: a long history stays cheap to show.
    expect(await room().listVersions(1)).toEqual([expect.not.objectContaining({ definitionText: expect.anything() })]);
    expect(await room().getVersion('v2')).toMatchObject({ id: 'v2', definitionText: '{"a":2}' });
  });

  it('when a definition holds keys and text a document store treats specially, then it is read back byte for byte', async () => {
    const text = JSON.stringify({
      $schema: 'https://bot.example.com/bot-definition.schema.json',
      'a.b': { $where: 'x', __proto__: 'not a prototype' },
      text: 'ümlaut 🤖 \u2028\u2029 \u0000 <script>alert(1)</script> \'"',
      big: 'x'.repeat(3 * 1024 * 1024),
    });
    await room().createVersion(version(text), null);
    const read = await room().getVersion('v1');
    expect(read?.definitionText.length).toBe(text.length);
    expect(read?.definitionText === text).toBe(true);
  });

  it('when a save names a version that is no longer the head, then nothing is written and the head is returned to compare', async () => {
    await room().createVersion(version('{"a":1}'), null);
    await room().createVersion(version('{"a":2}', { author: bob }), 'v1');
    const stale = await room().createVersion(version('{"mine":true}'), 'v1');
    expect(stale).toMatchObject({ status: 'conflict', head: { id: 'v2', author: bob } });
    expect(await room().createVersion(version('{"first":true}'), null)).toMatchObject({
      status: 'conflict',
      head: { id: 'v2' },
    });
    expect((await room().listVersions(10)).map((v) => v.id)).toEqual(['v2', 'v1']);
    // Without a base (an import, the file) it goes on whatever is the head.
    expect(await room().createVersion(version('{"a":3}', { source: 'push' }), 'any')).toMatchObject({
      status: 'created',
      version: { id: 'v3', parentId: 'v2' },
    });
  });

  it('when eight editors save on the same head at once, then exactly one version is created and the seven others get the conflict naming it', async () => {
    await room().createVersion(version('{"base":true}'), null);
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        room().createVersion(version(`{"editor":${i}}`, { author: { kind: 'account', accountId: `e${i}` } }), 'v1'),
      ),
    );
    const created = outcomes.filter((o) => o.status === 'created');
    expect(created).toHaveLength(1);
    const winner = created[0]!.status === 'created' ? created[0]!.version : undefined;
    for (const outcome of outcomes.filter((o) => o.status === 'conflict'))
      expect(outcome).toMatchObject({ head: { id: 'v2', author: winner!.author } });
    expect((await room().listVersions(10)).map((v) => v.id)).toEqual(['v2', 'v1']);
    expect((await room().getVersion('v2'))?.definitionText).toBe(`{"editor":${winner!.author.accountId!.slice(1)}}`);
  });

  it('when imports arrive at once without a base, then every one is kept, each on the one before', async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 5 }, (_, i) => room().createVersion(version(`{"import":${i}}`, { source: 'push' }), 'any')),
    );
    expect(outcomes.every((o) => o.status === 'created')).toBe(true);
    const list = await room().listVersions(10);
    expect(list.map((v) => v.id)).toEqual(['v5', 'v4', 'v3', 'v2', 'v1']);
    expect(list.map((v) => v.parentId)).toEqual(['v4', 'v3', 'v2', 'v1', null]);
    const texts = await Promise.all(list.map(async (v) => (await room().getVersion(v.id))?.definitionText));
    expect(new Set(texts).size).toBe(5);
  });

  it('when versions are published, then the latest publication is the published one and the history keeps each with its moves, newest first', async () => {
    await room().createVersion(version('{"a":1}'), null);
    await room().createVersion(version('{"a":2}'), 'v1');
    const first = await room().publish({
      versionId: 'v1',
      previousId: null,
      at: 10,
      by: { kind: 'file', name: 'bot.json' },
      kind: 'file',
      moves: [],
    });
    expect(first).toEqual({
      seq: 1,
      versionId: 'v1',
      previousId: null,
      at: 10,
      by: { kind: 'file', name: 'bot.json' },
      kind: 'file',
      moves: [],
    });
    const moves = [{ from: { dialogId: 'order', stepId: 'ask' }, to: { dialogId: 'order', stepId: 'question' } }];
    await room().publish({
      versionId: 'v2',
      previousId: 'v1',
      at: 20,
      by: ada,
      kind: 'publish',
      moves,
      message: 'renamed ask',
    });
    await room().publish({ versionId: 'v1', previousId: 'v2', at: 30, by: bob, kind: 'rollback', moves: [] });
    expect(await room().published()).toEqual({
      seq: 3,
      versionId: 'v1',
      previousId: 'v2',
      at: 30,
      by: bob,
      kind: 'rollback',
      moves: [],
    });
    const history = await room().publications(10);
    expect(history.map((p) => [p.seq, p.versionId, p.kind])).toEqual([
      [3, 'v1', 'rollback'],
      [2, 'v2', 'publish'],
      [1, 'v1', 'file'],
    ]);
    expect(history[1]).toMatchObject({ moves, message: 'renamed ask', by: ada });
    expect((await room().publications(1)).map((p) => p.seq)).toEqual([3]);
  });

  it('when several publish at once, then every publication is recorded once and one of them is the published version', async () => {
    for (let i = 1; i <= 4; i++) await room().createVersion(version(`{"n":${i}}`), 'any');
    await Promise.all(
      [1, 2, 3, 4].map((n) =>
        room().publish({ versionId: `v${n}`, previousId: null, at: n, by: ada, kind: 'publish', moves: [] }),
      ),
    );
    const history = await room().publications(10);
    expect(history.map((p) => p.seq)).toEqual([4, 3, 2, 1]);
    expect(new Set(history.map((p) => p.versionId))).toEqual(new Set(['v1', 'v2', 'v3', 'v4']));
    expect((await room().published())?.versionId).toBe(history[0]!.versionId);
  });

  it('when an account autosaves its draft, then each write names the revision it read and the revision counts up', async () => {
    const saved = await room().writeDraft(
      'a1',
      { baseVersionId: null, definitionText: '{"draft":1}', updatedAt: 5 },
      null,
    );
    expect(saved).toEqual({
      status: 'saved',
      draft: { accountId: 'a1', baseVersionId: null, definitionText: '{"draft":1}', revision: 1, updatedAt: 5 },
    });
    expect(
      await room().writeDraft('a1', { baseVersionId: 'v1', definitionText: '{"draft":2}', updatedAt: 6 }, 1),
    ).toMatchObject({ status: 'saved', draft: { revision: 2, baseVersionId: 'v1' } });
    expect(await room().readDraft('a1')).toEqual({
      accountId: 'a1',
      baseVersionId: 'v1',
      definitionText: '{"draft":2}',
      revision: 2,
      updatedAt: 6,
    });
    // Each account has its own.
    expect(await room().readDraft('b2')).toBeNull();
    expect(
      await room().writeDraft('b2', { baseVersionId: null, definitionText: '{"bob":1}', updatedAt: 7 }, null),
    ).toMatchObject({ status: 'saved', draft: { revision: 1 } });
    expect((await room().readDraft('a1'))?.definitionText).toBe('{"draft":2}');
  });

  it('when a draft write names a revision that is no longer current (another tab), then nothing is written and the stored draft is returned', async () => {
    await room().writeDraft('a1', { baseVersionId: null, definitionText: '{"tab":"one"}', updatedAt: 5 }, null);
    await room().writeDraft('a1', { baseVersionId: null, definitionText: '{"tab":"two"}', updatedAt: 6 }, 1);
    const stale = await room().writeDraft(
      'a1',
      { baseVersionId: null, definitionText: '{"tab":"stale"}', updatedAt: 7 },
      1,
    );
    expect(stale).toEqual({
      status: 'conflict',
      draft: { accountId: 'a1', baseVersionId: null, definitionText: '{"tab":"two"}', revision: 2, updatedAt: 6 },
    });
    expect(
      await room().writeDraft('a1', { baseVersionId: null, definitionText: '{"tab":"new"}', updatedAt: 7 }, null),
    ).toMatchObject({ status: 'conflict' });
    expect(await room().writeDraft('nobody', { baseVersionId: null, definitionText: '{}', updatedAt: 7 }, 3)).toEqual({
      status: 'conflict',
      draft: null,
    });
  });

  it('when two tabs autosave on the same revision at once, then exactly one write is kept', async () => {
    await room().writeDraft('a1', { baseVersionId: null, definitionText: '{"tab":0}', updatedAt: 5 }, null);
    const outcomes = await Promise.all(
      [1, 2, 3, 4].map((tab) =>
        room().writeDraft('a1', { baseVersionId: null, definitionText: `{"tab":${tab}}`, updatedAt: 6 }, 1),
      ),
    );
    expect(outcomes.filter((o) => o.status === 'saved')).toHaveLength(1);
    const stored = await room().readDraft('a1');
    expect(stored?.revision).toBe(2);
    const winner = outcomes.find((o) => o.status === 'saved')!;
    expect(stored?.definitionText).toBe(winner.draft!.definitionText);
  });

  it('when the file is marked as seen, then the last mark is read back', async () => {
    await room().markFileSeen('hash-1', 10);
    expect(await room().fileSeen()).toBe('hash-1');
    await room().markFileSeen('hash-2', 20);
    expect(await room().fileSeen()).toBe('hash-2');
  });

  it('when actions run exclusively under one key, then they never overlap, and one that fails does not hold back the next', async () => {
    let inside = 0;
    let most = 0;
    const order: number[] = [];
    const action = (n: number) => async () => {
      inside += 1;
      most = Math.max(most, inside);
      await sleep(15);
      order.push(n);
      inside -= 1;
      if (n === 2) throw new Error('second fails');
      return n;
    };
    const results = await Promise.allSettled([1, 2, 3].map((n) => room().exclusive('import', action(n))));
    expect(most).toBe(1);
    expect(order.sort()).toEqual([1, 2, 3]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  });
}
