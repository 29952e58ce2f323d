import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Store } from '../../../ports/store.ts';
import { openMongoStore } from '../../../stores/mongo/mongo-store.ts';
import { openSqliteStore } from '../../../stores/sqlite/sqlite-store.ts';
import { startServerChild, type ServerChild } from '../../../test/server-child.ts';
import { eventually, storeLegs } from '../../../test/start-test-server.ts';
import { BOT_ID, FIXTURE_BOT, KEY } from './helpers.ts';

const USERS = 16;
const PER_USER = 12;
const KILLS = 3;
const TOTAL = USERS * PER_USER;
/** Longer than a restart takes, so triggers arrive while the dead process's leases still hold. */
const LEASE_SECONDS = '3';
const SAID = /^Your operation succeeded: transaction (\d+)\.$/;

interface UserLedger {
  readonly userId: string;
  /** Numbers answered 202, in the order sent: each must run once, in this order. */
  readonly accepted: number[];
  /** Numbers whose answer never came (the process died under the request): may have run, at most once. */
  readonly unsure: number[];
}

for (const leg of storeLegs()) {
  describe.skipIf(leg.skip)(`triggers across crashes (${leg.name})`, () => {
    it('when the server is killed and restarted during a flood of triggers, then every accepted trigger runs once, in the order accepted per user', async () => {
      const dir = await mkdtemp(path.join(tmpdir(), 'trigger-crash-'));
      const env: Record<string, string> = {
        ...leg.env(),
        DATA_DIR: dir,
        BOT_DEFINITION: FIXTURE_BOT,
        BOT_FUNCTION_KEY: KEY,
        JOB_LEASE_SECONDS: LEASE_SECONDS,
        MANAGEMENT_RATE_LIMIT: '1000000',
        LOG_LEVEL: 'warn',
      };
      let server: ServerChild = await startServerChild(env);
      let restarts = 0;
      let acceptedSoFar = 0;
      const ledgers: UserLedger[] = Array.from({ length: USERS }, (_, i) => ({
        userId: `crash-user-${i}`,
        accepted: [],
        unsure: [],
      }));
      try {
        // Each user's triggers one after another (the next only once the last was answered),
        // so acceptance order is plain; the users all at once, so many dialogs are in flight.
        const flood = ledgers.map(async (ledger) => {
          for (let n = 1; ledger.accepted.length < PER_USER; n += 1) {
            const { url } = server;
            const seenRestarts = restarts;
            const status = await fetch(`${url}/api/trigger/${BOT_ID}/operationSucceeded?userId=${ledger.userId}`, {
              method: 'POST',
              headers: { 'x-functions-key': KEY, 'content-type': 'application/json' },
              body: JSON.stringify({ transactionId: String(n) }),
            }).then(
              (res) => res.status,
              () => 0,
            );
            if (status === 202) {
              ledger.accepted.push(n);
              acceptedSoFar += 1;
            } else {
              ledger.unsure.push(n);
              // The process is down: wait for the next one rather than spin.
              await eventually('the restart', () => restarts !== seenRestarts, 60_000);
            }
          }
        });
        const crashes = (async () => {
          for (let kill = 1; kill <= KILLS; kill += 1) {
            await eventually(
              `${kill} quarter(s) of the triggers to be accepted`,
              () => acceptedSoFar >= (kill * TOTAL) / (KILLS + 1),
              60_000,
            );
            await server.kill();
            server = await startServerChild(env);
            restarts += 1;
          }
        })();
        await Promise.all([...flood, crashes]);

        const reader = await openReader(leg.name, dir, env.MONGODB_URL ?? '');
        try {
          // A user's triggers run in order, so once the last accepted one has run, all earlier ones
          // have finished. Waiting for every accepted one keeps a trigger that ran too early (before
          // an earlier one) from passing for a lost one; one that never runs is reported below.
          await eventually(
            'every accepted trigger to run',
            async () => {
              for (const ledger of ledgers) {
                const seen = new Set(await ran(reader, ledger.userId));
                if (!ledger.accepted.every((n) => seen.has(n))) return false;
              }
              return true;
            },
            30_000,
          ).catch(() => undefined);
          await server.stop();
          const problems: string[] = [];
          for (const ledger of ledgers) problems.push(...check(ledger, await ran(reader, ledger.userId)));
          const unsure = ledgers.reduce((sum, ledger) => sum + ledger.unsure.length, 0);
          console.info(
            `[trigger crash, ${leg.name}] ${TOTAL} accepted, ${unsure} unanswered, ${KILLS} kills: ${problems.length} problems`,
          );
          expect(problems).toEqual([]);
        } finally {
          await reader.close();
        }
      } finally {
        await server.stop();
        await rm(dir, { recursive: true, force: true });
      }
    }, 180_000);
  });
}

/** The trigger numbers of the user's transcript, in transcript order. */
async function ran(store: Store, userId: string): Promise<number[]> {
  const entries = await store.readTranscript(userId, 0, 10_000);
  return entries.map((entry) => {
    const text = String((entry.message as { text?: unknown }).text);
    const match = SAID.exec(text);
    if (!match) throw new Error(`unexpected message for ${userId}: ${text}`);
    return Number(match[1]);
  });
}

/** What went wrong for one user, in words: lost, doubled, unknown or out-of-order triggers. */
function check(ledger: UserLedger, seen: readonly number[]): string[] {
  const problems: string[] = [];
  const count = (n: number) => seen.filter((s) => s === n).length;
  for (const n of ledger.accepted) {
    if (count(n) !== 1) problems.push(`${ledger.userId}: accepted trigger ${n} ran ${count(n)} times`);
  }
  for (const n of ledger.unsure) {
    if (count(n) > 1) problems.push(`${ledger.userId}: unanswered trigger ${n} ran ${count(n)} times`);
  }
  for (const n of new Set(seen)) {
    if (!ledger.accepted.includes(n) && !ledger.unsure.includes(n))
      problems.push(`${ledger.userId}: trigger ${n} ran but was never sent`);
  }
  // Sent in increasing order, one after another: what ran must be increasing too.
  const order = seen.filter((n, i) => i > 0 && n <= seen[i - 1]!);
  if (order.length > 0) problems.push(`${ledger.userId}: out of order: ${seen.join(', ')}`);
  return problems;
}

/** A second connection to the server's store, to read what its dialogs wrote. */
async function openReader(leg: string, dir: string, mongoUrl: string): Promise<Store> {
  if (leg === 'mongo') return openMongoStore({ url: mongoUrl });
  return openSqliteStore({ file: path.join(dir, 'chatbot.sqlite') });
}
