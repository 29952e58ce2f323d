import { describe, expect, inject, it } from 'vitest';
import { mongoLeg, sqliteLeg, useFreshStore } from '../stores/contract/harness.ts';
import { LeasedTurns } from './turn-lease.ts';

const mongoUrl = inject('mongoUrl');
const legs = [
  { leg: sqliteLeg, skip: false },
  { leg: mongoLeg(mongoUrl), skip: mongoUrl === '' },
];

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

for (const { leg, skip } of legs) {
  describe.skipIf(skip)(`one user's turns across processes (${leg.name})`, () => {
    const store = useFreshStore(leg);

    it("when two processes run turns of the same user at once, then they never overlap, and other users' turns do", async () => {
      const nodeA = new LeasedTurns(store(), { owner: 'node-a' });
      const nodeB = new LeasedTurns(store(), { owner: 'node-b' });
      const running = new Map<string, number>();
      let overlapSameUser = 0;
      let overlapAcrossUsers = 0;
      const turn = (userId: string) => async () => {
        const now = (running.get(userId) ?? 0) + 1;
        running.set(userId, now);
        if (now > 1) overlapSameUser += 1;
        if ([...running.values()].filter((n) => n > 0).length > 1) overlapAcrossUsers += 1;
        await pause(15);
        running.set(userId, (running.get(userId) ?? 1) - 1);
      };
      await Promise.all(
        Array.from({ length: 8 }, (_, i) => [
          nodeA.run('ada', turn('ada')),
          nodeB.run('ada', turn('ada')),
          (i % 2 ? nodeA : nodeB).run(`other-${i}`, turn(`other-${i}`)),
        ]).flat(),
      );
      expect(overlapSameUser).toBe(0);
      expect(overlapAcrossUsers).toBeGreaterThan(0);
    });

    it("when the process holding a user's lease is gone, then the next turn waits for the lease to run out, and runs", async () => {
      const ttlMs = 600;
      // A process killed mid-turn: it took the lease and will never renew or release it.
      expect(await store().acquireLease('turn:ada', 'killed-node', ttlMs, Date.now())).not.toBeNull();
      const survivor = new LeasedTurns(store(), { owner: 'survivor', ttlMs });
      const started = Date.now();
      await survivor.run('ada', async () => undefined);
      const waited = Date.now() - started;
      expect(waited).toBeGreaterThanOrEqual(ttlMs - 50);
    });

    it('when a turn runs longer than the lease, then its renewals keep other processes out', async () => {
      const ttlMs = 300;
      const nodeA = new LeasedTurns(store(), { owner: 'node-a', ttlMs });
      const nodeB = new LeasedTurns(store(), { owner: 'node-b', ttlMs });
      const order: string[] = [];
      const long = nodeA.run('ada', async () => {
        order.push('a-start');
        await pause(ttlMs * 3);
        order.push('a-end');
      });
      await pause(50);
      await nodeB.run('ada', async () => {
        order.push('b');
      });
      await long;
      expect(order).toEqual(['a-start', 'a-end', 'b']);
    });
  });
}
