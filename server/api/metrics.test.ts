import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '../../shared/protocol.ts';
import {
  botTexts,
  connectClient,
  eventually,
  startTestServer,
  TEST_FUNCTION_KEY,
  type TestServer,
} from '../test/start-test-server.ts';

/** A loopback port nothing listens on: the demo bot's events service, unreachable. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  await new Promise((done) => server.close(done));
  return typeof address === 'object' && address !== null ? address.port : 1;
}

/** The value of one series in the Prometheus text, or undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('metrics after a conversation', () => {
  let server: TestServer;
  const scrape = async () => {
    const res = await fetch(`${server.url}/metrics`);
    expect(res.status).toBe(200);
    return res.text();
  };

  beforeAll(async () => {
    process.env.DEMO_API_URL = `http://127.0.0.1:${await closedPort()}/`;
    server = await startTestServer({ INTEGRATION_ALLOWED_HOSTS: '127.0.0.1', WEBCHAT_RATE_LIMIT: '6' });
  });
  afterAll(async () => {
    await server?.stop();
    delete process.env.DEMO_API_URL;
  });

  it('when a visitor talks to the bot, then turn latency, integration calls, sockets, jobs, rate limits and dataset age appear with bounded labels', async () => {
    const client = connectClient(server.url);
    const session = await new Promise<Session>((resolve) => client.once('session', resolve));
    await eventually('the greeting', () => botTexts(client.items).includes("What's your name?"));
    await client.emitWithAck('message', { clientId: 'm1', text: 'Ada' });
    await eventually('the reply', () => botTexts(client.items).includes('Nice to meet you, Ada!'));
    await client.emitWithAck('start_dialog', { dialogId: 'events' });
    await eventually('the events failure', () =>
      botTexts(client.items).some((text) => text.startsWith("I couldn't reach the events service")),
    );
    // A trigger: a durable job that runs once and is done.
    const triggered = await fetch(`${server.url}/api/trigger/demo/pricing?userId=${session.userId}`, {
      method: 'POST',
      headers: { 'x-functions-key': TEST_FUNCTION_KEY },
    });
    expect(triggered.status).toBe(202);
    await eventually('the trigger ran', () => botTexts(client.items).some((text) => text.includes('plans start at')));
    // A pushed dataset, and a due job no worker here runs (an unknown kind), so the queue has depth and age.
    const pushed = await fetch(`${server.url}/api/management/datasets/places`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', 'x-functions-key': TEST_FUNCTION_KEY },
      body: JSON.stringify([{ id: 'p1', tags: ['cafe'], location: { lat: 52.2, lon: 21 }, name: 'Cafe' }]),
    });
    expect(pushed.status).toBe(200);
    await server.store.scheduleJob({ id: 'orphan', kind: 'retired-kind', payload: {}, runAt: Date.now() - 60_000 });
    // A second visitor floods: beyond WEBCHAT_RATE_LIMIT, messages are refused.
    const flood = connectClient(server.url);
    await new Promise((resolve) => flood.once('session', resolve));
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => flood.emitWithAck('message', { clientId: `f${i}`, text: 'hi' })),
    );
    expect(answers.some((answer) => !answer.ok)).toBe(true);
    flood.disconnect();
    client.disconnect();
    await eventually(
      'both disconnects counted',
      async () =>
        sample(await scrape(), 'chatbot_socket_disconnects_total{reason="client namespace disconnect"}') === 2,
    );

    const text = await scrape();
    expect(sample(text, 'chatbot_socket_connects_total')).toBe(2);
    expect(sample(text, 'chatbot_turn_duration_seconds_count{input="text"}')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'chatbot_turn_duration_seconds_count{input="start"}')).toBeGreaterThanOrEqual(2);
    expect(text).toMatch(/^chatbot_turn_duration_seconds_bucket\{le="0\.005",input="text"\} \d+$/m);
    expect(sample(text, 'chatbot_turn_duration_seconds_count{input="integrationResult"}')).toBe(1);
    // By step type and by service, both named by the definition: bounded however many users call.
    expect(
      sample(
        text,
        'chatbot_integration_call_duration_seconds_count{step="listUserEvents",service="demo",status="network"}',
      ),
    ).toBe(1);
    expect(sample(text, 'chatbot_integration_calls_total{step="listUserEvents",service="demo"}')).toBe(1);
    expect(sample(text, 'chatbot_integration_errors_total{step="listUserEvents",service="demo"}')).toBe(1);
    expect(sample(text, 'chatbot_job_attempts_total{kind="trigger",outcome="done"}')).toBe(1);
    expect(sample(text, 'chatbot_jobs_due{kind="retired-kind"}')).toBe(1);
    expect(sample(text, 'chatbot_jobs_oldest_due_age_seconds{kind="retired-kind"}')).toBeGreaterThanOrEqual(60);
    expect(sample(text, 'chatbot_rate_limited_total{scope="webchat"}')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'chatbot_rate_limited_total{scope="management"}')).toBe(0);
    const age = sample(text, 'chatbot_dataset_age_seconds{dataset="places"}');
    expect(age).toBeGreaterThanOrEqual(0);
    expect(age).toBeLessThan(3600);
    // No label holds a user id: series stay bounded however many people talk.
    expect(text).not.toContain(session.userId);
  });

  it('when /metrics is scraped, then build_info says which version runs on which Node and store', async () => {
    const { version } = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    expect(
      sample(
        await scrape(),
        `chatbot_build_info{version="${version}",node_version="${process.version}",store="sqlite"}`,
      ),
    ).toBe(1);
  });

  it('when the widget script is fetched, then its requests are labelled by a readable route, not a regular expression', async () => {
    await (await fetch(`${server.url}/widget.js`)).arrayBuffer();
    const text = await scrape();
    const routes = [...text.matchAll(/^chatbot_http_requests_total\{[^}]*route="([^"]*)"/gm)].map((match) => match[1]);
    expect(routes).toContain('/widget.js');
    for (const route of routes) expect(route).not.toMatch(/[\\^$()|?]/);
  });
});

describe('who may scrape /metrics', () => {
  const servers: TestServer[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
  });
  const start = async (env: Record<string, string>) => {
    const server = await startTestServer(env);
    servers.push(server);
    return server;
  };

  it('when METRICS_TOKEN is set, then only that bearer token opens /metrics: not the function key, not nothing', async () => {
    const token = 'scraper-token-0123456789';
    const server = await start({ METRICS_TOKEN: token });
    expect((await fetch(`${server.url}/metrics`)).status).toBe(401);
    expect((await fetch(`${server.url}/metrics`, { headers: { 'x-functions-key': TEST_FUNCTION_KEY } })).status).toBe(
      401,
    );
    const wrong = await fetch(`${server.url}/metrics`, { headers: { authorization: 'Bearer not-the-token-at-all' } });
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as { error: { message: string } }).error.message).toContain('METRICS_TOKEN');
    expect((await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    expect(server.logText()).not.toContain(token);
  });

  it('when no token is set and the server listens on all interfaces, then /metrics needs the function key', async () => {
    const server = await start({ HOST: '0.0.0.0' });
    const url = server.url.replace('0.0.0.0', '127.0.0.1');
    expect((await fetch(`${url}/metrics`)).status).toBe(401);
    expect((await fetch(`${url}/metrics`, { headers: { 'x-functions-key': TEST_FUNCTION_KEY } })).status).toBe(200);
  });
});
