import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPECTED, runScript, shopBot, startStock, STOCK_TOKEN } from '../server/studio-server/test/insights-script.ts';
import type { StudioClient } from '../server/studio-server/test/studio-client.ts';
import { launchBrowser } from './browser.ts';
import { screenshot } from './screenshots.ts';
import type { ServerProcess } from './server-process.ts';
import { axeViolations } from './studio-axe.ts';
import { designerServer, person, signedInPage } from './studio-designer-helpers.ts';

const KIOSK_KEY = 'kiosk-key-0123456789';

/** A table's body rows as their cells' texts (the row header first). */
async function rows(page: Page, table: string): Promise<string[][]> {
  const found = page.getByRole('table', { name: table });
  await found.waitFor({ timeout: 15_000 });
  const out: string[][] = [];
  for (const row of await found.locator('tbody').getByRole('row').all()) {
    out.push(
      (await row.getByRole('rowheader').allTextContents())
        .concat(await row.getByRole('cell').allTextContents())
        .map((s) => s.trim()),
    );
  }
  return out;
}

/**
 * The scripted web chat visitors and two visitors of a REST channel ("kiosk"), then the Insights
 * screen in Chromium filtered by channel, read by role and name.
 */
describe('the Insights screen by channel in Chromium', () => {
  let browser: Browser;
  let server: ServerProcess;
  let stock: Awaited<ReturnType<typeof startStock>>;
  let analyst: StudioClient;

  beforeAll(async () => {
    stock = await startStock();
    let owner: StudioClient;
    ({ server, owner } = await designerServer(shopBot(stock.url), {
      INTEGRATION_ALLOWED_HOSTS: '127.0.0.1',
      STOCK_TOKEN,
      INSIGHTS_WINDOW: '2s',
      WEBCHAT_RATE_LIMIT: '10000',
      REST_CHANNELS: JSON.stringify([{ name: 'kiosk', key: KIOSK_KEY }]),
    }));
    analyst = await person(owner, 'analyst');
    await runScript(server.url);
    // Two kiosk visitors: each is greeted and answers the name prompt, then stops at the city.
    for (const [user, name] of [
      ['k-1', 'Kim'],
      ['k-2', 'Lee'],
    ] as const) {
      const res = await fetch(`${server.url}/api/channels/kiosk/users/${user}/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-channel-key': KIOSK_KEY },
        body: JSON.stringify({ type: 'text', clientId: `${user}-1`, text: name }),
      });
      expect(res.status).toBe(200);
    }
    // Every conversation is over after the window, and the counters are written about once a second.
    await new Promise((resolve) => setTimeout(resolve, 3500));
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await stock?.close();
  });

  it('when an analyst picks a channel, then every chart counts only its conversations, the table beside each says so, and axe finds nothing', async () => {
    const { page, problems } = await signedInPage(browser, server, analyst);
    await page.goto(`${server.url}/studio/insights`);
    await page.getByRole('heading', { name: 'Insights', level: 1 }).waitFor();
    const perChannel = await rows(page, 'Conversations and messages per channel as a table');
    expect(perChannel.map(([channel, conversations]) => [channel, conversations])).toEqual([
      ['Web chat', String(EXPECTED.conversations)],
      ['Channel kiosk', '2'],
    ]);

    await page.getByRole('combobox', { name: 'Channel' }).selectOption({ label: 'Channel kiosk' });
    await page.getByRole('button', { name: 'Show' }).click();
    const daily = await rows(page, 'Conversations, active users and messages per day — Channel kiosk as a table');
    expect(daily.at(-1)!.slice(0, 3)).toEqual([new Date().toISOString().slice(0, 10), '2', '2']);
    expect(await rows(page, 'Completion of each dialog — Channel kiosk as a table')).toEqual([['order', '2', '0']]);
    // Two visitors, each greeted (two messages), answering once, asked the next question.
    expect(await rows(page, 'Conversations and messages per channel — Channel kiosk as a table')).toEqual([
      ['Channel kiosk', '2', '8'],
    ]);
    // The web chat's calls and misses are not the kiosk's.
    await page.getByRole('heading', { name: 'Integration calls by status — Channel kiosk' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'insights-by-channel');

    await page.getByRole('navigation', { name: 'Insights sections' }).getByRole('link', { name: 'Drop-off' }).click();
    const order = await rows(page, 'Reach and drop-off in dialog order — Channel kiosk');
    expect(order.slice(0, 3)).toEqual([
      ['hello', '2', '0'],
      ['name', '2', '0'],
      ['city', '2', '2'],
    ]);
    expect(await axeViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
  });

  it("when the analyst opens a kiosk visitor's transcript, then each message says its channel in words", async () => {
    const { page, problems } = await signedInPage(browser, server, analyst);
    await page.goto(`${server.url}/studio/insights/users/k-1`);
    const transcript = page.getByRole('table', { name: 'Messages with the dialog and step each came from' });
    await transcript.waitFor({ timeout: 15_000 });
    const channelColumn = (await transcript.getByRole('columnheader').allTextContents()).map((s) => s.trim());
    expect(channelColumn).toContain('Channel');
    const messages = await transcript.locator('tbody').getByRole('row').all();
    expect(messages.length).toBeGreaterThanOrEqual(3);
    for (const row of messages)
      expect((await row.getByRole('cell').nth(2).textContent())?.trim()).toBe('Channel kiosk');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'insights-transcript-channel');
    expect(problems).toEqual([]);
  });
});
