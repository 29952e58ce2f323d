// The script tag loads a small loader first (widget/loader.ts) and the rest of the widget
// later. These tests hold the rest back in the network to see what a visitor sees meanwhile.
import type { Browser, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './browser.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';

const POLL = { timeout: 15_000 };

let server: ServerProcess;
let browser: Browser;

beforeAll(async () => {
  // DEMO_PAGE: this bot is not the demo bot, yet these tests drive the demo page.
  server = await startServerProcess({ BOT_DEFINITION: 'e2e/fixtures/bot.json', DEMO_PAGE: '1' });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** Opens the demo page with the rest of the widget held back until `release()`. */
async function pageWithRestHeld(): Promise<{ page: Page; requested: () => boolean; release: () => void }> {
  const page = await (await browser.newContext()).newPage();
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  let requested = false;
  await page.route(/\/widget\.[0-9a-f]{12}\.js$/, async (route: Route) => {
    requested = true;
    await released;
    await route.continue();
  });
  await page.goto(server.url);
  return { page, requested: () => requested, release };
}

const launchers = (page: Page) => page.getByRole('button', { name: 'Open chat' });

describe('the loader on the host page', () => {
  it('when the rest of the widget has not arrived yet, then the launcher is already there, and once it has, one launcher stays in the same place', async () => {
    const { page, requested, release } = await pageWithRestHeld();
    await expect.poll(() => launchers(page).count(), POLL).toBe(1);
    expect(await page.locator('chat-widget').count()).toBe(0);
    const before = await launchers(page).boundingBox();
    expect(before?.width).toBe(56);

    release();
    await expect.poll(() => page.locator('chat-widget').count(), POLL).toBe(1);
    expect(requested()).toBe(true);
    expect(await launchers(page).count()).toBe(1);
    // The element's launcher takes the same place: nothing jumps under the visitor's pointer.
    expect(await launchers(page).boundingBox()).toEqual(before);
    expect(await page.locator('chat-widget-launcher').count()).toBe(0);
    await page.context().close();
  });

  it('when the visitor clicks the launcher before the rest arrived, then the chat opens with the bot talking once it arrives', async () => {
    const { page, release } = await pageWithRestHeld();
    await launchers(page).click();
    release();
    await expect.poll(() => page.getByRole('log').textContent(), POLL).toContain("What's your name?");
    expect(await page.getByRole('button', { name: 'Close chat' }).count()).toBe(1);
    await page.context().close();
  });

  it('when the page calls the API before the rest arrived, then the calls run once it arrives and their promises settle with the answer', async () => {
    const { page, release } = await pageWithRestHeld();
    const pending = page.evaluate(() => window.ChatWidget?.startDialog('sales', { product: 'Gadgets' }));
    // Not awaited in the page: before the rest arrives, every call answers with a promise of its result.
    await page.evaluate(() => void window.ChatWidget?.open());
    release();
    expect(await pending).toEqual({ ok: true });
    await expect.poll(() => page.getByRole('log').textContent(), POLL).toContain('Sales here, about Gadgets.');
    await page.context().close();
  });

  it('when the visitor never clicks, then the rest still loads once the page is idle and connects, but the bot greets only once the chat is opened', async () => {
    const page = await (await browser.newContext()).newPage();
    await page.goto(server.url);
    await expect.poll(() => page.locator('chat-widget').count(), POLL).toBe(1);
    // The widget keeps its session in localStorage: issued on connect, with nothing said yet (a page view stores no one).
    const stored = () => page.evaluate(() => Object.values(localStorage).join('\n'));
    await expect.poll(stored, POLL).toContain('"token"');
    expect(await stored()).not.toContain("What's your name?");
    // No unread count on the launcher: nothing was said.
    expect((await launchers(page).textContent())?.trim()).toBe('');
    await launchers(page).click();
    await expect.poll(() => page.getByRole('log').textContent(), POLL).toContain("What's your name?");
    await page.context().close();
  });
});
