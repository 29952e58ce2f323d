import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eventually, startTestServer, storeLegs, type TestServer } from '../test/start-test-server.ts';
import { json, startUpstream, type Upstream } from './test/upstream.ts';

const TOKEN_LIKE = 'tracking-secret-in-body-abc123';

describe.each(storeLegs())('asynchronous integration steps on $name', ({ skip, env }) => {
  let upstream: Upstream;
  let dataDir: string;
  const servers: TestServer[] = [];

  beforeAll(async () => {
    upstream = await startUpstream();
    dataDir = await mkdtemp(path.join(tmpdir(), 'integration-restart-'));
  });
  afterAll(async () => {
    for (const server of servers) await server.close();
    await upstream.close();
    await rm(dataDir, { recursive: true, force: true });
  });
  beforeEach((context) => {
    if (skip) context.skip(`store unavailable: ${skip}`);
  });

  it('when the first attempt fails and the server restarts, then the new server retries the stored job and the call arrives', async () => {
    const legEnv = { ...env(), INTEGRATION_ALLOWED_HOSTS: '127.0.0.1' };
    let answer = 503;
    upstream.handle((_req, res) => json(res, answer, {}));

    const first = await startTestServer(legEnv, dataDir);
    servers.push(first);
    const result = await first.integrations.run(
      {
        type: 'http',
        timing: 'async',
        params: {
          endpoint: `${upstream.url}/tracking-events`,
          method: 'POST',
          body: { event: 'signup', userId: '{{userId}}', password: TOKEN_LIKE },
        },
      },
      { userId: 'u-async', variables: {}, userData: {} },
    );
    expect(result).toMatchObject({ ok: true, output: null, scheduled: expect.any(String) });
    const jobId = (result as { scheduled: string }).scheduled;

    await eventually('the first, failing attempt', () => upstream.seen.length >= 1);
    await eventually(
      'the attempt recorded as failed',
      async () => (await first.store.getJob(jobId))?.status === 'pending',
    );
    await first.close();

    answer = 202;
    const second = await startTestServer(legEnv, dataDir);
    servers.push(second);
    await eventually('the retried job done', async () => (await second.store.getJob(jobId))?.status === 'done', 10_000);
    const last = upstream.seen.at(-1)!;
    expect(last).toMatchObject({ method: 'POST', url: '/tracking-events' });
    expect(JSON.parse(last.body)).toEqual({ event: 'signup', userId: 'u-async', password: TOKEN_LIKE });
    expect(upstream.seen.length).toBeGreaterThanOrEqual(2);

    const rows = [];
    for await (const row of second.store.readLogs('integrationLog', {})) rows.push(row);
    expect(rows.map((r) => r.data.responseStatus)).toEqual(expect.arrayContaining([503, 202]));
    expect(JSON.stringify(rows) + first.logText() + second.logText()).not.toContain(TOKEN_LIKE);
  });
});
