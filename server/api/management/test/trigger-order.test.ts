import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRIGGER_JOB, triggerGroup } from '../../../app/trigger-dialog.ts';
import type { NewJob } from '../../../ports/store.ts';
import { eventually, storeLegs, type TestServer } from '../../../test/start-test-server.ts';
import { BOT_ID, keyed, startManagementServer } from './helpers.ts';

const said = (n: string) => `Your operation succeeded: transaction ${n}.`;

/**
 * A trigger job as an earlier process left it. Its id sorts before any trigger
 * accepted now (ids start with the acceptance time), as one accepted earlier would.
 */
function earlierTrigger(userId: string, n: string, extra: Partial<NewJob> = {}): NewJob {
  return {
    id: `trigger:0000000000:${userId}:${n}`,
    kind: TRIGGER_JOB,
    payload: { userId, channelId: 'webchat', dialogId: 'operationSucceeded', mode: null, data: { transactionId: n } },
    runAt: Date.now(),
    maxAttempts: 5,
    group: triggerGroup(userId),
    ...extra,
  };
}

for (const leg of storeLegs()) {
  describe.skipIf(leg.skip)(`trigger order and once (${leg.name})`, () => {
    let server: TestServer;
    const trigger = (userId: string, n: string) =>
      fetch(
        `${server.url}/api/trigger/${BOT_ID}/operationSucceeded?userId=${userId}`,
        keyed({
          method: 'POST',
          body: JSON.stringify({ transactionId: n }),
          headers: { 'content-type': 'application/json' },
        }),
      );
    const texts = async (userId: string) =>
      (await server.store.readTranscript(userId, 0, 100)).map((e) => (e.message as { text?: string }).text);

    beforeAll(async () => {
      server = await startManagementServer(leg.env());
    });
    afterAll(async () => {
      await server?.stop();
    });

    it('when an earlier trigger of the user is still held by a process that died, then a later one waits for it and runs after it', async () => {
      await server.store.scheduleJob(
        earlierTrigger('held', 'first', { lease: { owner: 'a-dead-worker', until: Date.now() + 1500 } }),
      );
      expect((await trigger('held', 'second')).status).toBe(202);
      await eventually('both triggers to run', async () => (await texts('held')).length === 2, 15_000);
      expect(await texts('held')).toEqual([said('first'), said('second')]);
    });

    it('when a trigger ran but its process died before finishing the job, then the job taken over does not run the dialog again', async () => {
      const job = earlierTrigger('ran', 'first', { lease: { owner: 'a-dead-worker', until: Date.now() + 500 } });
      // What the dead process had committed: the dialog's turn, with the trigger's mark.
      const user = await server.store.ensureUser({ userId: 'ran', channelId: 'webchat', now: Date.now() });
      await server.store.commitTurn({
        userId: 'ran',
        expectedVersion: user.version,
        patch: { lastTrigger: job.id },
        now: Date.now(),
        botEntries: [{ from: 'bot', at: Date.now(), message: { type: 'text', text: said('first') } }],
      });
      await server.store.scheduleJob(job);
      await eventually(
        'the job to be taken over and finished',
        async () => (await server.store.getJob(job.id))?.status === 'done',
        15_000,
      );
      expect((await trigger('ran', 'second')).status).toBe(202);
      await eventually('the later trigger to run', async () => (await texts('ran')).includes(said('second')));
      expect(await texts('ran')).toEqual([said('first'), said('second')]);
    });

    it('when an earlier trigger of the user failed for good, then later ones still run', async () => {
      const job = earlierTrigger('gaveup', 'first', {
        maxAttempts: 1,
        lease: { owner: 'a-worker', until: Date.now() + 60_000 },
      });
      await server.store.scheduleJob(job);
      await server.store.failJob(job.id, 'a-worker', 'the dialog failed', Date.now());
      expect((await trigger('gaveup', 'second')).status).toBe(202);
      await eventually('the later trigger to run', async () => (await texts('gaveup')).includes(said('second')));
      expect(await texts('gaveup')).toEqual([said('second')]);
    });

    it('when a later trigger of the user already ran (two calls at once, the later stored first), then the earlier one still runs, late rather than never', async () => {
      const user = await server.store.ensureUser({ userId: 'overtaken', channelId: 'webchat', now: Date.now() });
      // A mark past any id handed out now: as left by a trigger accepted at the same moment whose write landed first.
      await server.store.updateUser('overtaken', user.version, { lastTrigger: 'trigger:zzzzzzzzzz' }, Date.now());
      expect((await trigger('overtaken', 'late')).status).toBe(202);
      await eventually('the trigger to run', async () => (await texts('overtaken')).includes(said('late')));
      expect((await server.store.getUser('overtaken'))?.lastTrigger).toBe('trigger:zzzzzzzzzz');
    });
  });
}
