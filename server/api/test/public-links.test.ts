import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { io as connect } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Button, TranscriptItem } from '../../../shared/protocol.ts';
import { TEST_FUNCTION_KEY, eventually, startTestServer, type TestServer } from '../../test/start-test-server.ts';

/** A bot whose greeting and triggered dialog both carry a URL button. */
const BOT = {
  settings: { id: 'links-bot', name: 'Links bot', startDialog: 'hello' },
  dialogs: [
    {
      id: 'hello',
      steps: [
        {
          id: 'say',
          type: 'message',
          text: 'Read the docs.',
          buttons: [{ kind: 'url', label: 'Docs', url: 'https://docs.example.org/start' }],
        },
        { id: 'end', type: 'end' },
      ],
    },
    {
      id: 'offer',
      steps: [
        {
          id: 'say',
          type: 'message',
          text: 'An offer.',
          buttons: [{ kind: 'url', label: 'Offer', url: 'https://shop.example.org/offer' }],
        },
        { id: 'end', type: 'end' },
      ],
    },
  ],
};

let dir: string;
let bot: string;
const servers: TestServer[] = [];
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'public-links-'));
  bot = path.join(dir, 'bot.json');
  await writeFile(bot, JSON.stringify(BOT));
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.stop()));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function start(env: Record<string, string>): Promise<TestServer> {
  const server = await startTestServer({ BOT_DEFINITION: bot, ...env });
  servers.push(server);
  return server;
}

/** The URL button of the greeting a widget gets when it connects with these handshake headers. */
async function greetingLink(server: TestServer, headers: Record<string, string>): Promise<string> {
  const socket = connect(server.url.replace('0.0.0.0', '127.0.0.1'), {
    transports: ['websocket'],
    extraHeaders: headers,
    reconnection: false,
    forceNew: true,
  });
  const items: TranscriptItem[] = [];
  socket.on('entries', (entries) => items.push(...entries));
  try {
    const item = await eventually('the greeting', () =>
      items.find((entry) => entry.from === 'bot' && 'buttons' in entry.message),
    );
    return buttonUrl(item);
  } finally {
    socket.disconnect();
  }
}

function buttonUrl(item: TranscriptItem): string {
  const buttons = (item.message as { buttons?: readonly Button[] }).buttons ?? [];
  const button = buttons.find((b) => b.kind === 'url');
  if (!button || button.kind !== 'url') throw new Error('no URL button');
  return button.url;
}

/** The URL button of the `offer` dialog triggered for a user who is not connected. */
async function triggeredLink(server: TestServer, userId: string): Promise<string> {
  const base = server.url.replace('0.0.0.0', '127.0.0.1');
  const res = await fetch(`${base}/api/trigger/links-bot/offer?userId=${userId}`, {
    method: 'POST',
    headers: { 'x-functions-key': TEST_FUNCTION_KEY },
  });
  expect(res.status).toBe(202);
  const [entry] = await eventually('the triggered dialog', async () => {
    const entries = await server.store.readTranscript(userId, 0, 10);
    return entries.length > 0 && entries;
  });
  return buttonUrl({
    seq: entry!.seq,
    from: 'bot',
    at: '',
    clientId: null,
    message: entry!.message as TranscriptItem['message'],
  });
}

describe('links the bot sends', () => {
  it('when a widget connects through a proxy TRUST_PROXY believes, then its URL buttons link to the name the proxy forwarded, and the operator is told once to set PUBLIC_URL for users who are away', async () => {
    const server = await start({});
    const link = await greetingLink(server, { 'x-forwarded-host': 'chat.example.com', 'x-forwarded-proto': 'https' });
    expect(link).toMatch(/^https:\/\/chat\.example\.com\/r\/[\w-]+\.[\w-]+$/);
    // The link works on the server it names (here, reached directly) and leads to the target.
    const followed = await fetch(`${server.url}${new URL(link).pathname}`, { redirect: 'manual' });
    expect(followed.status).toBe(302);
    expect(followed.headers.get('location')).toBe('https://docs.example.org/start');
    // A proxy that passes the visitor's Host on (as docs/reverse-proxy/nginx.conf does) with only X-Forwarded-Proto.
    const port = new URL(server.url).port;
    expect(await greetingLink(server, { host: `bot.example.com:${port}`, 'x-forwarded-proto': 'https' })).toMatch(
      new RegExp(`^https://bot\\.example\\.com:${port}/r/`),
    );
    const warnings = server.logs.filter((line) => line.event === 'public_url_unset');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ level: 40, setting: 'PUBLIC_URL', origin: 'https://chat.example.com' });
    expect(String(warnings[0]!.msg)).toContain('Set PUBLIC_URL');
    // A visitor's forwarded name shapes their own links only: a trigger for a user who never connected uses the listen address.
    expect(await triggeredLink(server, 'away-1')).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/r/`));
  });

  it("when TRUST_PROXY does not believe the peer, then forwarded names are ignored: a widget gets links on the Host it connected with, and that Host never shapes other users' links", async () => {
    const server = await start({ TRUST_PROXY: 'false' });
    const port = new URL(server.url).port;
    const link = await greetingLink(server, {
      host: `bot.internal.test:${port}`,
      'x-forwarded-host': 'evil.example',
      'x-forwarded-proto': 'https',
    });
    expect(link).toMatch(new RegExp(`^http://bot\\.internal\\.test:${port}/r/`));
    expect(await triggeredLink(server, 'away-2')).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/r/`));
    expect(server.logs.filter((line) => line.event === 'public_url_unset')).toEqual([]);
  });

  it('when PUBLIC_URL is set, then every link uses it, whatever the visitor connected by', async () => {
    const server = await start({ PUBLIC_URL: 'https://bot.example.net' });
    expect(
      await greetingLink(server, { 'x-forwarded-host': 'chat.example.com', 'x-forwarded-proto': 'https' }),
    ).toMatch(/^https:\/\/bot\.example\.net\/r\//);
    expect(await triggeredLink(server, 'away-3')).toMatch(/^https:\/\/bot\.example\.net\/r\//);
  });

  it('when the server listens on every interface without PUBLIC_URL, then start-up warns naming PUBLIC_URL, and no link points at 0.0.0.0', async () => {
    const server = await start({ HOST: '0.0.0.0' });
    const warning = server.logs.find((line) => line.event === 'public_url_unset');
    expect(warning).toMatchObject({ level: 40, setting: 'PUBLIC_URL', host: '0.0.0.0' });
    expect(String(warning?.msg)).toMatch(/Set PUBLIC_URL to the address users reach the bot by/);
    const port = new URL(server.url).port;
    const link = await triggeredLink(server, 'away-4');
    expect(link).not.toContain('0.0.0.0');
    expect(link).toMatch(new RegExp(`^http://localhost:${port}/r/`));
    // A widget that connected by a name still gets that name.
    expect(await greetingLink(server, { host: `shop-bot.example:${port}` })).toMatch(
      new RegExp(`^http://shop-bot\\.example:${port}/r/`),
    );
  });
});
