import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LogKind, NewJob, NewLogEntry, Store, UserRecord } from '../../ports/store.ts';
import { openSqliteStore } from '../../stores/sqlite/sqlite-store.ts';
import { readAll, tempDir } from '../../integrations/test/upstream.ts';
import { previewStore } from './preview-store.ts';

/** The store as one preview sees it, over a real SQLite store. */
describe("a preview's view of the store", () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let real: Store;
  let store: Store;
  let notLogged: Array<{ kind: LogKind; entries: readonly NewLogEntry[] }>;
  let changed: UserRecord[];
  let committed: number;
  let handed: Array<{ jobs: readonly NewJob[]; cancelJobs: readonly string[]; at: number }>;

  beforeEach(async () => {
    dir = await tempDir();
    real = openSqliteStore({ file: dir.file('store.sqlite') });
    notLogged = [];
    changed = [];
    committed = 0;
    handed = [];
    store = previewStore(real, { accountId: 'acc-7' }, () => 'preview-1', {
      committed: () => void committed++,
      changed: (user) => void changed.push(user),
      jobs: (jobs, cancelJobs, at) => void handed.push({ jobs, cancelJobs, at }),
      notLogged: (kind, entries) => void notLogged.push({ kind, entries }),
    });
  });
  afterEach(async () => {
    await real.close();
    await dir.dispose();
  });

  it("when the preview creates its user, then the real store holds it with the author's preview mark", async () => {
    await store.ensureUser({ userId: 'preview-1', channelId: 'webchat', userData: {}, now: 1_000 });
    expect((await real.getUser('preview-1'))?.preview).toEqual({ accountId: 'acc-7' });
  });

  it('when a turn of the preview writes log rows, then none reaches the store and the preview is told of each', async () => {
    const user = await store.ensureUser({ userId: 'preview-1', channelId: 'webchat', userData: {}, now: 1_000 });
    await store.appendLog('integrationLog', { userId: 'preview-1', timestamp: 1_000, data: { url: 'http://x' } });
    await store.appendLogs('nlpLog', [{ userId: 'preview-1', timestamp: 1_000, data: { text: 'hi' } }]);
    const outcome = await store.commitTurn({
      userId: 'preview-1',
      expectedVersion: user.version,
      patch: { lastMessageAt: 1_000 },
      now: 1_000,
      botEntries: [{ from: 'bot', at: 1_000, message: { type: 'text', text: 'Hi!' } }],
      snapshots: [{ userId: 'preview-1', timestamp: 1_000, data: { name: 'Ada' } }],
    });
    expect(outcome.status).toBe('committed');
    expect(committed).toBe(1);
    expect(await readAll(real)).toEqual([]);
    expect(notLogged.map((n) => n.kind)).toEqual(['integrationLog', 'nlpLog', 'userDataSnapshot']);
  });

  it('when the preview changes its user outside a turn, then the change is stored and the preview hears of it', async () => {
    const user = await store.ensureUser({ userId: 'preview-1', channelId: 'webchat', userData: {}, now: 1_000 });
    await store.updateUser('preview-1', user.version, { userData: { city: 'Oslo' } }, 2_000);
    expect((await real.getUser('preview-1'))?.userData).toEqual({ city: 'Oslo' });
    expect(changed.at(-1)?.userData).toEqual({ city: 'Oslo' });
  });

  it('when anything in the preview names another user or asks for a durable job, then it is refused and nothing is written', async () => {
    await expect(
      store.ensureUser({ userId: 'someone-else', channelId: 'webchat', userData: {}, now: 1_000 }),
    ).rejects.toThrow(/not its own/);
    expect(await real.getUser('someone-else')).toBeNull();
    await expect(store.appendTranscript('someone-else', [])).rejects.toThrow(/not its own/);
    await expect(store.scheduleJob({ kind: 'integration', runAt: 1_000, payload: {} } as never)).rejects.toThrow(
      /no durable jobs/,
    );
  });

  it('when a turn of the preview sets a timer, starts an asynchronous call and writes an NLP log row, then no job or log row is stored and the preview is handed the jobs', async () => {
    const user = await store.ensureUser({ userId: 'preview-1', channelId: 'webchat', userData: {}, now: 1_000 });
    const timer: NewJob = {
      id: 'timer:preview-1:home.wait',
      kind: 'timer',
      payload: { userId: 'preview-1', timerId: 'home.wait' },
      runAt: 86_401_000,
    };
    const call: NewJob = {
      id: 'integration:1',
      kind: 'integration',
      payload: { step: {}, context: { userId: 'preview-1', variables: {}, userData: {} } },
      runAt: 1_000,
    };
    const outcome = await store.commitTurn({
      userId: 'preview-1',
      expectedVersion: user.version,
      patch: { lastMessageAt: 1_000 },
      now: 1_000,
      botEntries: [],
      jobs: [timer, call],
      cancelJobs: ['timer:preview-1:home.before'],
      logs: [{ kind: 'nlpLog', entry: { userId: 'preview-1', timestamp: 1_000, data: { text: 'hello' } } }],
    });
    expect(outcome.status).toBe('committed');
    expect(handed).toEqual([{ jobs: [timer, call], cancelJobs: ['timer:preview-1:home.before'], at: 1_000 }]);
    expect(await real.getJob(timer.id)).toBeNull();
    expect(await real.getJob(call.id)).toBeNull();
    const nlp = [];
    for await (const entry of real.readLogs('nlpLog', {})) nlp.push(entry);
    expect(nlp).toEqual([]);
    expect(notLogged.map((n) => n.kind)).toEqual(['nlpLog']);
  });

  it('when a turn of the preview does not commit (a stale version), then no job is handed on', async () => {
    await store.ensureUser({ userId: 'preview-1', channelId: 'webchat', userData: {}, now: 1_000 });
    const timer: NewJob = {
      id: 'timer:preview-1:home.wait',
      kind: 'timer',
      payload: { userId: 'preview-1', timerId: 'home.wait' },
      runAt: 5_000,
    };
    const outcome = await store.commitTurn({
      userId: 'preview-1',
      expectedVersion: 999,
      patch: {},
      now: 1_000,
      botEntries: [],
      jobs: [timer],
    });
    expect(outcome.status).not.toBe('committed');
    expect(handed).toEqual([]);
  });
});
