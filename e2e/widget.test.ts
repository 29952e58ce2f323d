import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './browser.ts';
import { conversation, messageItems, messages } from './conversation.ts';
import { XSS_PAYLOADS } from './fixtures/xss-payloads.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';
import { axeViolations } from './studio-axe.ts';

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

async function say(page: Page, text: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Message' }).fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
}

/** How many messages the bot has said so far. */
async function botMessages(page: Page): Promise<number> {
  return (await messages(page)).filter((text) => text.startsWith('Bot: ')).length;
}

function count(list: readonly string[], text: string): number {
  return list.filter((t) => t === text).length;
}

describe('the widget on the demo page', () => {
  it('when the page passes user data at init, then the bot uses it in its first message', async () => {
    const page = await openDemo(server.url);
    await expect.poll(() => messages(page), POLL).toContain('Bot: Hi ada@example.com, you are on /.');
    await page.context().close();
  });

  it('when the page sends an event or starts a dialog, then the bot answers in the chat', async () => {
    const page = await openDemo(server.url);
    await expect.poll(() => messages(page), POLL).toContain("Bot: What's your name?");

    await page.getByRole('button', { name: 'Show pricing (page event)' }).click();
    await expect.poll(() => messages(page), POLL).toContain('Bot: Pricing for the pro plan.');

    await page.getByRole('button', { name: 'Talk to sales (start a dialog)' }).click();
    await expect.poll(() => messages(page), POLL).toContain('Bot: Sales here, about Widgets.');
    await page.context().close();
  });

  it('when the bot sends an event, then the listener the page registered runs with its payload', async () => {
    const page = await openDemo(server.url);
    await expect.poll(() => messages(page), POLL).toContain("Bot: What's your name?");
    await say(page, 'Grace');
    await expect.poll(() => messages(page), POLL).toContain('Bot: Nice to meet you, Grace!');

    await page.evaluate(() => window.ChatWidget?.('startDialog', 'bye'));

    await expect
      .poll(() => page.locator('#bot-events').textContent(), POLL)
      .toContain('closeChat {"reason":"bye from Grace"}');
    // The demo's closeChat listener closes the panel.
    await expect.poll(() => page.getByRole('button', { name: 'Open chat' }).count(), POLL).toBe(1);
    await page.context().close();
  });

  it('when the page is reloaded, then the conversation is restored once, with nothing doubled', async () => {
    const page = await openDemo(server.url);
    await expect.poll(() => messages(page), POLL).toContain("Bot: What's your name?");
    await say(page, 'Linus');
    await expect.poll(() => messages(page), POLL).toContain('Bot: Say something.');
    const before = await messages(page);

    await page.reload();
    await page.getByRole('button', { name: 'Open chat' }).click();
    // Restored from this device at once, then the server's replay (nothing new) must not double it.
    await expect.poll(() => messages(page), POLL).toEqual(before);
    await page.waitForTimeout(500);
    expect(await messages(page)).toEqual(before);
    await say(page, 'after reload');
    await expect.poll(() => messages(page), POLL).toContain('Bot: You said: after reload');
    await page.context().close();
  });

  it('when the bot sends buttons, a carousel and quick replies, then they render and a quick reply answers the bot', async () => {
    const page = await openDemo(server.url);
    await expect.poll(() => messages(page), POLL).toContain("Bot: What's your name?");
    await page.evaluate(() => window.ChatWidget?.('startDialog', 'rich'));

    await expect.poll(() => page.getByRole('group', { name: 'Quick replies' }).count(), POLL).toBe(1);
    expect(await conversation(page).getByRole('strong').first().textContent()).toBe('plans');
    // The URL button goes through the server's tracked link, in a new tab.
    const button = page.getByRole('link', { name: /Pricing page/ });
    expect(await button.getAttribute('href')).toMatch(/\/r\//);
    expect(await button.getAttribute('target')).toBe('_blank');
    expect(await button.getAttribute('rel')).toBe('noopener');
    const carousel = page.getByRole('region', { name: 'Cards' });
    expect(await carousel.getByRole('group').count()).toBe(2);
    // The card strip comes just before its first card's button in the Tab order: the arrow keys move it a card.
    const first = carousel.getByRole('group', { name: '1 of 2' });
    const start = (await first.boundingBox())?.x ?? 0;
    await carousel.getByRole('button', { name: 'Choose Basic' }).focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('ArrowRight');
    await expect.poll(async () => (await first.boundingBox())?.x ?? start, POLL).toBeLessThan(start);

    // The real conversation with every kind of message in it: lists of messages, links, cards, quick replies.
    expect(await axeViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Pro', exact: true }).click();
    await expect.poll(() => messages(page), POLL).toContain('Bot: You picked pro.');
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
    await expect.poll(() => messages(page), POLL).toContain("Bot: What's your name?");
    await say(page, 'Mallory');
    await expect.poll(() => messages(page), POLL).toContain('Bot: Say something.');

    for (const payload of XSS_PAYLOADS) {
      const bots = await botMessages(page);
      await say(page, payload);
      // The echo ("You said: …") and the next prompt: the payload is now in user and in bot text.
      await expect.poll(() => botMessages(page), POLL).toBe(bots + 2);
    }
    await page.evaluate(() => window.ChatWidget?.('startDialog', 'hostile'));
    await expect.poll(() => messages(page), POLL).toContainEqual(expect.stringContaining('click me'));

    // Every payload is shown as the text the user typed.
    const shown = await messages(page);
    for (const payload of XSS_PAYLOADS) {
      expect(shown).toContain(`You: ${payload}`);
      expect(shown).toContain(`Bot: You said: ${payload}`);
    }
    await messageItems(page).last().hover();
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
    expect(dialogs).toEqual([]);
    // The only links are web links, opened in a new tab without a handle on this page.
    const links = await conversation(page)
      .getByRole('link')
      .evaluateAll((as) => as.map((a) => [a.getAttribute('href'), a.getAttribute('rel')]));
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
    await expect.poll(() => messages(page), POLL).toContain("Bot: What's your name?");
    await say(page, 'Ada');
    await say(page, 'one');
    await expect.poll(() => messages(page), POLL).toContain('Bot: You said: one');

    await crashing.kill();
    // Written while the server is down: queued in the page, sent once it is back.
    await say(page, 'two');
    await expect.poll(() => page.getByText('Reconnecting').count(), POLL).toBeGreaterThan(0);
    crashing = await startServerProcess(FIXTURE, dataDir, port);

    await expect.poll(() => messages(page), POLL).toContain('Bot: You said: two');
    await say(page, 'three');
    await expect.poll(() => messages(page), POLL).toContain('Bot: You said: three');
    await page.waitForTimeout(500);

    const log = await messages(page);
    for (const text of [
      'You: Ada',
      'You: one',
      'You: two',
      'You: three',
      'Bot: You said: one',
      'Bot: You said: two',
      'Bot: You said: three',
      'Bot: Nice to meet you, Ada!',
    ]) {
      expect(count(log, text), text).toBe(1);
    }
    expect(log.indexOf('You: one')).toBeLessThan(log.indexOf('Bot: You said: one'));
    expect(log.indexOf('Bot: You said: one')).toBeLessThan(log.indexOf('You: two'));
    expect(log.indexOf('You: two')).toBeLessThan(log.indexOf('Bot: You said: two'));
    expect(log.indexOf('Bot: You said: two')).toBeLessThan(log.indexOf('You: three'));

    // A reload after all that shows the same conversation.
    await page.reload();
    await page.getByRole('button', { name: 'Open chat' }).click();
    await page.waitForTimeout(500);
    expect(await messages(page)).toEqual(log);
    await page.context().close();
  });
});
