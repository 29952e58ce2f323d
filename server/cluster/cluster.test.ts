import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { writeBot } from '../app/test/every-step-bot.ts';
import { startUpstream, json, type Upstream } from '../integrations/test/upstream.ts';
import type { Store } from '../ports/store.ts';
import { openMongoStore } from '../stores/mongo/mongo-store.ts';
import { startServerChild, type ServerChild } from '../test/server-child.ts';
import { eventually, TEST_FUNCTION_KEY } from '../test/start-test-server.ts';
import { startBalancer, type Balancer } from './test/balancer.ts';
import { setUpOwner } from '../studio-server/test/studio-client.ts';
import { chatClient, type ChatClient } from './test/chat-client.ts';
import { clusterBot } from './test/cluster-bot.ts';
import { startRedis, type RedisProcess } from './test/redis-process.ts';

const LIMIT = 30;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const mongoUrl = inject('mongoUrl');

/**
 * Three server processes on one Mongo-compatible store and one Redis, behind Debian's nginx
 * running docs/cluster/nginx.conf. Every part is real and on loopback.
 */
describe.skipIf(!mongoUrl)('a cluster of three nodes behind a load balancer', () => {
  let dir: string;
  let redis: RedisProcess;
  let upstream: Upstream;
  let balancer: Balancer;
  let store: Store;
  let env: Record<string, string>;
  let botFile: string;
  const nodes: ServerChild[] = [];
  const clients: ChatClient[] = [];
  let release: (() => void) | undefined;

  /** A node; a replacement takes the port of the one it replaces, so the balancer reaches it as an operator's restart would. */
  const startNode = async (port = 0) => {
    const node = await startServerChild({
      ...env,
      PORT: String(port),
      DATA_DIR: await mkdtemp(path.join(dir, 'node-')),
    });
    nodes.push(node);
    return node;
  };
  const nodeOf = (userId: string) =>
    nodes.find((node) => node.output().includes(`"event":"socket_connect","userId":"${userId}"`));
  const connected = async (client: ChatClient) => {
    await eventually('the session', () => client.userId(), 10_000);
    await eventually('the prompt', () => client.texts().includes('Say something.'), 10_000);
    return client.userId()!;
  };
  const trigger = (node: ServerChild, dialog: string, userId: string, body: unknown, ip = '10.9.9.9') =>
    fetch(`${node.url}/api/trigger/cluster/${dialog}?userId=${encodeURIComponent(userId)}`, {
      method: 'POST',
      headers: { 'x-functions-key': TEST_FUNCTION_KEY, 'content-type': 'application/json', 'x-forwarded-for': ip },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'cluster-test-'));
    redis = await startRedis();
    upstream = await startUpstream((req, res) => {
      if (req.url !== '/slow') return json(res, 404, {});
      // Held until the test releases it: the call is in flight while the node is told to stop.
      void new Promise<void>((resolve) => (release = resolve)).then(() => json(res, 200, { word: 'ready' }));
    });
    const databaseUrl = `${mongoUrl.replace(/\/$/, '')}/cluster_${process.pid}`;
    env = {
      BOT_DEFINITION: (botFile = await writeBot(dir, clusterBot)),
      BOT_FUNCTION_KEY: TEST_FUNCTION_KEY,
      SESSION_SECRET: 'cluster-session-secret-0123456789abcdef',
      SECRETS_KEY: 'cluster-secrets-key-0123456789abcdef',
      MONGODB_URL: databaseUrl,
      REDIS_URL: redis.url,
      UPSTREAM_URL: `${upstream.url}/`,
      INTEGRATION_ALLOWED_HOSTS: '127.0.0.1',
      JOB_LEASE_SECONDS: '3',
      CLUSTER_BOT_WAIT: '40s',
      MANAGEMENT_RATE_LIMIT: String(LIMIT),
      WEBCHAT_RATE_LIMIT: '20',
      SHUTDOWN_GRACE: '15s',
      LOG_LEVEL: 'info',
    };
    for (let i = 0; i < 3; i++) await startNode();
    balancer = await startBalancer(nodes.map((node) => Number(new URL(node.url).port)));
    store = await openMongoStore({ url: databaseUrl });
  }, 120_000);

  afterAll(async () => {
    release?.();
    for (const client of clients) client.close();
    await Promise.all(nodes.map((node) => node.kill()));
    await balancer?.stop();
    await redis?.stop();
    await upstream?.close();
    await store?.close();
    await rm(dir, { recursive: true, force: true });
  }, 60_000);

  it('when a trigger is posted to node B for a widget connected to node A, then the widget gets it live and the 202 says live', async () => {
    const client = chatClient(balancer.url);
    clients.push(client);
    const userId = await connected(client);
    const home = nodeOf(userId)!;
    const other = nodes.find((node) => node !== home)!;
    const res = await trigger(other, 'ping', userId, { n: 7 });
    expect(res.status).toBe(202);
    expect(await res.json()).toMatchObject({ userId, dialogId: 'ping', delivery: 'live' });
    await eventually('the ping on the widget', () => client.texts().includes('Ping 7.'), 10_000);
    // And a user connected nowhere is queued.
    expect(await (await trigger(other, 'ping', 'nobody-connected', { n: 1 })).json()).toMatchObject({
      delivery: 'queued',
    });
    client.close();
  });

  it('when requests are spread over three nodes, then one limit holds; with Redis killed each node allows its share; with Redis back one limit holds again', async () => {
    const burst = async (ip: string, perNode: number) => {
      const statuses = await Promise.all(
        nodes.flatMap((node) =>
          Array.from({ length: perNode }, () =>
            fetch(`${node.url}/api/management/datasets/places`, {
              headers: { 'x-functions-key': TEST_FUNCTION_KEY, 'x-forwarded-for': ip },
              signal: AbortSignal.timeout(10_000),
            }).then(
              (res) => res.status,
              (error: Error) => (console.log(node.url, error.message), 0),
            ),
          ),
        ),
      );
      const result = {
        accepted: statuses.filter((s) => s === 200).length,
        refused: statuses.filter((s) => s === 429).length,
      };
      if (result.accepted !== LIMIT)
        for (const node of nodes)
          console.log(
            node
              .output()
              .split('\n')
              .filter((l) => /"level":[45]0/.test(l))
              .join('\n'),
          );
      return result;
    };
    const allSee = (redisState: string) =>
      eventually(
        `every node seeing Redis ${redisState} and three nodes`,
        async () => {
          const bodies = await Promise.all(
            nodes.map(
              async (node) => (await (await fetch(`${node.url}/readyz`)).json()) as { redis?: string; nodes?: number },
            ),
          );
          return bodies.every((body) => body.redis === redisState && body.nodes === 3);
        },
        15_000,
      );
    await allSee('reachable');
    // Tolerance: none. Redis counts atomically, so exactly the limit gets through.
    expect(await burst('10.0.0.1', 20)).toEqual({ accepted: LIMIT, refused: 60 - LIMIT });

    const local = chatClient(nodes[0]!.url, { reconnect: false });
    clients.push(local);
    const localUser = await connected(local);
    await redis.kill();
    await allSee('unreachable');
    // A widget on the node that runs the turn still gets it live without Redis.
    expect(await (await trigger(nodes[0]!, 'ping', localUser, { n: 99 }, '10.0.0.9')).json()).toMatchObject({
      delivery: 'live',
    });
    await eventually(
      'the ping on a widget of the same node, Redis away',
      () => local.texts().includes('Ping 99.'),
      10_000,
    );
    local.close();
    // Each node alone: its share, LIMIT / 3, so the cluster still holds the limit.
    expect(await burst('10.0.0.2', 20)).toEqual({ accepted: LIMIT, refused: 60 - LIMIT });

    await redis.restart();
    await allSee('reachable');
    expect(await burst('10.0.0.3', 20)).toEqual({ accepted: LIMIT, refused: 60 - LIMIT });
  }, 60_000);

  it('when one user chats from three nodes at once, then their messages count against one limit', async () => {
    const first = chatClient(nodes[0]!.url, { reconnect: false });
    clients.push(first);
    const userId = await connected(first);
    const session = first.session()!;
    const others = [nodes[1]!, nodes[2]!].map((node) => chatClient(node.url, { reconnect: false, session }));
    clients.push(...others);
    for (const other of others)
      await eventually('the same user on another node', () => other.userId() === userId, 10_000);
    // Ten each, within the per-connection burst: only the shared count (20 a minute for the user) refuses.
    const replies = await Promise.all(
      [first, ...others].flatMap((client, c) =>
        Array.from({ length: 10 }, (_, i) =>
          client.socket.emitWithAck('message', { clientId: `limit-${c}-${i}`, text: `limit ${c}-${i}` }),
        ),
      ),
    );
    const refused = replies.filter((reply) => !reply.ok);
    expect(replies.length - refused.length).toBe(20);
    expect(refused.every((reply) => !reply.ok && reply.error.code === 'rate_limited')).toBe(true);
    for (const client of [first, ...others]) client.close();
  });

  it('when rows are pushed to node C, then a query on node A finds them', async () => {
    const [a, , c] = nodes;
    const rows = Array.from({ length: 4 }, (_, i) => ({
      id: `p${i}`,
      name: `Place ${i}`,
      tags: ['cafe'],
      lat: 52.2,
      lon: 21,
    }));
    const pushed = await fetch(`${c!.url}/api/management/datasets/places`, {
      method: 'PUT',
      headers: {
        'x-functions-key': TEST_FUNCTION_KEY,
        'content-type': 'application/json',
        'x-forwarded-for': '10.0.1.1',
      },
      body: JSON.stringify(rows),
    });
    expect(pushed.status).toBe(200);
    const client = chatClient(a!.url, { reconnect: false });
    clients.push(client);
    await connected(client);
    await eventually(
      'the rows on node A',
      async () => {
        await client.socket.emitWithAck('start_dialog', { dialogId: 'find' });
        await new Promise((resolve) => setTimeout(resolve, 200));
        return client.texts().includes('Found 4 places.');
      },
      10_000,
    );
    client.close();
  });

  it('when a node gets SIGTERM during a sync integration call, then the call completes, the answer is delivered, and nothing is logged as a network failure', async () => {
    const node = nodes[2]!;
    const client = chatClient(node.url, { reconnect: false });
    clients.push(client);
    await connected(client);
    const before = upstream.seen.length;
    void client.socket.emitWithAck('start_dialog', { dialogId: 'slow' });
    await eventually(
      'the call reaching the upstream',
      () => upstream.seen.length > before && release !== undefined,
      10_000,
    );
    const stopped = node.stop();
    await eventually('readyz saying 503 at once', async () => (await fetch(`${node.url}/readyz`)).status === 503, 5000);
    release!();
    await eventually('the answer on the widget', () => client.texts().includes('Answer: ready'), 10_000);
    await stopped;
    expect(node.output()).toContain('"msg":"server stopped"');
    expect(node.output()).not.toMatch(/"kind":"(network|cancelled)"/);
    expect(node.output()).not.toContain('callFailed');
    nodes.splice(2, 1);
    await startNode(Number(new URL(node.url).port));
  }, 60_000);

  it('when 100 wait timers come due at once and a node is killed, then each fires exactly once', async () => {
    const users = Array.from({ length: 100 }, (_, i) => `timer-user-${i}`);
    // Spread over the nodes, each from its own address so the management limit is not what is tested here.
    // A caller retries a 500 (the trigger was not stored): the test server answers "database is locked" under this load.
    const send = async (userId: string, i: number) => {
      for (let attempt = 0; ; attempt++) {
        const res = await trigger(
          nodes[(i + attempt) % nodes.length]!,
          'wait',
          userId,
          {},
          `10.2.${i >> 8}.${i & 255}`,
        );
        if (res.status !== 500 || attempt === 4) return res;
        await sleep(200);
      }
    };
    // Twenty callers at a time, and 100 timers rather than 200: the test server (FerretDB) takes one writer at
    // a time, and more at once would only test its queue. The timers still come due within the seconds the triggers took.
    const answers: Response[] = [];
    const callers = Array.from({ length: 20 }, async (_, caller) => {
      for (let i = caller; i < users.length; i += 20) answers[i] = await send(users[i]!, i);
    });
    await Promise.all(callers);
    expect(answers.map((res) => res.status).filter((status) => status !== 202)).toEqual([]);
    // Read gently: the test's own reads compete with the nodes for the test server's single writer lock.
    const due = await eventually(
      'every timer scheduled',
      async () => {
        await sleep(1000);
        const jobs = [];
        for (const userId of users) jobs.push(await store.getJob(`timer:${userId}:wait.w`));
        return jobs.every((job) => job !== null) && jobs.map((job) => job!.runAt);
      },
      90_000,
    );
    // Due 40 s after each trigger ran (the test server takes a while over 100 triggers): kill a node as they come due.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, Math.min(...due) - Date.now() + 1000)));
    const victim = nodes[1]!;
    await victim.kill();
    nodes.splice(1, 1);
    const victimPort = Number(new URL(victim.url).port);
    const fired = async () => {
      const counts: number[] = [];
      for (const userId of users)
        counts.push(
          (await store.readTranscript(userId, 0, 100)).filter(
            (e) => (e.message as { text?: string }).text === 'Time is up.',
          ).length,
        );
      return counts;
    };
    // 90 s past the last one's due time: on the test server the due times spread over as long as the triggers took.
    const firedBy = Math.max(...due) - Date.now() + 90_000;
    await eventually(
      'every timer fired',
      async () => (await sleep(1000), (await fired()).every((n) => n >= 1)),
      firedBy,
    );
    // Once more after the leases of the killed node ran out: nothing fired twice.
    await new Promise((resolve) => setTimeout(resolve, 4000));
    const counts = await fired();
    expect(counts.filter((n) => n !== 1)).toEqual([]);
    await startNode(victimPort);
  }, 420_000);

  it('when the node a widget is on is killed mid-conversation, then it reconnects through the balancer and the transcript has no gap and no duplicate', async () => {
    const client = chatClient(balancer.url);
    clients.push(client);
    const userId = await connected(client);
    for (let i = 1; i <= 5; i++) {
      client.send(String(i));
      await eventually(`echo ${i}`, () => client.texts().includes(`Echo: ${i}`), 10_000);
    }
    const home = nodeOf(userId)!;
    await home.kill();
    nodes.splice(nodes.indexOf(home), 1);
    for (let i = 6; i <= 10; i++) client.send(String(i));
    await eventually(
      'every echo after the crash',
      () => [6, 7, 8, 9, 10].every((i) => client.texts().includes(`Echo: ${i}`)),
      30_000,
    ).catch((error: unknown) => {
      console.log(
        client.texts(),
        client.socket.connected,
        nodes.map((node) =>
          node
            .output()
            .split('\n')
            .filter((l) => l.includes(userId) || /"level":[45]0/.test(l))
            .join('\n'),
        ),
      );
      throw error;
    });
    const texts = client.texts();
    for (let i = 1; i <= 10; i++) expect(texts.filter((t) => t === `Echo: ${i}`)).toHaveLength(1);
    const seqs = [...client.bySeq.keys()].sort((a, b) => a - b);
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));
    const stored = await store.readTranscript(userId, 0, 1000);
    for (let i = 1; i <= 10; i++)
      expect(stored.filter((e) => (e.message as { text?: string }).text === `Echo: ${i}`)).toHaveLength(1);
    client.close();
  }, 60_000);
  it("when a version is published on node B through the studio, then a widget on node A gets the new flow at its next message and a rollback brings the old one back; a file reloaded on node B alone reaches node A too, by signal and, with Redis away, by node A's own check", async () => {
    const [a, b] = nodes;
    const client = chatClient(a!.url, { reconnect: false });
    clients.push(client);
    await connected(client);
    const withEcho = (text: string) => ({
      ...clusterBot,
      dialogs: clusterBot.dialogs.map((d) =>
        d.id === 'main' ? { ...d, steps: d.steps.map((s) => (s.id === 'echo' ? { ...s, text } : s)) } : d,
      ),
    });
    const reloads = (node: ServerChild) =>
      node
        .output()
        .split('\n')
        .filter((l) => l.includes('"event":"definition_reloaded"')).length;
    const reloaded = (node: ServerChild, count: number) =>
      eventually(`${count} reloads on ${node.url}`, () => reloads(node) >= count, 20_000);
    // The version a node last put in service, as its log says.
    const inService = (node: ServerChild) =>
      /"event":"definition_reloaded".*?"version":"([^"]+)"/.exec(
        node
          .output()
          .split('\n')
          .filter((l) => l.includes('"event":"definition_reloaded"'))
          .at(-1) ?? '',
      )?.[1];
    // A file reloaded on B becomes a new version there; A follows once it serves that same version (a node
    // may log more than one reload for one change, by signal and by its own check, so counts would lie).
    const fileReachesA = async () => {
      const count = reloads(b!);
      b!.reload();
      await reloaded(b!, count + 1);
      const version = inService(b!);
      expect(version).toBeDefined();
      await eventually(`node A serving ${version}`, () => inService(a!) === version, 30_000);
    };

    // The first owner's one-time link, as every node printed it at start; the owner signs in on node B.
    const link = /(http\S+\/studio\/setup#\S+)/.exec(b!.output())![1]!;
    const owner = await setUpOwner(b!.url, link);
    const saved = await owner.post('/studio/api/versions', {
      baseVersionId: 'v1',
      definition: withEcho('Echo 2: {{said}}'),
      message: 'a new echo',
    });
    expect(saved.status).toBe(201);
    const published = await owner.post('/studio/api/publish', { versionId: saved.body.version.id });
    expect(published.status).toBe(200);
    // Node A swaps when the cluster's signal reaches it, a moment after B answered: its next message after that.
    await reloaded(a!, 1);
    client.send('hello');
    await eventually('the new flow on node A', () => client.texts().includes('Echo 2: hello'), 10_000);
    expect(a!.output()).toContain('"source":"cluster"');
    // Rollback: v1 published again, the same way.
    expect((await owner.post('/studio/api/publish', { versionId: 'v1' })).body).toMatchObject({
      rollback: true,
      publication: { versionId: 'v1', kind: 'rollback' },
    });
    await reloaded(a!, 2);
    client.send('back');
    await eventually('the old flow on node A', () => client.texts().includes('Echo: back'), 10_000);

    await writeFile(botFile, JSON.stringify(withEcho('Echo 3: {{said}}')));
    await fileReachesA();
    client.send('filed');
    await eventually("the file's flow on node A", () => client.texts().includes('Echo 3: filed'), 10_000);

    await redis.kill();
    await writeFile(botFile, JSON.stringify(withEcho('Echo 4: {{said}}')));
    await fileReachesA();
    client.send('again');
    await eventually('the newer flow on node A without Redis', () => client.texts().includes('Echo 4: again'), 10_000);
    await redis.restart();
    // Restore the bot the other tests expect, published the same way.
    await writeFile(botFile, JSON.stringify(clusterBot));
    await fileReachesA();
    client.close();
  }, 120_000);
});
