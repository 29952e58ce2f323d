import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMongoTestServer, type MongoTestServer } from '../scripts/mongo-test-server.ts';
import { EXPECTED, runScript, shopBot, startStock, STOCK_TOKEN } from '../server/studio-server/test/insights-script.ts';
import type { StudioClient } from '../server/studio-server/test/studio-client.ts';
import { launchBrowser } from './browser.ts';
import { screenshot } from './screenshots.ts';
import type { ServerProcess } from './server-process.ts';
import { axeViolations } from './studio-axe.ts';
import { designerServer, openDesigner, person, signedInPage } from './studio-designer-helpers.ts';

/** A table's body rows as their cells' texts (the row header first). */
async function rows(page: Page, table: string): Promise<string[][]> {
  const found = page.getByRole('table', { name: table });
  await found.waitFor({ timeout: 15_000 });
  const out: string[][] = [];
  for (const row of await found.locator('tbody').getByRole('row').all()) {
    out.push(
      (await row.getByRole(/* row header and cells */ 'rowheader').allTextContents())
        .concat(await row.getByRole('cell').allTextContents())
        .map((s) => s.trim()),
    );
  }
  return out;
}

/** Scripted conversations with known outcomes, then the Insights screen in Chromium, read by role and name. */
for (const store of ['sqlite', 'mongo'] as const)
  describe(`the Insights screen in Chromium (${store})`, () => {
    let mongo: MongoTestServer | undefined;
    let browser: Browser;
    let server: ServerProcess;
    let stock: Awaited<ReturnType<typeof startStock>>;
    let analyst: StudioClient;
    let viewer: StudioClient;
    let users: Awaited<ReturnType<typeof runScript>>;

    beforeAll(async () => {
      stock = await startStock();
      let storeEnv: Record<string, string> = {};
      if (store === 'mongo') {
        mongo = await startMongoTestServer();
        if (mongo.url === null) throw new Error(`no Mongo-compatible server: ${mongo.reason}`);
        storeEnv = { MONGODB_URL: `${mongo.url.replace(/\/$/, '')}/e2e_insights_${process.pid}` };
      }
      let owner: StudioClient;
      ({ server, owner } = await designerServer(shopBot(stock.url), {
        ...storeEnv,
        INTEGRATION_ALLOWED_HOSTS: '127.0.0.1',
        STOCK_TOKEN,
        INSIGHTS_WINDOW: '2s',
        WEBCHAT_RATE_LIMIT: '10000',
      }));
      analyst = await person(owner, 'analyst');
      viewer = await person(owner, 'viewer');
      users = await runScript(server.url);
      // Every conversation is over after the window, and the counters are written about once a second.
      await new Promise((resolve) => setTimeout(resolve, 3500));
      browser = await launchBrowser();
    }, 120_000);
    afterAll(async () => {
      await browser?.close();
      await server?.stop();
      await stock?.close();
      if (mongo?.url) await mongo.stop();
    });

    it('when an analyst opens Insights, then each chart has its table with exactly the scripted numbers, and axe finds nothing', async () => {
      const { page, problems } = await signedInPage(browser, server, analyst);
      await page.goto(`${server.url}/studio/insights`);
      await page.getByRole('heading', { name: 'Insights', level: 1 }).waitFor();
      const daily = await rows(page, 'Conversations, active users and messages per day as a table');
      expect(daily).toHaveLength(30);
      expect(daily.at(-1)!.slice(0, 3)).toEqual([
        new Date().toISOString().slice(0, 10),
        String(EXPECTED.conversations),
        String(EXPECTED.activeUsers),
      ]);
      const dialogs = await rows(page, 'Completion of each dialog as a table');
      expect(
        Object.fromEntries(
          dialogs.map(([id, started, completed]) => [id, { started: Number(started), completed: Number(completed) }]),
        ),
      ).toEqual(EXPECTED.dialogs);
      expect(await rows(page, 'Top unprocessed inputs as a table')).toEqual([[EXPECTED.unprocessed, '1']]);
      const calls = await rows(page, 'Integration calls by status as a table');
      expect(calls.map(([status, n]) => [status, n])).toEqual(
        Object.entries(EXPECTED.integrations).map(([status, n]) => [status, String(n)]),
      );
      expect(await rows(page, 'Emails and SMS sent as a table')).toEqual([
        ['Emails', '0'],
        ['SMS', '0'],
      ]);
      expect(await page.locator('insights-chart').count()).toBe(8);
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, `${store}-insights-dashboard`);
      expect(problems).toEqual([]);
    });

    it('when a bar chart has several figures per row, then every bar stands beside the others of its row with its figure on it, readable without colour', async () => {
      const { page, problems } = await signedInPage(browser, server, analyst);
      await page.goto(`${server.url}/studio/insights`);
      for (const title of ['Completion of each dialog', 'Integration latency by status']) {
        const table = await rows(page, `${title} as a table`);
        const headers = (
          await page
            .getByRole('table', { name: `${title} as a table` })
            .getByRole('columnheader')
            .allTextContents()
        ).slice(1);
        const chart = page.getByRole('img', { name: `${title} as bars (the figures are in the table beside it)` });
        for (const [label, ...values] of table) {
          const boxes = [];
          for (const [i, series] of headers.entries()) {
            // Each bar's tooltip names its series, row and figure; its box is where a person sees it.
            const bar = chart.locator('rect', {
              has: page.locator('title', { hasText: `${series}, ${label}: ${values[i]}` }),
            });
            const box = (await bar.boundingBox())!;
            expect(box.width).toBeGreaterThan(4);
            if (Number(values[i]) > 0) expect(box.height).toBeGreaterThan(0);
            boxes.push(box);
          }
          // Side by side: no bar of a row covers another.
          for (let i = 1; i < boxes.length; i++)
            expect(boxes[i]!.x).toBeGreaterThanOrEqual(boxes[i - 1]!.x + boxes[i - 1]!.width - 0.5);
          // The figure stands on the bar, so nobody needs the colour or the table to read it.
          for (const value of values) expect(await chart.getByText(value, { exact: true }).count()).toBeGreaterThan(0);
        }
      }
      await page.emulateMedia({ forcedColors: 'active' });
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, `${store}-insights-forced-colours`);
      await page.emulateMedia({ forcedColors: 'none' });
      expect(problems).toEqual([]);
    });

    it('when the analyst opens Drop-off, then each step shows exactly how many reached it and how many stopped there', async () => {
      const { page, problems } = await signedInPage(browser, server, analyst);
      await page.goto(`${server.url}/studio/insights`);
      await page.getByRole('navigation', { name: 'Insights sections' }).getByRole('link', { name: 'Drop-off' }).click();
      const order = await rows(page, 'Reach and drop-off in dialog order');
      expect(order).toEqual([
        ['hello', '5', '0'],
        ['name', '5', '1'],
        ['city', '3', '1'],
        ['lookup', '2', '0'],
        ['thanks', '1', '0'],
        ['finish', '1', '0'],
      ]);
      expect(await rows(page, 'Reach and drop-off in dialog done')).toEqual([
        ['bye', '1', '0'],
        ['end', '1', '1'],
      ]);
      expect(await rows(page, 'Reach and drop-off in dialog sorry')).toEqual([
        ['say', '1', '0'],
        ['end', '1', '1'],
      ]);
      expect(await rows(page, 'Reach and drop-off in dialog ask')).toEqual([
        ['listen', '1', '0'],
        ['unsure', '1', '1'],
      ]);
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, `${store}-insights-drop-off`);
      expect(problems).toEqual([]);
    });

    it('when the analyst opens the designer, then each step of the outline and of the map carries its reach and drop-off', async () => {
      const { page, problems } = await signedInPage(browser, server, analyst);
      // The figures come from insights beside the designer's own load; on a busy machine they are the slower.
      const figures = page.waitForResponse((r) => r.url().includes('/insights/drop-off') && r.ok(), {
        timeout: 45_000,
      });
      await openDesigner(page, server);
      await figures;
      await expect.poll(() => page.getByRole('button', { name: /\bname\b.*5 reached, 1 stopped/ }).count()).toBe(1);
      expect(await page.getByRole('button', { name: /\bcity\b.*3 reached, 1 stopped/ }).count()).toBe(1);
      expect(await page.getByRole('button', { name: /\bhello\b.*5 reached, 0 stopped/ }).count()).toBe(1);
      // The map draws the same figures on its steps.
      await page.getByRole('tab', { name: 'Map' }).click();
      const map = page.getByRole('group', { name: 'Map of dialogs and jumps' });
      await expect.poll(() => map.getByRole('button', { name: /\bcity\b.*3 reached, 1 stopped/ }).count()).toBe(1);
      await page.getByRole('tab', { name: 'Outline' }).click();
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, `${store}-insights-designer-outline`);
      expect(problems).toEqual([]);
    });

    it('when the analyst searches for what a visitor wrote and opens the transcript, then each message shows its dialog and step, the failed call is beside its turn, and the token is nowhere', async () => {
      const { page, problems } = await signedInPage(browser, server, analyst);
      await page.goto(`${server.url}/studio/insights/conversations`);
      await page.getByLabel('Words the visitor wrote').fill('nowhere');
      await page.getByRole('button', { name: 'Search' }).click();
      const table = page.getByRole('table', { name: 'Conversations, newest first' });
      await expect.poll(() => table.locator('tbody').getByRole('row').count()).toBe(1);
      await table.getByRole('link', { name: `Transcript of ${users.dan}` }).click();
      await page.getByRole('heading', { name: `Transcript of ${users.dan}` }).waitFor();
      const messages = await rows(page, 'Messages with the dialog and step each came from');
      const row = (text: string) => messages.find((cells) => cells[3]?.startsWith(text));
      expect(row('Your city?')?.slice(1)).toEqual(['Bot', 'Web chat', 'Your city?', 'order / city']);
      expect(row('Nowhere')?.[1]).toBe('Visitor');
      expect(row('Nowhere')?.[4]).toBe('order / city');
      expect(row('Nowhere')?.[3]).toContain('1 integration call');
      expect(row('The stock service failed.')?.[4]).toBe('sorry / say');
      await page.getByText('1 integration call', { exact: true }).click();
      await expect.poll(() => page.getByText('"responseStatus": 500').count()).toBe(1);
      expect(await page.content()).not.toContain(STOCK_TOKEN);
      expect(
        await page.locator('insights-conversations').evaluate((el) => el.shadowRoot!.textContent ?? ''),
      ).not.toContain(STOCK_TOKEN);
      // An analyst erases no one: that is an owner's.
      expect(await page.getByRole('button', { name: 'Erase this visitor' }).count()).toBe(0);
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, `${store}-insights-transcript`);
      expect(problems).toEqual([]);
    });

    it("when the first list of conversations answers after the analyst's search (a busy store), then the table keeps what the search found", async () => {
      const { page, problems } = await signedInPage(browser, server, analyst);
      // The first list (the last 30 days, no words) is held until the search has answered.
      let searched!: () => void;
      const searchAnswered = new Promise<void>((resolve) => (searched = resolve));
      await page.route('**/studio/api/insights/conversations?**', async (route) => {
        const words = new URL(route.request().url()).searchParams.get('text');
        if (words === null) {
          await searchAnswered;
          return route.continue();
        }
        const response = await route.fetch();
        await route.fulfill({ response });
        searched();
      });
      const firstList = page.waitForResponse(
        (response) =>
          response.url().includes('/insights/conversations?') && !new URL(response.url()).searchParams.has('text'),
      );
      await page.goto(`${server.url}/studio/insights/conversations`);
      await page.getByLabel('Words the visitor wrote').fill('nowhere');
      await page.getByRole('button', { name: 'Search' }).click();
      const table = page.getByRole('table', { name: 'Conversations, newest first' });
      await expect.poll(() => table.locator('tbody').getByRole('row').count()).toBe(1);
      // The held first list answers once the search has: what the search found stays.
      await firstList;
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      expect(await table.locator('tbody').getByRole('row').count()).toBe(1);
      await page.unroute('**/studio/api/insights/conversations?**');
      expect(problems).toEqual([]);
    });

    it('when the analyst opens Downloads, then each export has a link per format, and the transcript downloads as CSV with what the visitors wrote', async () => {
      const { page, problems } = await signedInPage(browser, server, analyst);
      await page.goto(`${server.url}/studio/insights/downloads`);
      await page.getByRole('table', { name: /^Exports for the chosen days/ }).waitFor();
      const link = page.getByRole('link', { name: 'Download Transcripts as CSV' });
      const href = (await link.getAttribute('href'))!;
      expect(href).toMatch(
        /^\/studio\/api\/export\/transcript\?format=csv&bom=true&fromTimestamp=\d+&toTimestamp=\d+$/,
      );
      // What the link fetches, with the page's own session cookie.
      const response = await page.request.get(`${server.url}${href}`);
      expect(response.status()).toBe(200);
      const body = await response.body();
      expect([...body.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      expect(body.toString('utf8')).toContain('Nowhere');
      expect(await link.getAttribute('download')).toBe('transcript.csv');
      expect(await page.getByRole('link', { name: 'Download Integration calls as NDJSON' }).count()).toBe(1);
      // Each export is named by what it holds, never by the key the management API knows it by.
      const exportNames = (downloads: typeof page) =>
        downloads
          .getByRole('rowheader')
          .allTextContents()
          .then((names) => names.map((name) => name.trim()));
      expect(await exportNames(page)).toEqual([
        'Transcripts',
        'User data',
        'User data as it was before being cleared',
        'Free text and the intents found',
        'FAQ questions and the answers found',
        'Integration calls',
        'Link clicks',
        'Emails sent',
        'Text messages sent',
      ]);
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, `${store}-insights-downloads`);
      expect(problems).toEqual([]);

      // The same in German: the words change, the file keeps its name.
      const { page: german, problems: germanProblems } = await signedInPage(browser, server, analyst, {
        locale: 'de-DE',
      });
      await german.goto(`${server.url}/studio/insights/downloads`);
      await german.getByRole('table', { name: /^Exporte für die gewählten Tage/ }).waitFor();
      const germanLink = german.getByRole('link', { name: 'Gesprächsverläufe als CSV herunterladen' });
      expect(await germanLink.getAttribute('download')).toBe('transcript.csv');
      expect(await exportNames(german)).toEqual([
        'Gesprächsverläufe',
        'Benutzerdaten',
        'Benutzerdaten, wie sie vor dem Löschen waren',
        'Freitext und die erkannten Intents',
        'FAQ-Fragen und die gefundenen Antworten',
        'Aufrufe von Integrationen',
        'Klicks auf Links',
        'Gesendete E-Mails',
        'Gesendete SMS',
      ]);
      expect(await axeViolations(german)).toEqual([]);
      await screenshot(german, `${store}-insights-downloads-de`);
      expect(germanProblems).toEqual([]);
    });

    it('when an analyst tries to change the bot, then the versions screen offers no publish and the server refuses publishing and saving', async () => {
      const { page } = await signedInPage(browser, server, analyst);
      await page.goto(`${server.url}/studio/versions`);
      await page.getByRole('heading', { name: 'Versions', level: 1 }).waitFor();
      await page.getByRole('table', { name: 'Versions of the bot, newest first' }).waitFor();
      expect(await page.getByRole('button', { name: /^Publish/ }).count()).toBe(0);
      expect((await analyst.post('/studio/api/publish', { versionId: 'v1' })).status).toBe(403);
      const definition = (await analyst.get('/studio/api/versions/v1')).body.definition;
      expect(
        (await analyst.post('/studio/api/versions', { baseVersionId: 'v1', definition, message: 'no' })).status,
      ).toBe(403);
    });

    it("when a viewer opens a transcript's address, then the page says who may read it and shows none of it, and the server refuses", async () => {
      const { page, problems } = await signedInPage(browser, server, viewer);
      await page.goto(`${server.url}/studio/insights/users/${encodeURIComponent(users.dan)}`);
      await page.getByRole('heading', { name: 'Insights', level: 1 }).waitFor();
      await expect.poll(() => page.getByText(/only owners and analysts see them/).count()).toBe(1);
      expect(await page.getByText('Nowhere').count()).toBe(0);
      const refused = await viewer.get(`/studio/api/insights/users/${encodeURIComponent(users.dan)}`);
      expect([refused.status, refused.body.error.code]).toEqual([403, 'forbidden']);
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, `${store}-insights-viewer`);
      expect(problems).toEqual([]);
    });
  });
