import type { Page, Response } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { designerSuite, signedInPage } from './studio-designer-helpers.ts';

const BOT = {
  settings: { id: 'shop', name: 'Shop', startDialog: 'main' },
  dialogs: [{ id: 'main', steps: [{ id: 'hello', type: 'message', text: 'Hello!' }] }],
};
const BUDGET = 80 * 1024;

/** The studio's scripts as Chromium receives them: compressed, and only what the screen in front of the person needs. */
describe("how the studio's files reach the browser, in Chromium", () => {
  const suite = designerSuite(BOT);

  /** Every script and style the page fetched from /studio/assets: its name, encoding and bytes on the wire. */
  const watch = (page: Page) => {
    const files: { name: string; encoding: string | undefined; bytes: number }[] = [];
    page.on('response', (response: Response) => {
      const url = new URL(response.url());
      if (!url.pathname.startsWith('/studio/assets/')) return;
      const headers = response.headers();
      files.push({
        name: url.pathname.slice('/studio/assets/'.length),
        encoding: headers['content-encoding'],
        bytes: Number(headers['content-length']),
      });
    });
    return files;
  };
  const total = (files: readonly { bytes: number }[]) => files.reduce((sum, file) => sum + file.bytes, 0);

  it('when a person opens the sign-in page, then its scripts come compressed, within 80 KB, without the map, the charts or any screen behind it', async () => {
    const page = await suite.browser.newPage();
    const files = watch(page);
    await page.goto(`${suite.server.url}/studio/`);
    await page.getByRole('heading', { name: 'Sign in to the studio' }).waitFor();
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) expect(['br', 'gzip']).toContain(file.encoding);
    expect(total(files)).toBeLessThanOrEqual(BUDGET);
    expect(files.map((file) => file.name).join(' ')).not.toMatch(
      /designer|map|uPlot|insights|versions|settings|preview/,
    );
    console.log(`[studio delivery] sign-in: ${files.length} files, ${total(files)} bytes ${files[0]?.encoding}`);
    await page.close();
  });

  it("when a signed-in person opens the versions list, then everything it loaded is within 80 KB compressed, and the designer's map loads only when the Map tab is opened", async () => {
    const { page } = await signedInPage(suite.browser, suite.server, suite.owner);
    const files = watch(page);
    await page.goto(`${suite.server.url}/studio/versions`);
    await page.getByRole('heading', { name: 'Versions', level: 1 }).waitFor();
    await page.getByRole('table', { name: /^Versions of the bot/ }).waitFor();
    expect(total(files)).toBeLessThanOrEqual(BUDGET);
    expect(files.map((file) => file.name).join(' ')).not.toMatch(/designer|map-|uPlot|insights|settings|preview/);
    console.log(`[studio delivery] versions: ${files.length} files, ${total(files)} bytes`);

    await page.getByRole('link', { name: 'Designer' }).click();
    await page.getByRole('heading', { name: /^Steps of / }).waitFor({ timeout: 20_000 });
    expect(files.some((file) => file.name.startsWith('studio-designer-'))).toBe(true);
    expect(files.some((file) => file.name.startsWith('designer-map-'))).toBe(false);
    await page.getByRole('tab', { name: 'Map' }).click();
    await page.getByRole('group', { name: 'Map of dialogs and jumps' }).waitFor();
    expect(files.some((file) => file.name.startsWith('designer-map-'))).toBe(true);
  });
});
