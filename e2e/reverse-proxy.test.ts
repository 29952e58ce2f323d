import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page, type WebSocket } from 'playwright-core';
import { io as connect } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClientToServerEvents, ServerToClientEvents, TranscriptItem } from '../shared/protocol.ts';
import { CHROMIUM, CHROMIUM_ARGS } from './browser.ts';
import { messages } from './conversation.ts';
import { NGINX, startReverseProxy, type ReverseProxy } from './reverse-proxy.ts';
import { freePort, startServerProcess, type ServerProcess } from './server-process.ts';

const BOT_HOST = 'bot.test';
const KEY = 'reverse-proxy-test-key-0123456789';
const POLL = { timeout: 15_000 };

const nginxMissing = !existsSync(NGINX);
if (nginxMissing) {
  if (process.env.CI === 'true')
    throw new Error(`nginx is not installed at ${NGINX}; CI=true requires it (npm run provision installs it).`);
  process.stderr.write(
    `\n!!! SKIPPED the reverse proxy tests: nginx is not installed at ${NGINX} (npm run provision installs it)\n\n`,
  );
}

let browser: Browser;
let proxy: ReverseProxy;
let server: ServerProcess;
let serverPort: number;
let dataDir: string;
let env: Record<string, string>;

beforeAll(async () => {
  if (nginxMissing) return;
  dataDir = await mkdtemp(path.join(tmpdir(), 'chatbot-e2e-proxy-'));
  serverPort = await freePort();
  proxy = await startReverseProxy(BOT_HOST, serverPort);
  env = {
    BOT_DEFINITION: 'e2e/fixtures/bot.json',
    DEMO_PAGE: '1',
    PUBLIC_URL: `https://${BOT_HOST}:${proxy.port}`,
    // Exactly the proxy's address: what it says is believed, what reaches it is not.
    TRUST_PROXY: '127.0.0.1',
    MANAGEMENT_RATE_LIMIT: '2',
    BOT_FUNCTION_KEY: KEY,
  };
  server = await startServerProcess(env, dataDir, serverPort);
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    // The certificate is the one the test made: self-signed, so the browser is told to accept it.
    args: [...CHROMIUM_ARGS, `--host-resolver-rules=MAP ${BOT_HOST} 127.0.0.1`, '--ignore-certificate-errors'],
  });
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await proxy?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

async function say(page: Page, text: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Message' }).fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
}

function logLines(): Record<string, unknown>[] {
  return server
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** A management request through the proxy from a given loopback address, with the certificate checked. */
function exportFrom(localAddress: string, forwardedFor?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: proxy.port,
        servername: BOT_HOST,
        ca: proxy.certificate,
        localAddress,
        path: '/api/management/export/urlTracker',
        headers: {
          host: `${BOT_HOST}:${proxy.port}`,
          'x-functions-key': KEY,
          ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe.skipIf(nginxMissing)('the widget behind nginx over HTTPS (docs/reverse-proxy/nginx.conf)', () => {
  it('when a visitor chats through the proxy and the server restarts, then the chat reconnects and goes on with nothing lost or doubled', async () => {
    const page = await (await browser.newContext()).newPage();
    // WebSockets that carried frames from the server: the upgrade went through the proxy.
    const live = new Set<WebSocket>();
    page.on('websocket', (ws) => ws.on('framereceived', () => live.add(ws)));
    await page.goto(`https://${BOT_HOST}:${proxy.port}/`);
    await page.getByRole('button', { name: 'Open chat' }).click();
    await expect.poll(() => messages(page), POLL).toContain("Bot: What's your name?");
    await say(page, 'Ada');
    await expect.poll(() => messages(page), POLL).toContain('Bot: Nice to meet you, Ada!');
    await say(page, 'one');
    await expect.poll(() => messages(page), POLL).toContain('Bot: You said: one');
    expect([...live].map((ws) => new URL(ws.url()).protocol)).toEqual(['wss:']);

    await server.kill();
    // Written while the server is down (the proxy answers 502): sent once it is back.
    await say(page, 'two');
    await expect.poll(() => page.getByText('Reconnecting').count(), POLL).toBeGreaterThan(0);
    server = await startServerProcess(env, dataDir, serverPort);

    await expect.poll(() => messages(page), POLL).toContain('Bot: You said: two');
    await say(page, 'three');
    await expect.poll(() => messages(page), POLL).toContain('Bot: You said: three');
    const log = await messages(page);
    for (const text of [
      'You: Ada',
      'Bot: Nice to meet you, Ada!',
      'You: one',
      'Bot: You said: one',
      'You: two',
      'Bot: You said: two',
      'You: three',
      'Bot: You said: three',
    ]) {
      expect([text, log.filter((t) => t === text).length]).toEqual([text, 1]);
    }
    // The reconnect is a second WebSocket through the proxy, not a fallback to long-polling.
    expect(live.size).toBe(2);
    // The restarted server saw the reconnect come through its proxy.
    await expect
      .poll(() => logLines().filter((l) => l.event === 'socket_connect'), POLL)
      .toEqual([expect.objectContaining({ ip: '127.0.0.1' })]);
    await page.context().close();
  });

  it('when a client can only long-poll, then it opens a session and talks through the proxy', async () => {
    const client = connect(`https://127.0.0.1:${proxy.port}`, {
      transports: ['polling'],
      reconnection: false,
      forceNew: true,
      // Node's long-polling client cannot name the host for TLS; the certificate is the test's own.
      rejectUnauthorized: false,
      extraHeaders: { host: `${BOT_HOST}:${proxy.port}` },
    }) as import('socket.io-client').Socket<ServerToClientEvents, ClientToServerEvents>;
    const items: TranscriptItem[] = [];
    client.on('entries', (entries) => items.push(...entries));
    const texts = () => items.map((i) => (i.message.type === 'text' ? i.message.text : ''));
    await expect.poll(texts, POLL).toContain("What's your name?");
    expect(await client.emitWithAck('message', { clientId: 'poll-1', text: 'Grace' })).toEqual({
      ok: true,
      value: expect.anything(),
    });
    await expect.poll(texts, POLL).toContain('Nice to meet you, Grace!');
    expect(client.io.engine.transport.name).toBe('polling');
    client.disconnect();
  });

  it('when TRUST_PROXY names the proxy, then the rate limit and the log count each visitor by the address the proxy saw, not one the visitor wrote', async () => {
    const first = [];
    for (let i = 0; i < 3; i++) first.push(await exportFrom('127.0.0.5', '203.0.113.9'));
    expect(first).toEqual([200, 200, 429]);
    expect(await exportFrom('127.0.0.6')).toBe(200);
    // A request's line is written once its answer is finished, so the last may trail the answer a little.
    const ips = () =>
      logLines()
        .filter((l) => l.event === 'http_request' && String(l.url).startsWith('/api/management/export'))
        .map((l) => l.ip);
    await expect.poll(ips, POLL).toEqual(['127.0.0.5', '127.0.0.5', '127.0.0.5', '127.0.0.6']);
  });
});
