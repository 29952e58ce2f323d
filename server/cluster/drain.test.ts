import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeBot } from '../app/test/every-step-bot.ts';
import { json, startUpstream } from '../integrations/test/upstream.ts';
import { connectClient, eventually, startTestServer } from '../test/start-test-server.ts';
import { clusterBot } from './test/cluster-bot.ts';

describe('graceful shutdown on one node', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('when a sync call outlasts SHUTDOWN_GRACE, then it is cut short as cancelled (never a network failure), the user is not left waiting on a socket, and "server stopped" is logged', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'drain-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    // An upstream that never answers within the grace.
    const upstream = await startUpstream((_req, res) => void setTimeout(() => json(res, 200, { word: 'late' }), 5000));
    cleanups.push(() => upstream.close());
    // The definition reads its service's address from the environment (baseUrlEnv).
    process.env.UPSTREAM_URL = `${upstream.url}/`;
    const server = await startTestServer(
      {
        BOT_DEFINITION: await writeBot(dir, clusterBot),
        INTEGRATION_ALLOWED_HOSTS: '127.0.0.1',
        SHUTDOWN_GRACE: '300ms',
      },
      dir,
    );
    const client = connectClient(server.url);
    cleanups.push(async () => void client.disconnect());
    await eventually('the prompt', () =>
      client.items.some((item) => item.message.type === 'text' && item.message.text === 'Say something.'),
    );
    void client.emitWithAck('start_dialog', { dialogId: 'slow' }).catch(() => undefined);
    await eventually('the call in flight', () => upstream.seen.length > 0);
    const disconnected = new Promise<string>((resolve) => client.once('disconnect', resolve));

    const closing = server.close();
    // At once: the balancer must stop sending traffic here.
    expect((await fetch(`${server.url}/readyz`)).status).toBe(503);
    await closing;

    // Closed without a goodbye packet: a widget treats that as a drop and reconnects (to another node).
    expect(await disconnected).toBe('transport close');
    const events = server.logs.map((line) => line.event);
    expect(events).toEqual(expect.arrayContaining(['shutting_down', 'shutdown_grace_passed', 'stopped']));
    const failures = server.logs.filter((line) => line.event === 'integration_failed');
    expect(failures.map((line) => line.kind)).toEqual(['cancelled']);
    expect(server.logs.at(-1)).toMatchObject({ event: 'stopped', msg: 'server stopped' });
  });
});
