import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectClient, eventually, startTestServer, type TestServer } from '../../test/start-test-server.ts';

describe('debug lines where an operator looks (LOG_LEVEL=debug)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      LOG_LEVEL: 'debug',
      ALLOWED_ORIGINS: 'https://shop.example.com',
      BOT_IDENTITY_SECRET: 'identity-secret-0123456789',
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  const refusedWith = (client: ReturnType<typeof connectClient>) =>
    new Promise<{ data?: { code?: string } }>((resolve) => client.once('connect_error', resolve));

  it('when an origin is refused again, then the first refusal is a warning and each later one a debug line', async () => {
    for (let i = 0; i < 2; i++) {
      const client = connectClient(server.url);
      client.io.opts.extraHeaders = { origin: 'https://evil.example.net' };
      client.disconnect().connect();
      expect((await refusedWith(client)).data?.code).toBe('origin_not_allowed');
      client.close();
    }
    const lines = server.logs.filter((line) => line.event === 'origin_refused');
    expect(lines.map((line) => line.level)).toStrictEqual([40, 20]);
  });

  it('when an identity does not verify, then a debug line names the refusal without the claimed user id', async () => {
    const client = connectClient(server.url, { identity: { userId: 'claimed-user-42', userHash: 'f'.repeat(64) } });
    expect((await refusedWith(client)).data?.code).toBe('unauthorized');
    client.close();
    const line = await eventually('the debug line', () => server.logs.find((l) => l.event === 'handshake_refused'));
    expect(line).toMatchObject({ level: 20, code: 'unauthorized', identity: true });
    expect(JSON.stringify(line)).not.toContain('claimed-user-42');
  });

  it('when a page event is neither routed nor awaited, then a debug line says so', async () => {
    const client = connectClient(server.url);
    await new Promise((resolve) => client.once('session', resolve));
    expect(await client.emitWithAck('page_event', { name: 'scrolledToFooter' })).toStrictEqual({
      ok: true,
      value: null,
    });
    const line = await eventually('the debug line', () => server.logs.find((l) => l.event === 'page_event_unrouted'));
    expect(line).toMatchObject({ level: 20, name: 'scrolledToFooter' });
    client.disconnect();
  });

  it('when a job is claimed, then a debug line names its kind and attempt', async () => {
    await server.store.scheduleJob({
      id: 'timer:nobody:t',
      kind: 'timer',
      payload: { userId: 'nobody', timerId: 't' },
      runAt: Date.now(),
    });
    server.jobs.poke();
    const line = await eventually('the debug line', () =>
      server.logs.find((l) => l.event === 'job_started' && l.jobId === 'timer:nobody:t'),
    );
    expect(line).toMatchObject({ level: 20, kind: 'timer', attempt: 1 });
  });
});
