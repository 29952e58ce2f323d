import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startServerChild, type ServerChild } from '../../../test/server-child.ts';
import { eventually, storeLegs } from '../../../test/start-test-server.ts';
import { KEY } from './helpers.ts';
import { signatureValid, startSubscriber, type Subscriber } from './subscriber.ts';

const BOT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'subscriptions-bot.json');
const USERS = 8;
const PER_USER = 10;
const KILLS = 2;
const TOTAL = USERS * PER_USER;

interface Ledger {
  readonly userId: string;
  /** Orders answered 202, in the order sent: each must be heard of once, in this order. */
  readonly accepted: number[];
  /** Orders whose answer never came (the process died under the request): heard of at most once. */
  readonly unsure: number[];
}

for (const leg of storeLegs()) {
  describe.skipIf(leg.skip)(`event subscriptions across crashes (${leg.name})`, () => {
    it('when the server is killed and restarted while triggers make events, then the subscriber hears of every accepted one once, in order per user, signed', async () => {
      const dir = await mkdtemp(path.join(tmpdir(), 'subscriptions-crash-'));
      const subscriber: Subscriber = await startSubscriber();
      const env: Record<string, string> = {
        ...leg.env(),
        DATA_DIR: dir,
        BOT_DEFINITION: BOT,
        BOT_FUNCTION_KEY: KEY,
        JOB_LEASE_SECONDS: '3',
        MANAGEMENT_RATE_LIMIT: '1000000',
        INTEGRATION_ALLOWED_HOSTS: '127.0.0.1',
        SUBSCRIPTION_RETRY_MIN: '50ms',
        SUBSCRIPTION_RETRY_MAX: '500ms',
        LOG_LEVEL: 'warn',
      };
      let server: ServerChild = await startServerChild(env);
      const outputs: string[] = [];
      try {
        const made = await fetch(`${server.url}/api/management/subscriptions`, {
          method: 'POST',
          headers: { 'x-functions-key': KEY, 'content-type': 'application/json' },
          body: JSON.stringify({ targetUrl: subscriber.url, events: ['userData.changed', 'trigger.finished'] }),
        });
        expect(made.status).toBe(201);
        const { secret } = (await made.json()) as { secret: string };

        let restarts = 0;
        let acceptedSoFar = 0;
        const ledgers: Ledger[] = Array.from({ length: USERS }, (_, i) => ({
          userId: `crash-hooks-${i}`,
          accepted: [],
          unsure: [],
        }));
        // Each user's triggers one after another, the users all at once, as in trigger-crash.test.ts.
        const flood = ledgers.map(async (ledger) => {
          for (let n = 1; ledger.accepted.length < PER_USER; n += 1) {
            const seenRestarts = restarts;
            const status = await fetch(`${server.url}/api/trigger/hooks-test/order?userId=${ledger.userId}`, {
              method: 'POST',
              headers: { 'x-functions-key': KEY, 'content-type': 'application/json' },
              body: JSON.stringify({ orderId: String(n) }),
            }).then(
              (res) => res.status,
              () => 0,
            );
            if (status === 202) {
              ledger.accepted.push(n);
              acceptedSoFar += 1;
            } else {
              ledger.unsure.push(n);
              await eventually('the restart', () => restarts !== seenRestarts, 60_000);
            }
          }
        });
        const crashes = (async () => {
          for (let kill = 1; kill <= KILLS; kill += 1) {
            await eventually(
              `${kill} third(s) of the triggers to be accepted`,
              () => acceptedSoFar >= (kill * TOTAL) / (KILLS + 1),
              60_000,
            );
            outputs.push(server.output());
            await server.kill();
            server = await startServerChild(env);
            restarts += 1;
          }
        })();
        await Promise.all([...flood, crashes]);

        const heard = (userId: string) =>
          subscriber
            .accepted()
            .filter((e) => e.user.id === userId && e.kind === 'userData.changed')
            .map((e) => Number((e.data.values as { triggerData: { orderId: string } }).triggerData.orderId));
        await eventually(
          'every accepted order to be heard of',
          () => ledgers.every((l) => l.accepted.every((n) => heard(l.userId).includes(n))),
          90_000,
        ).catch(() => undefined);
        // What is still on its way after the last accepted one (an unanswered trigger's events) may land too.
        await new Promise((resolve) => setTimeout(resolve, 1000));

        const problems: string[] = [];
        for (const ledger of ledgers) {
          const seen = heard(ledger.userId);
          const count = (n: number) => seen.filter((s) => s === n).length;
          for (const n of ledger.accepted)
            if (count(n) !== 1) problems.push(`${ledger.userId}: accepted order ${n} heard of ${count(n)} times`);
          for (const n of ledger.unsure)
            if (count(n) > 1) problems.push(`${ledger.userId}: unanswered order ${n} heard of ${count(n)} times`);
          if (seen.some((n, i) => i > 0 && n <= seen[i - 1]!))
            problems.push(`${ledger.userId}: out of order: ${seen.join(', ')}`);
          // Each trigger's run is one trigger.finished, right after its data: as many as orders heard of.
          const finished = subscriber
            .accepted()
            .filter((e) => e.user.id === ledger.userId && e.kind === 'trigger.finished').length;
          if (finished !== seen.length)
            problems.push(`${ledger.userId}: ${seen.length} orders heard of but ${finished} trigger.finished`);
        }
        const unsigned = subscriber.received.filter((r) => !signatureValid(r, secret)).length;
        const redelivered = subscriber.received.length - subscriber.accepted().length;
        const unsure = ledgers.reduce((sum, l) => sum + l.unsure.length, 0);
        console.info(
          `[subscriptions crash, ${leg.name}] ${TOTAL} accepted, ${unsure} unanswered, ${KILLS} kills, ${subscriber.accepted().length} events, ${redelivered} redelivered with their id: ${problems.length} problems`,
        );
        if (problems.length > 0) console.info([...outputs, server.output()].join('\n----\n').slice(0, 8000));
        expect(problems).toEqual([]);
        expect(unsigned).toBe(0);
        // Sequence numbers only go up for each user, whatever the crashes.
        for (const ledger of ledgers) {
          const sequence = subscriber
            .accepted()
            .filter((e) => e.user.id === ledger.userId)
            .map((e) => e.sequence);
          expect(sequence).toEqual([...sequence].sort((a, b) => a - b));
        }
      } finally {
        await server.stop();
        await subscriber.close();
        await rm(dir, { recursive: true, force: true });
      }
    }, 240_000);
  });
}
