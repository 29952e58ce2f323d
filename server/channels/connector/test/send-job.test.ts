import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JobGivenUp } from '../../../ports/scheduler.ts';
import type { Job, NewJob } from '../../../ports/store.ts';
import { openSqliteStore, type SqliteStore } from '../../../stores/sqlite/sqlite-store.ts';
import { SendFailure, type Connector } from '../connector.ts';
import { textOrImage, type RenderedPart } from '../ladder.ts';
import { SEND_JOB, connectorDelivery, sendGroup, sendJobHandler } from '../outbound.ts';

const CHANNEL = 'fake';
const USER = 'fake:42';
const quiet = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

/** A channel whose `send` records each part's text, or throws what `refuse` says for it. */
function fakeConnector(refuse: (text: string) => SendFailure | undefined = () => undefined) {
  const sent: string[] = [];
  const connector: Connector = {
    name: CHANNEL,
    capabilities: {
      textMax: 1000,
      captionMax: 100,
      buttons: null,
      list: null,
      quickReplies: null,
      images: false,
    },
    maxBodyBytes: 1024,
    secrets: [],
    bodyFormat: 'json',
    verify: () => undefined,
    parse: () => [],
    async send(_address: string, part: RenderedPart) {
      const one = textOrImage(part);
      const text = one.kind === 'image' ? one.url : one.text;
      const failure = refuse(text);
      if (failure) throw failure;
      sent.push(text);
    },
  };
  return { connector, sent };
}

describe("a channel turn's send job", () => {
  let dir: string;
  let store: SqliteStore;
  let at: number;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'send-job-'));
    store = openSqliteStore({ file: path.join(dir, 'chatbot.sqlite') });
    const user = await store.ensureUser({ userId: USER, channelId: CHANNEL, now: 1_000 });
    at = 2_000;
    await store.commitTurn({
      userId: USER,
      expectedVersion: user.version,
      patch: {},
      now: at,
      botEntries: ['One.', 'Two.', 'Three.'].map((text) => ({
        from: 'bot' as const,
        at,
        message: { type: 'text', text },
      })),
    });
  });
  afterEach(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** The turn's job as its delivery hands it off, stored running, as the runner hands it to the handler on `attempts`. */
  async function turnJob(connector: Connector, attempts = 1): Promise<Job> {
    const [job] = connectorDelivery(connector, () => at).handOff!({ userId: USER } as never, {
      firstSeq: 1,
      lastSeq: 3,
      at,
      events: [],
    });
    await store.scheduleJob({ ...job!, lease: { owner: 'w', until: Date.now() + 30_000 } });
    return {
      ...job!,
      status: 'running',
      attempts,
      maxAttempts: job!.maxAttempts ?? 1,
      group: job!.group ?? null,
      leaseOwner: 'w',
      leaseUntil: Date.now() + 30_000,
      lastError: null,
    };
  }

  function handler(connector: Connector, scheduled: NewJob[] = []) {
    return sendJobHandler({
      store,
      scheduler: { schedule: async (job) => void scheduled.push(job) },
      connectors: new Map([[CHANNEL, connector]]),
      logger: quiet,
      now: () => Date.now(),
    });
  }

  it('when a turn says three messages, then one job sends them all, in order', async () => {
    const { connector, sent } = fakeConnector();
    const job = await turnJob(connector);
    expect(job).toMatchObject({ kind: SEND_JOB, group: sendGroup(CHANNEL, USER) });
    await handler(connector)(job);
    expect(sent).toEqual(['One.', 'Two.', 'Three.']);
  });

  it('when the vendor refuses one message for good, then the turn goes on with the next, and the job is given up naming the refusal', async () => {
    const { connector, sent } = fakeConnector((text) =>
      text === 'Two.' ? new SendFailure('permanent', '400', 'fake: message too odd') : undefined,
    );
    await expect(handler(connector)(await turnJob(connector))).rejects.toBeInstanceOf(JobGivenUp);
    expect(sent).toEqual(['One.', 'Three.']);
  });

  it('when a passing fault meets a later message, then the rest goes on in a job of its own and nothing is sent twice', async () => {
    const { connector, sent } = fakeConnector((text) =>
      text === 'Two.' ? new SendFailure('transient', '502', 'fake: bad gateway') : undefined,
    );
    const scheduled: NewJob[] = [];
    const job = await turnJob(connector);
    await handler(connector, scheduled)(job);
    expect(sent).toEqual(['One.']);
    expect(scheduled).toEqual([
      expect.objectContaining({
        id: `${job.id}:2.0`,
        group: job.group,
        payload: expect.objectContaining({ seq: 2, last: 3, from: 0 }),
      }),
    ]);
    expect(scheduled[0]!.id > job.id).toBe(true);
  });

  it('when the first message still fails on the last attempt, then it is given up and the rest of the turn goes on in a job of its own', async () => {
    const { connector, sent } = fakeConnector((text) =>
      text === 'One.' ? new SendFailure('transient', '502', 'fake: bad gateway') : undefined,
    );
    const scheduled: NewJob[] = [];
    await expect(handler(connector, scheduled)(await turnJob(connector, 12))).rejects.toThrow('bad gateway');
    expect(sent).toEqual([]);
    expect(scheduled.map((job) => job.payload)).toEqual([expect.objectContaining({ seq: 2, last: 3, from: 0 })]);
  });

  it('when the vendor asks to wait before anything left, then the job waits without an attempt used', async () => {
    const { connector, sent } = fakeConnector((text) =>
      text === 'One.' ? new SendFailure('rate_limited', '429', 'fake: slow down', 3_000) : undefined,
    );
    const before = Date.now();
    const outcome = await handler(connector)(await turnJob(connector));
    expect(outcome).toEqual({ deferUntil: expect.any(Number) });
    expect((outcome as { deferUntil: number }).deferUntil).toBeGreaterThanOrEqual(before + 3_000);
    expect(sent).toEqual([]);
  });

  it('when a job stored before a turn had one job (one message, no last seq) runs, then it sends that message alone', async () => {
    const { connector, sent } = fakeConnector();
    const job = await turnJob(connector);
    await handler(connector)({ ...job, payload: { channel: CHANNEL, user: USER, seq: 2, at, from: 0 } });
    expect(sent).toEqual(['Two.']);
  });

  it('when the user was erased (on any node) after the job was handed over, then the job sends nothing', async () => {
    const { connector, sent } = fakeConnector();
    const job = await turnJob(connector);
    await store.eraseUser(USER);
    await handler(connector)(job);
    expect(sent).toEqual([]);
  });
});
