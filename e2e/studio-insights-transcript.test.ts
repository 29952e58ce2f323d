import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { botTexts, connectClient, eventually } from '../server/test/start-test-server.ts';
import type { StudioClient } from '../server/studio-server/test/studio-client.ts';
import { launchBrowser } from './browser.ts';
import { screenshot } from './screenshots.ts';
import type { ServerProcess } from './server-process.ts';
import { axeViolations } from './studio-axe.ts';
import { designerServer, person, signedInPage } from './studio-designer-helpers.ts';

const bot = {
  settings: { id: 'events', name: 'Events bot', startDialog: 'chat' },
  pageEvents: [{ name: 'pricing-viewed', dialog: 'pricing' }],
  dialogs: [
    {
      id: 'chat',
      steps: [
        { id: 'listen', type: 'input', prompt: 'Say something.', saveTo: { variable: 'last' } },
        { id: 'again', type: 'goto', dialog: 'chat', step: 'listen' },
      ],
    },
    {
      id: 'pricing',
      steps: [
        { id: 'seen', type: 'input', prompt: 'Prices are on the page.', saveTo: { variable: 'last' } },
        { id: 'back', type: 'goto', dialog: 'chat', step: 'listen' },
      ],
    },
  ],
};

/** A table's body rows as their cells' texts. */
async function rows(page: Page, table: string): Promise<string[][]> {
  const found = page.getByRole('table', { name: table });
  await found.waitFor({ timeout: 15_000 });
  const out: string[][] = [];
  for (const row of await found.locator('tbody').getByRole('row').all())
    out.push((await row.getByRole('cell').allTextContents()).map((s) => s.trim()));
  return out;
}

/** Two visitors (the older one wrote "refund"), one with a page event between two messages; a search budget of one conversation. */
describe('the transcript and a stopped search in Chromium (sqlite)', () => {
  let server: ServerProcess;
  let analyst: StudioClient;
  let browser: Browser;

  beforeAll(async () => {
    let owner: StudioClient;
    ({ server, owner } = await designerServer(bot, { INSIGHTS_SEARCH_BUDGET: '1', WEBCHAT_RATE_LIMIT: '10000' }));
    analyst = await person(owner, 'analyst');
    const older = connectClient(server.url);
    await eventually('the prompt', () => botTexts(older.items).includes('Say something.'));
    older.emit('message', { clientId: 'o1', text: 'I want a refund' }, () => undefined);
    await eventually('the answer', () => botTexts(older.items).filter((t) => t === 'Say something.').length >= 2);
    older.disconnect();
    const eve = connectClient(server.url);
    await eventually('the prompt', () => botTexts(eve.items).includes('Say something.'));
    eve.emit('message', { clientId: 'e1', text: 'first words' }, () => undefined);
    await eventually('the answer', () => botTexts(eve.items).filter((t) => t === 'Say something.').length >= 2);
    await new Promise<void>((resolve) => eve.emit('page_event', { name: 'pricing-viewed' } as never, () => resolve()));
    await eventually('the pricing prompt', () => botTexts(eve.items).includes('Prices are on the page.'));
    eve.emit('message', { clientId: 'e2', text: 'second words' }, () => undefined);
    await eventually('the answer', () => botTexts(eve.items).filter((t) => t === 'Say something.').length >= 3);
    eve.disconnect();
    // The recorder writes about once a second.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('when the analyst opens a transcript with a page event, then the event is a row of the transcript between the messages it came between, named for what it was', async () => {
    const { page, problems } = await signedInPage(browser, server, analyst);
    await page.goto(`${server.url}/studio/insights/conversations`);
    await page.getByLabel('Words the visitor wrote').fill('second');
    await page.getByRole('button', { name: 'Search' }).click();
    const table = page.getByRole('table', { name: 'Conversations, newest first' });
    await expect.poll(() => table.locator('tbody').getByRole('row').count(), { timeout: 15_000 }).toBe(1);
    await table.getByRole('link', { name: /^Transcript of / }).click();
    const messages = await rows(page, 'Messages with the dialog and step each came from');
    const texts = messages.map((cells) => `${cells[1]}: ${cells[3]}`);
    const event = texts.indexOf('Event: Page event pricing-viewed');
    expect(event).toBeGreaterThan(texts.indexOf('Visitor: first words'));
    expect(event).toBeLessThan(texts.indexOf('Visitor: second words'));
    expect(await page.getByRole('row', { name: /Page event pricing-viewed/ }).count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'sqlite-insights-transcript-events');
    expect(problems).toEqual([]);
  });

  it('when a search by words reads its budget before it finds the visitor, then the page says where it stopped, in English and in German, and Load more finds them', async () => {
    const { page, problems } = await signedInPage(browser, server, analyst);
    await page.goto(`${server.url}/studio/insights/conversations`);
    const table = page.getByRole('table', { name: 'Conversations, newest first' });
    // The search the page opens with (every conversation of 30 days) stops at the budget too, after the newest.
    await table.waitFor({ timeout: 15_000 });
    await page.getByLabel('Words the visitor wrote').fill('refund');
    await page.getByRole('button', { name: 'Search' }).click();
    // The newest conversation does not hold the word: no result yet, and the page says why.
    await expect.poll(() => table.count(), { timeout: 15_000 }).toBe(0);
    expect(await page.getByRole('status').filter({ hasText: 'The search stopped after 1 conversations' }).count()).toBe(
      1,
    );
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'sqlite-insights-search-stopped');
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => table.locator('tbody').getByRole('row').count(), { timeout: 15_000 }).toBe(1);
    expect(problems).toEqual([]);

    const context = await browser.newContext({ locale: 'de-DE' });
    const [name, value] = analyst.cookie!.split('=') as [string, string];
    await context.addCookies([{ name, value, url: server.url, httpOnly: true, sameSite: 'Strict' }]);
    const german = await context.newPage();
    await german.goto(`${server.url}/studio/insights/conversations`);
    const tabelle = german.getByRole('table', { name: 'Gespräche, neueste zuerst' });
    await tabelle.waitFor({ timeout: 15_000 });
    await german.getByLabel('Was der Besucher schrieb').fill('refund');
    await german.getByRole('button', { name: 'Suchen' }).click();
    await expect.poll(() => tabelle.count(), { timeout: 15_000 }).toBe(0);
    expect(
      await german.getByRole('status').filter({ hasText: 'Die Suche hat nach 1 Gesprächen angehalten' }).count(),
    ).toBe(1);
    await screenshot(german, 'sqlite-insights-search-stopped-de');
    await context.close();
  });
});
