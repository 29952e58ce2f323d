import { expect, it } from 'vitest';
import type { PreviewUsers } from '../../ports/preview.ts';
import type { RestingUsers } from '../../ports/resting-users.ts';
import type { Store } from '../../ports/store.ts';
import { collect } from './harness.ts';

export interface PreviewParts {
  readonly store: Store;
  readonly previews: PreviewUsers;
  readonly resting: RestingUsers;
}

const text = (value: string) => ({ type: 'text', text: value });

/** A user who wrote once and rests on main.ask, with a transcript of two entries. */
async function converse(store: Store, userId: string, at: number, preview?: { accountId: string }): Promise<void> {
  const user = await store.ensureUser({
    userId,
    channelId: 'webchat',
    userData: { email: `${userId}@example.com` },
    now: at,
    ...(preview ? { preview } : {}),
  });
  const outcome = await store.commitTurn({
    userId,
    expectedVersion: user.version,
    patch: { position: { dialogId: 'main', stepId: 'ask', awaiting: true, retries: 0 }, lastMessageAt: at },
    now: at,
    userEntry: { from: 'user', clientId: `${userId}-1`, at, message: text('hello') },
    botEntries: [{ from: 'bot', at, message: text('Hi!') }],
  });
  expect(outcome.status).toBe('committed');
}

/**
 * The preview marker (ports/preview.ts): a user created with `preview` is read back with it, and
 * no export or count ever lists it; real users beside it are listed as before.
 */
export function previewCases(stores: () => PreviewParts): void {
  it('when a user is created with the preview mark, then it is read back with it, and a real user without one', async () => {
    const { store } = stores();
    await converse(store, 'p1', 1_000, { accountId: 'acc-1' });
    await converse(store, 'u1', 1_000);
    expect((await store.getUser('p1'))?.preview).toEqual({ accountId: 'acc-1' });
    expect((await store.getUser('u1'))?.preview).toBeUndefined();
  });

  it('when preview and real users wrote, then the userData exports and the transcript export list the real ones only', async () => {
    const { store } = stores();
    await converse(store, 'u1', 1_000);
    await converse(store, 'p1', 2_000, { accountId: 'acc-1' });
    await converse(store, 'u2', 3_000);
    expect((await collect(store.exportUsers({}))).map((row) => row.userId)).toEqual(['u1', 'u2']);
    expect((await collect(store.exportKnownUsers({}))).map((row) => row.userId)).toEqual(['u1', 'u2']);
    const transcript = await collect(store.exportTranscript({}));
    expect(new Set(transcript.map((row) => row.userId))).toEqual(new Set(['u1', 'u2']));
    expect(transcript).toHaveLength(4);
  });

  it('when exports are read in pages of one, then no page holds a preview user and none is skipped', async () => {
    const { store } = stores();
    await converse(store, 'p0', 500, { accountId: 'acc-1' });
    await converse(store, 'u1', 1_000);
    await converse(store, 'p1', 1_500, { accountId: 'acc-2' });
    await converse(store, 'u2', 2_000);
    const ids: string[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await collect(store.exportUsers({ batchSize: 1, ...(after ? { after } : {}) }));
      if (page.length === 0) break;
      ids.push(page[0]!.userId);
      after = page[0]!.cursor;
    }
    expect(ids).toEqual(['u1', 'u2']);
  });

  it('when preview users rest on a position, then the count of resting users leaves them out', async () => {
    const { store, resting } = stores();
    await converse(store, 'u1', 1_000);
    await converse(store, 'p1', 1_000, { accountId: 'acc-1' });
    await converse(store, 'p2', 1_000, { accountId: 'acc-2' });
    expect(await resting.countResting([{ dialogId: 'main', stepId: 'ask' }])).toEqual([1]);
  });

  it('when preview users are listed, then only they are, oldest change first, by account and age when asked', async () => {
    const { store, previews } = stores();
    await converse(store, 'u1', 1_000);
    await converse(store, 'p-new', 3_000, { accountId: 'acc-1' });
    await converse(store, 'p-old', 2_000, { accountId: 'acc-1' });
    await converse(store, 'p-other', 2_500, { accountId: 'acc-2' });
    expect((await previews.listPreviewUsers({ limit: 10 })).map((row) => row.userId)).toEqual([
      'p-old',
      'p-other',
      'p-new',
    ]);
    expect(await previews.listPreviewUsers({ accountId: 'acc-1', limit: 10 })).toEqual([
      { userId: 'p-old', accountId: 'acc-1', updatedAt: 2_000 },
      { userId: 'p-new', accountId: 'acc-1', updatedAt: 3_000 },
    ]);
    expect((await previews.listPreviewUsers({ updatedBefore: 2_600, limit: 10 })).map((row) => row.userId)).toEqual([
      'p-old',
      'p-other',
    ]);
    expect((await previews.listPreviewUsers({ limit: 1 })).map((row) => row.userId)).toEqual(['p-old']);
  });

  it('when a preview user is erased, then nothing of it is left to list', async () => {
    const { store, previews } = stores();
    await converse(store, 'p1', 1_000, { accountId: 'acc-1' });
    const report = await store.eraseUser('p1');
    expect(report.user).toBe(1);
    expect(report.transcript).toBe(2);
    expect(await previews.listPreviewUsers({ limit: 10 })).toEqual([]);
    expect(await store.getUser('p1')).toBeNull();
  });
}
