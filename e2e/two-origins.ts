import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from './browser.ts';
import { serveHostPage, type HostPage, type HostPageOptions } from './host-page.ts';
import { freePort, startServerProcess, type ServerProcess } from './server-process.ts';

export const SHOP_HOST = 'shop.test';
export const BOT_HOST = 'bot.test';

/** A shop page and the bot on two origins, as on a real site, and a Chromium that resolves both names to loopback. */
export interface TwoOrigins {
  readonly browser: Browser;
  readonly bot: ServerProcess;
  /** The bot as the browser reaches it, e.g. `http://bot.test:PORT`. */
  readonly botUrl: string;
  /** The shop page, e.g. `http://shop.test:PORT/`. */
  readonly shopUrl: string;
  /** A fresh browser profile on the shop page; `init` replaces the page's `ChatWidget('init', …)` options. */
  visit(init?: Readonly<Record<string, unknown>>, context?: BrowserContextOptions): Promise<Page>;
  close(): Promise<void>;
}

export interface TwoOriginsOptions {
  /** Environment of the bot's server process. */
  readonly env?: Record<string, string>;
  readonly page?: HostPageOptions;
  /** Where the page loads widget.js from, given the bot's URL (default `${botUrl}/widget.js`). */
  readonly widgetUrl?: (botUrl: string) => string;
  /** A bot definition of the test's own, given the bot's URL as the browser reaches it (for absolute picture URLs). */
  readonly definition?: (botUrl: string) => unknown;
}

export async function startTwoOrigins(options: TwoOriginsOptions = {}): Promise<TwoOrigins> {
  let botUrl = '';
  const shop: HostPage = await serveHostPage(
    () => (options.widgetUrl ? options.widgetUrl(botUrl) : `${botUrl}/widget.js`),
    options.page,
  );
  const shopUrl = `http://${SHOP_HOST}:${shop.port}/`;
  const port = await freePort();
  botUrl = `http://${BOT_HOST}:${port}`;
  let definitionDir: string | undefined;
  const env: Record<string, string> = { WEBCHAT_RATE_LIMIT: '100000', ...options.env };
  if (options.definition) {
    definitionDir = await mkdtemp(path.join(tmpdir(), 'chatbot-two-origins-'));
    env.BOT_DEFINITION = path.join(definitionDir, 'bot.json');
    await writeFile(env.BOT_DEFINITION, JSON.stringify(options.definition(botUrl)));
  }
  const bot = await startServerProcess(env, undefined, port);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [...CHROMIUM_ARGS, `--host-resolver-rules=MAP ${SHOP_HOST} 127.0.0.1, MAP ${BOT_HOST} 127.0.0.1`],
  });
  return {
    browser,
    bot,
    botUrl,
    shopUrl,
    async visit(init, context = {}) {
      const page = await (await browser.newContext({ viewport: { width: 1000, height: 700 }, ...context })).newPage();
      await page.goto(init ? `${shopUrl}?init=${encodeURIComponent(JSON.stringify(init))}` : shopUrl);
      return page;
    },
    async close() {
      await browser.close();
      await bot.stop();
      await shop.close();
      if (definitionDir) await rm(definitionDir, { recursive: true, force: true });
    },
  };
}
