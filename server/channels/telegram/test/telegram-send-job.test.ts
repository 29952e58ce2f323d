import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEND_JOB, sendGroup, sendJobHandler } from '../../connector/outbound.ts';
import type { Job } from '../../../ports/store.ts';
import { openSqliteStore, type SqliteStore } from '../../../stores/sqlite/sqlite-store.ts';
import { collect } from '../../../stores/contract/harness.ts';
import { telegramApi } from '../telegram-api.ts';
import { TELEGRAM, telegramConnector } from '../telegram-connector.ts';
import { startTelegramStandIn, type TelegramStandIn } from './telegram-stand-in.ts';

/** The send job's last attempt, as the job runner hands it over after eleven failed ones. */
const lastAttempt = (payload: Record<string, unknown>): Job => ({
  id: `${SEND_JOB}:0000000001:00000001:x`,
  kind: SEND_JOB,
  payload,
  runAt: 0,
  status: 'running',
  attempts: 12,
  maxAttempts: 12,
  group: sendGroup(TELEGRAM, 'telegram:5001'),
  leaseOwner: 'w',
  leaseUntil: Date.now() + 30_000,
  lastError: null,
});

describe('a Telegram send that keeps failing', () => {
  let dir: string;
  let store: SqliteStore;
  let standIn: TelegramStandIn;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'telegram-send-'));
    store = openSqliteStore({ file: path.join(dir, 'chatbot.sqlite') });
    standIn = await startTelegramStandIn();
  });
  afterAll(async () => {
    await standIn?.close();
    await store?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('when the last attempt still meets a passing fault, then the message is given up, logged with the code and written to the integration log', async () => {
    const user = await store.ensureUser({ userId: 'telegram:5001', channelId: TELEGRAM, now: 1_000 });
    const at = 2_000;
    const outcome = await store.commitTurn({
      userId: user.userId,
      expectedVersion: user.version,
      patch: {},
      now: at,
      botEntries: [{ from: 'bot', at, message: { type: 'text', text: 'Hello.' } }],
    });
    expect(outcome.status).toBe('committed');
    standIn.breakDown(5001);
    const lines: Record<string, unknown>[] = [];
    const logger = {
      debug: () => undefined,
      info: () => undefined,
      warn: (fields: Record<string, unknown>) => void lines.push(fields),
      error: (fields: Record<string, unknown>) => void lines.push(fields),
    };
    const connector = telegramConnector({
      call: telegramApi({ token: standIn.token, apiUrl: standIn.url }),
      secret: 'unused-secret-0123456789',
      token: standIn.token,
    });
    const handler = sendJobHandler({
      store,
      scheduler: { schedule: async () => undefined },
      connectors: new Map([[TELEGRAM, connector]]),
      logger,
      now: () => Date.now(),
    });

    const job = lastAttempt({ channel: TELEGRAM, user: 'telegram:5001', seq: 1, at, from: 0 });
    // Stored running, as the runner's claim leaves it: a job whose row is gone sends nothing.
    await store.scheduleJob({ ...job, group: job.group!, lease: { owner: 'w', until: job.leaseUntil! } });
    await expect(handler(job)).rejects.toThrow('Bad Gateway');
    expect(lines).toContainEqual(
      expect.objectContaining({ event: 'channel_send_refused', vendorCode: '502', userId: 'telegram:5001' }),
    );
    const logged = await collect(store.readLogs('integrationLog', {}));
    expect(logged.map((entry) => entry.data)).toEqual([
      expect.objectContaining({
        url: 'telegram:sendMessage',
        responseStatus: '502',
        responseBody: 'Telegram sendMessage: Bad Gateway',
      }),
    ]);
  });
});
