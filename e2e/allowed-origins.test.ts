import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, CHROMIUM_ARGS } from './browser.ts';
import { conversation, messageItems, messages } from './conversation.ts';
import { serveHostPage, type HostPage } from './host-page.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';

const POLL = { timeout: 15_000 };

let browser: Browser;
let server: ServerProcess | undefined;
let host: HostPage | undefined;

beforeAll(async () => {
  // Three sites on loopback, as a browser sees them: the shop, the bot, and a stranger.
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      ...CHROMIUM_ARGS,
      '--host-resolver-rules=MAP shop.test 127.0.0.1, MAP bot.test 127.0.0.1, MAP stranger.test 127.0.0.1',
    ],
  });
});
afterAll(async () => {
  await browser?.close();
});
afterEach(async () => {
  await host?.close();
  await server?.stop();
  host = undefined;
  server = undefined;
});

/** Starts the bot (the demo bot, with `env`) and the shop page that embeds it from http://bot.test. */
async function start(
  env: (shopPort: number) => Record<string, string>,
): Promise<{ shop: string; bot: string; stranger: string }> {
  let botPort = 0;
  host = await serveHostPage(() => `http://bot.test:${botPort}/widget.js`);
  server = await startServerProcess(env(host.port));
  botPort = server.port;
  return {
    shop: `http://shop.test:${host.port}`,
    bot: `http://bot.test:${botPort}`,
    stranger: `http://stranger.test:${host.port}`,
  };
}

async function openChat(url: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(url);
  await page.getByRole('button', { name: 'Open chat' }).click();
  return page;
}

async function converse(page: Page): Promise<void> {
  await expect.poll(() => messages(page), POLL).toContain("Bot: What's your name?");
  await page.getByRole('textbox', { name: 'Message' }).fill('Ada');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect.poll(() => messages(page), POLL).toContain('Bot: Nice to meet you, Ada!');
}

function logLines(): Record<string, unknown>[] {
  return (server?.output() ?? '')
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('a page on another origin embeds the widget', () => {
  it("when ALLOWED_ORIGINS is unset, then the widget on the shop's own origin holds a conversation with the bot", async () => {
    const { shop } = await start(() => ({}));
    const page = await openChat(shop);
    await converse(page);
    expect(logLines().filter((l) => l.event === 'origin_refused')).toEqual([]);
    await page.context().close();
  });

  it("when ALLOWED_ORIGINS names the shop, then the shop's page and the bot's own page work, and a third origin is refused and logged naming the origin and the setting", async () => {
    const { shop, bot, stranger } = await start((shopPort) => ({ ALLOWED_ORIGINS: `http://shop.test:${shopPort}` }));
    for (const url of [shop, bot]) {
      const page = await openChat(url);
      await converse(page);
      await page.context().close();
    }
    expect(logLines().filter((l) => l.event === 'origin_refused')).toEqual([]);

    const refused = await openChat(stranger);
    await expect
      .poll(() => logLines().filter((l) => l.event === 'origin_refused'), POLL)
      .toEqual([
        expect.objectContaining({
          level: 40,
          origin: stranger,
          setting: 'ALLOWED_ORIGINS',
          msg: expect.stringContaining('ALLOWED_ORIGINS'),
        }),
      ]);
    // Refused before any conversation exists: the bot never spoke on that page.
    expect(await conversation(refused).count()).toBe(1);
    expect(await messageItems(refused).count()).toBe(0);
    // The refusal is readable by the page over long-polling too (CORS lets it through): a
    // socket.io CONNECT_ERROR packet carrying the code, not an opaque HTTP failure.
    const answer = await refused.evaluate(async (base) => {
      const open = await (await fetch(`${base}/socket.io/?EIO=4&transport=polling`)).text();
      const sid = (JSON.parse(open.slice(1)) as { sid: string }).sid;
      const url = `${base}/socket.io/?EIO=4&transport=polling&sid=${sid}`;
      await fetch(url, { method: 'POST', body: '40', headers: { 'content-type': 'text/plain;charset=UTF-8' } });
      return (await fetch(url)).text();
    }, bot);
    expect(answer.startsWith('44')).toBe(true);
    expect(JSON.parse(answer.slice(2))).toEqual({
      message: expect.stringContaining('ALLOWED_ORIGINS'),
      data: {
        code: 'origin_not_allowed',
        origin: stranger,
        setting: 'ALLOWED_ORIGINS',
        message: expect.stringContaining(stranger),
      },
    });
    await refused.context().close();
  });
});
