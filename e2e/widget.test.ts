import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './browser.ts';
import { XSS_PAYLOADS } from './fixtures/xss-payloads.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';

// DEMO_PAGE: this bot is not the demo bot, yet its tests drive the demo page.
const FIXTURE = { BOT_DEFINITION: 'e2e/fixtures/bot.json', WEBCHAT_RATE_LIMIT: '100000', DEMO_PAGE: '1' };
const POLL = { timeout: 15_000 };

let browser: Browser;
let server: ServerProcess;

beforeAll(async () => {
  browser = await launchBrowser();
  server = await startServerProcess(FIXTURE);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** A fresh browser profile (own localStorage) on the demo page, chat opened. */
async function openDemo(url: string): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(url);
  await page.getByRole('button', { name: 'Open chat' }).click();
  return page;
}

/** The bubbles' texts in the log, in order (the "You:"/"Bot:" prefixes and times left out). */
function bubbles(page: Page): Promise<string[]> {
  return page.locator('.msg .text').allTextContents();
}

async function say(page: Page, text: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Message' }).fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
}

function count(list: readonly string[], text: string): number {
  return list.filter((t) => t === text).length;
}

describe('the widget on the demo page', () => {
  it('when the page passes user data at init, then the bot uses it in its first message', async () => {
    const page = await openDemo(server.url);
    await expect.poll(() => bubbles(page), POLL).toContain('Hi ada@example.com, you are on /.');
    await page.context().close();
  });

  it('when the page sends an event or starts a dialog, then the bot answers in the chat', async () => {
    const page = await openDemo(server.url);
    await expect.poll(() => bubbles(page), POLL).toContain("What's your name?");

    await page.getByRole('button', { name: 'Show pricing (page event)' }).click();
    await expect.poll(() => bubbles(page), POLL).toContain('Pricing for the pro plan.');

    await page.getByRole('button', { name: 'Talk to sales (start a dialog)' }).click();
    await expect.poll(() => bubbles(page), POLL).toContain('Sales here, about Widgets.');
    await page.context().close();
  });

  it('when the bot sends an event, then the listener the page registered runs with its payload', async () => {
    const page = await openDemo(server.url);
    await expect.poll(() => bubbles(page), POLL).toContain("What's your name?");
    await say(page, 'Grace');
    await expect.poll(() => bubbles(page), POLL).toContain('Nice to meet you, Grace!');

    await page.evaluate(() => window.ChatWidget?.('startDialog', 'bye'));

    await expect.poll(() => page.locator('#bot-events').textContent(), POLL).toContain('closeChat {"reason":"bye from Grace"}');
    // The demo's closeChat listener closes the panel.
    await expect.poll(() => page.getByRole('button', { name: 'Open chat' }).count(), POLL).toBe(1);
    await page.context().close();
  });

  it('when the page is reloaded, then the conversation is restored once, with nothing doubled', async () => {
    const page = await openDemo(server.url);
    await expect.poll(() => bubbles(page), POLL).toContain("What's your name?");
    await say(page, 'Linus');
    await expect.poll(() => bubbles(page), POLL).toContain('Say something.');
    const before = await bubbles(page);

    await page.reload();
    await page.getByRole('button', { name: 'Open chat' }).click();
    // Restored from this device at once, then the server's replay (nothing new) must not double it.
    await expect.poll(() => bubbles(page), POLL).toEqual(before);
    await page.waitForTimeout(500);
    expect(await bubbles(page)).toEqual(before);
    await say(page, 'after reload');
    await expect.poll(() => bubbles(page), POLL).toContain('You said: after reload');
    await page.context().close();
  });

  it('when the bot sends buttons, a carousel and quick replies, then they render and a quick reply answers the bot', async () => {
    const page = await openDemo(server.url);
    await expect.poll(() => bubbles(page), POLL).toContain("What's your name?");
    await page.evaluate(() => window.ChatWidget?.('startDialog', 'rich'));

    await expect.poll(() => page.getByRole('group', { name: 'Quick replies' }).count(), POLL).toBe(1);
    expect(await page.locator('.msg strong').first().textContent()).toBe('plans');
    // The URL button goes through the server's tracked link, in a new tab.
    const button = page.getByRole('link', { name: /Pricing page/ });
    expect(await button.getAttribute('href')).toMatch(/\/r\//);
    expect(await button.getAttribute('target')).toBe('_blank');
    expect(await button.getAttribute('rel')).toBe('noopener');
    const carousel = page.getByRole('region', { name: 'Cards' });
    expect(await carousel.getByRole('group').count()).toBe(2);
    await carousel.locator('.cards').focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => carousel.locator('.cards').evaluate((strip) => strip.scrollLeft), POLL).toBeGreaterThan(0);

    await page.getByRole('button', { name: 'Pro', exact: true }).click();
    await expect.poll(() => bubbles(page), POLL).toContain('You picked pro.');
    expect(await page.getByRole('group', { name: 'Quick replies' }).count()).toBe(0);
    await page.context().close();
  });

  it('when 50 hostile strings go through user and bot text, then none of them runs', async () => {
    const page = await openDemo(server.url);
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await expect.poll(() => bubbles(page), POLL).toContain("What's your name?");
    await say(page, 'Mallory');
    await expect.poll(() => bubbles(page), POLL).toContain('Say something.');

    for (const payload of XSS_PAYLOADS) {
      const bots = await page.locator('.msg.bot').count();
      await say(page, payload);
      // The echo ("You said: …") and the next prompt: the payload is now in user and in bot text.
      await expect.poll(() => page.locator('.msg.bot').count(), POLL).toBe(bots + 2);
    }
    await page.evaluate(() => window.ChatWidget?.('startDialog', 'hostile'));
    await expect.poll(() => bubbles(page), POLL).toContainEqual(expect.stringContaining('click me'));

    // Every payload is shown as the text the user typed.
    const shown = await bubbles(page);
    for (const payload of XSS_PAYLOADS) {
      expect(shown).toContain(payload);
      expect(shown).toContain(`You said: ${payload}`);
    }
    await page.locator('.msg').last().hover();
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
    expect(dialogs).toEqual([]);
    // The only links are web links, opened in a new tab without a handle on this page.
    const links = await page.locator('.msg a').evaluateAll((as) => as.map((a) => [a.getAttribute('href'), a.getAttribute('rel')]));
    for (const [href, rel] of links) {
      expect(href).toMatch(/^https?:\/\//);
      expect(rel).toBe('noopener');
    }
    await page.context().close();
  });
});

describe('the widget across a server crash', () => {
  let dataDir: string;
  let crashing: ServerProcess | undefined;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'chatbot-e2e-crash-'));
  });
  afterAll(async () => {
    await crashing?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('when the server is killed and restarted mid-conversation, then the talk goes on with no message lost and none doubled', async () => {
    crashing = await startServerProcess(FIXTURE, dataDir);
    const { port } = crashing;
    const page = await openDemo(crashing.url);
    await expect.poll(() => bubbles(page), POLL).toContain("What's your name?");
    await say(page, 'Ada');
    await say(page, 'one');
    await expect.poll(() => bubbles(page), POLL).toContain('You said: one');

    await crashing.kill();
    // Written while the server is down: queued in the page, sent once it is back.
    await say(page, 'two');
    await expect.poll(() => page.getByText('Reconnecting').count(), POLL).toBeGreaterThan(0);
    crashing = await startServerProcess(FIXTURE, dataDir, port);

    await expect.poll(() => bubbles(page), POLL).toContain('You said: two');
    await say(page, 'three');
    await expect.poll(() => bubbles(page), POLL).toContain('You said: three');
    await page.waitForTimeout(500);

    const log = await bubbles(page);
    for (const text of ['Ada', 'one', 'two', 'three', 'You said: one', 'You said: two', 'You said: three', 'Nice to meet you, Ada!']) {
      expect(count(log, text), text).toBe(1);
    }
    expect(log.indexOf('one')).toBeLessThan(log.indexOf('You said: one'));
    expect(log.indexOf('You said: one')).toBeLessThan(log.indexOf('two'));
    expect(log.indexOf('two')).toBeLessThan(log.indexOf('You said: two'));
    expect(log.indexOf('You said: two')).toBeLessThan(log.indexOf('three'));

    // A reload after all that shows the same conversation.
    await page.reload();
    await page.getByRole('button', { name: 'Open chat' }).click();
    await page.waitForTimeout(500);
    expect(await bubbles(page)).toEqual(log);
    await page.context().close();
  });
});
