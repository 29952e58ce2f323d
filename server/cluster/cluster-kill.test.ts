import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Store } from '../ports/store.ts';
import { openMongoStore } from '../stores/mongo/mongo-store.ts';
import { eventually } from '../test/start-test-server.ts';
import { chatClient, type ChatClient } from './test/chat-client.ts';
import { startCluster, type Cluster } from './test/cluster-harness.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const mongoUrl = inject('mongoUrl');
const text = (message: unknown) => (message as { text?: string }).text;

/**
 * A node SIGKILLed while it works, with everything real: three server processes, Redis, nginx
 * (ip_hash, so every request of the test's one address reaches the same node until it dies).
 * What a turn did must survive the kill whole: its timers, and every entry the widgets should see.
 */
describe.skipIf(!mongoUrl)('a cluster node SIGKILLed while it works', () => {
  let cluster: Cluster;
  let store: Store;
  const clients: ChatClient[] = [];

  beforeAll(async () => {
    cluster = await startCluster(mongoUrl, { CLUSTER_BOT_WAIT: '5s' });
    store = await openMongoStore({ url: cluster.databaseUrl });
  }, 300_000);

  afterAll(async () => {
    for (const client of clients) client.close();
    await cluster?.stop();
    await store?.close();
  }, 60_000);

  it('when 100 users start a 5 s wait through the balancer and their node is SIGKILLed before the waits are due, then 100 of 100 fire exactly once', async () => {
    const users = Array.from({ length: 100 }, (_, i) => `wait-user-${i}`);
    // All through the balancer: one client address, so one node takes them all (ip_hash).
    const answers = await Promise.all(
      users.map((userId, i) => cluster.trigger(cluster.balancer.url, 'wait', userId, {}, `10.3.0.${i}`)),
    );
    expect(answers.map((res) => res.status).filter((status) => status !== 202)).toEqual([]);
    // Killed at once: the triggers are stored, their turns (and the timers they start) are under way.
    const busy = cluster.nodeWhoseLogHas('wait-user-0')!;
    await cluster.kill(busy);
    const fired = async () => {
      const counts: number[] = [];
      for (const userId of users)
        counts.push(
          (await store.readTranscript(userId, 0, 100)).filter((e) => text(e.message) === 'Time is up.').length,
        );
      return counts;
    };
    await eventually(
      'every wait fired',
      async () => (await sleep(1000), (await fired()).every((n) => n >= 1)),
      90_000,
    ).catch(async (error: unknown) => {
      const counts = await fired();
      console.log(
        `waits fired: ${counts.filter((n) => n === 1).length} once, ${counts.filter((n) => n === 0).length} never, ${counts.filter((n) => n > 1).length} more than once`,
      );
      for (const node of cluster.nodes)
        console.log(
          node
            .output()
            .split('\n')
            .filter((l) => /"level":[45]0/.test(l))
            .slice(0, 10)
            .join('\n'),
        );
      throw error;
    });
    // Once more after the killed node's leases ran out: nothing fired twice.
    await sleep(4000);
    const counts = await fired();
    expect({
      once: counts.filter((n) => n === 1).length,
      never: counts.filter((n) => n === 0).length,
      twice: counts.filter((n) => n > 1).length,
    }).toEqual({ once: 100, never: 0, twice: 0 });
    await cluster.replace(busy);
  }, 240_000);

  it('when 30 widgets chat through the balancer and their node is SIGKILLed, then after the reconnect every stored entry has reached its widget exactly once', async () => {
    const widgets = Array.from({ length: 30 }, () => chatClient(cluster.balancer.url));
    clients.push(...widgets);
    const userIds = await Promise.all(
      widgets.map(async (client) => {
        await eventually('the session', () => client.userId(), 20_000);
        await eventually('the prompt', () => client.texts().includes('Say something.'), 20_000);
        return client.userId()!;
      }),
    );
    const home = cluster.nodeWhoseLogHas(`"event":"socket_connect","userId":"${userIds[0]}"`)!;
    // Each widget writes ten messages one after another (each when the last one's echo is shown); the node dies mid-way.
    const chat = (client: ChatClient) => async () => {
      for (let i = 1; i <= 10; i++) {
        client.send(String(i));
        await eventually(`echo ${i}`, () => client.texts().includes(`Echo: ${i}`), 60_000);
      }
    };
    const chatting = Promise.all(widgets.map((client) => chat(client)()));
    await eventually(
      'a few echoes on every widget',
      () => widgets.every((client) => client.texts().includes('Echo: 2')),
      90_000,
    );
    await cluster.kill(home);
    await chatting;
    // Whatever a turn stored reaches the widget soon after (its node may have died before pushing it).
    const stored = await Promise.all(userIds.map((userId) => store.readTranscript(userId, 0, 1000)));
    const missing = () =>
      widgets
        .map((client, w) =>
          stored[w]!.filter((entry) => !client.bySeq.has(entry.seq)).map((entry) => `${userIds[w]}#${entry.seq}`),
        )
        .flat();
    await eventually('every stored entry on its widget', () => missing().length === 0, 10_000).catch(() => undefined);
    expect(missing()).toEqual([]);
    for (const [w, client] of widgets.entries()) {
      // Shown once each: the widget drops a seq it already has, so what it shows is its seqs, 1…n without a gap.
      const seqs = [...client.bySeq.keys()].sort((a, b) => a - b);
      expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));
      expect(seqs.length).toBe(stored[w]!.length);
      for (let i = 1; i <= 10; i++) expect(client.texts().filter((t) => t === `Echo: ${i}`)).toHaveLength(1);
    }
  }, 240_000);
});
