import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, CHROMIUM_ARGS } from './browser.ts';
import { conversation, messages } from './conversation.ts';
import { startNoWebSocketProxy } from './fixtures/no-websocket-proxy.ts';
import { serveHostPage, type HostPage } from './host-page.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';

const POLL = { timeout: 15_000 };
const SHOP_HOST = 'shop.test';
const BOT_HOST = 'bot.test';

let browser: Browser;
let shop: HostPage;
let shopUrl = '';
let bot: ServerProcess;
let botUrl = '';

beforeAll(async () => {
  shop = await serveHostPage(() => `${botUrl}/widget.js`);
  shopUrl = `http://${SHOP_HOST}:${shop.port}/`;
  // The shop's origin is listed so this holds whatever the server's default origin policy is;
  // either way the widget runs on another origin than the bot.
  bot = await startServerProcess({ ALLOWED_ORIGINS: new URL(shopUrl).origin, WEBCHAT_RATE_LIMIT: '100000' });
  botUrl = `http://${BOT_HOST}:${bot.port}`;
  // Two host names for one machine, so the page and the bot are two origins, as on a real site.
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [...CHROMIUM_ARGS, `--host-resolver-rules=MAP ${SHOP_HOST} 127.0.0.1, MAP ${BOT_HOST} 127.0.0.1`],
  });
});
afterAll(async () => {
  await browser?.close();
  await bot?.stop();
  await shop?.close();
});

async function say(page: Page, text: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Message' }).fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
}

/** Greets, answers the name prompt, then asks for the dialog that shows the bot's images. */
async function talkUntilImages(page: Page): Promise<void> {
  await expect.poll(() => messages(page), POLL).toContain("Bot: What's your name?");
  await say(page, 'Ada');
  await expect.poll(() => messages(page), POLL).toContain('Bot: Nice to meet you, Ada!');
  const started = await page.evaluate(() => window.ChatWidget?.startDialog('messages'));
  expect(started).toEqual({ ok: true });
  await expect.poll(() => conversation(page).getByRole('img').count(), POLL).toBe(2);
}

/** Each picture in the log, by its alt text: where it loads from and whether it did (a broken one has no natural width). */
function images(page: Page): Promise<Array<{ alt: string; src: string; loaded: boolean }>> {
  return conversation(page)
    .getByRole('img')
    .evaluateAll((imgs) =>
      imgs.map((img) => ({
        alt: (img as HTMLImageElement).alt,
        src: (img as HTMLImageElement).currentSrc,
        loaded: (img as HTMLImageElement).naturalWidth > 0,
      })),
    );
}

describe('the widget on a shop page of another origin than the bot', () => {
  it('when a visitor chats, then the conversation works and the bot images load from the bot, not the shop', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(shopUrl);
    await page.getByRole('button', { name: 'Open chat' }).click();

    await talkUntilImages(page);

    // Lazy images load once they are in view.
    await conversation(page).getByRole('img', { name: 'Event picture' }).scrollIntoViewIfNeeded();
    await expect
      .poll(() => images(page), POLL)
      .toEqual([
        { alt: 'A friendly robot', src: `${botUrl}/images/robot.svg`, loaded: true },
        { alt: 'Event picture', src: `${botUrl}/images/robot.svg`, loaded: true },
      ]);
    await context.close();
  });

  it('when a proxy refuses WebSockets, then the panel says Connecting… first and the same conversation goes over long-polling', async () => {
    const proxy = await startNoWebSocketProxy();
    const context = await browser.newContext({ proxy: { server: proxy.server } });
    const page = await context.newPage();
    const frames: string[] = [];
    page.on('websocket', (ws) => ws.on('framereceived', (frame) => frames.push(String(frame.payload))));
    // Hold the first polling request until the panel has been seen saying it is connecting.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let polls = 0;
    await page.route(`${botUrl}/socket.io/**`, async (route) => {
      polls += 1;
      if (polls === 1) await held;
      await route.continue();
    });

    await page.goto(shopUrl);
    await page.getByRole('button', { name: 'Open chat' }).click();
    await expect.poll(() => page.getByText('Connecting…').isVisible(), POLL).toBe(true);
    release();

    await talkUntilImages(page);
    expect(await page.getByText('Connecting…').count()).toBe(0);
    expect(proxy.refused()).toBeGreaterThan(0);
    expect(polls).toBeGreaterThan(1);
    expect(frames).toEqual([]);
    await context.close();
    await proxy.stop();
  });
});

describe('the widget on a shop page the bot does not serve', () => {
  let closed: ServerProcess;
  let closedUrl = '';
  let otherShop: HostPage;
  let otherShopUrl = '';
  beforeAll(async () => {
    otherShop = await serveHostPage(() => `${closedUrl}/widget.js`);
    otherShopUrl = `http://${SHOP_HOST}:${otherShop.port}/`;
    closed = await startServerProcess({ ALLOWED_ORIGINS: 'http://elsewhere.test' });
    closedUrl = `http://${BOT_HOST}:${closed.port}`;
  });
  afterAll(async () => {
    await closed?.stop();
    await otherShop?.close();
  });

  it('when the bot server refuses the page origin, then the visitor reads that the chat is not available and the console names ALLOWED_ORIGINS', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const consoleLines: string[] = [];
    page.on('console', (message) => consoleLines.push(message.text()));

    await page.goto(otherShopUrl);
    await page.getByRole('button', { name: 'Open chat' }).click();

    await expect
      .poll(() => page.getByText('The chat is not available on this page right now.').isVisible(), POLL)
      .toBe(true);
    expect(consoleLines.join('\n')).toContain(`ALLOWED_ORIGINS must include ${new URL(otherShopUrl).origin}`);
    const panel = await page.getByRole('dialog', { name: 'Chat' }).innerText();
    expect(panel).not.toMatch(/ALLOWED_ORIGINS|origin|403|xhr|websocket/i);
    await context.close();
  });
});
