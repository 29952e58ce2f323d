import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missesBot, runMisses } from '../server/studio-server/test/misses-script.ts';
import type { StudioClient } from '../server/studio-server/test/studio-client.ts';
import { launchBrowser } from './browser.ts';
import { screenshot } from './screenshots.ts';
import type { ServerProcess } from './server-process.ts';
import { axeViolations } from './studio-axe.ts';
import { designerServer, person, signedInPage } from './studio-designer-helpers.ts';

const POLL = { timeout: 15_000 };

/**
 * When the misses read less than the logs hold (INSIGHTS_MISSES_ROWS rows per log, the
 * INSIGHTS_MISSES_GROUPED most frequent inputs grouped), the author reads so on the page, in
 * English and in German, with the time the list reaches. The bounds are the server's; only their
 * size is made small here.
 */
describe('the Misses in Chromium, when the logs hold more than is read', () => {
  let browser: Browser;
  let server: ServerProcess;
  let analyst: StudioClient;

  beforeAll(async () => {
    let owner: StudioClient;
    ({ server, owner } = await designerServer(missesBot(), {
      WEBCHAT_RATE_LIMIT: '10000',
      INSIGHTS_MISSES_ROWS: '3',
      INSIGHTS_MISSES_GROUPED: '1',
    }));
    analyst = await person(owner, 'analyst');
    // Five unprocessed inputs (four different) and one FAQ miss.
    await runMisses(server.url);
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('when the NLP log has more rows than are read and more different inputs than are grouped, then the page says both, with the time it reached, and the FAQ log is not said to be cut', async () => {
    const answer = await analyst.get('/studio/api/insights/misses');
    const nlp = answer.body.read.nlpLog as { rows: number; capped: boolean; readUpTo: number; distinct: number };
    expect([nlp.rows, nlp.capped, nlp.distinct]).toEqual([3, true, 2]);
    const upTo = new Date(nlp.readUpTo).toISOString().slice(0, 16).replace('T', ' ');

    const { page, problems } = await signedInPage(browser, server, analyst);
    await page.goto(`${server.url}/studio/insights/misses`);
    await page.getByRole('table', { name: 'Unprocessed inputs, grouped by likeness' }).waitFor(POLL);
    const capped = `The NLP log has more rows in these days than are read at once (3): the misses cover them up to ${upTo} UTC. Choose fewer days to see the rest.`;
    expect(await page.getByText(capped, { exact: true }).count()).toBe(1);
    expect(
      await page
        .getByText('The NLP log holds 2 different inputs in these days: only the most frequent is grouped here.', {
          exact: true,
        })
        .count(),
    ).toBe(1);
    // The FAQ log's one row was read whole.
    expect(await page.getByText('The FAQ log has more rows').count()).toBe(0);
    // Only the most frequent input is grouped: one row.
    expect(
      await page
        .getByRole('table', { name: 'Unprocessed inputs, grouped by likeness' })
        .getByRole('rowheader')
        .allTextContents(),
    ).toEqual([expect.stringContaining('Where is my parcel (2)')]);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'sqlite-insights-misses-capped');
    expect(problems).toEqual([]);

    const context = await browser.newContext({ locale: 'de-DE', viewport: { width: 1400, height: 900 } });
    try {
      const [name, value] = analyst.cookie!.split('=') as [string, string];
      await context.addCookies([{ name, value, url: server.url, httpOnly: true, sameSite: 'Strict' }]);
      const german = await context.newPage();
      await german.goto(`${server.url}/studio/insights/misses`);
      await german
        .getByRole('table', { name: 'Nicht verarbeitete Eingaben, nach Ähnlichkeit gruppiert' })
        .waitFor(POLL);
      expect(
        await german
          .getByText(
            `Das NLP-Protokoll hat in diesen Tagen mehr Zeilen, als auf einmal gelesen werden (3): Die Liste reicht bis ${upTo} UTC. Wählen Sie weniger Tage, um den Rest zu sehen.`,
            { exact: true },
          )
          .count(),
      ).toBe(1);
      expect(
        await german
          .getByText(
            'Das NLP-Protokoll enthält in diesen Tagen 2 verschiedene Eingaben: Hier ist nur die häufigste gruppiert.',
            { exact: true },
          )
          .count(),
      ).toBe(1);
      expect(await axeViolations(german)).toEqual([]);
      await screenshot(german, 'sqlite-insights-misses-capped-de');
    } finally {
      await context.close();
    }
  });
});
