import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from './screenshots.ts';
import type { ServerProcess } from './server-process.ts';
import { axeViolations } from './studio-axe.ts';
import type { StudioClient } from '../server/studio-server/test/studio-client.ts';
import {
  closeDesigner,
  designerIn,
  designerServer,
  openDesigner,
  openedDesigner,
  signedInPage,
} from './studio-designer-helpers.ts';

/** Three dialogs in a row (each jumps to the next): wider than the map's pane at full size. */
const BOT = {
  settings: { id: 'shop', name: 'Shop', startDialog: 'greeting' },
  dialogs: [
    {
      id: 'greeting',
      steps: [
        { id: 'hello', type: 'message', text: 'Welcome to the shop.' },
        { id: 'ask', type: 'input', prompt: 'What can I do for you?' },
        { id: 'to-order', type: 'goto', dialog: 'order' },
      ],
    },
    {
      id: 'order',
      steps: [
        { id: 'number', type: 'input', prompt: 'Your order number?' },
        { id: 'to-pay', type: 'goto', dialog: 'payment' },
      ],
    },
    {
      id: 'payment',
      steps: [
        { id: 'thanks', type: 'message', text: 'Thanks for paying.' },
        { id: 'bye', type: 'end' },
      ],
    },
  ],
};

/** Whether the element has focus, looking through shadow roots. */
const focused = (target: Locator) =>
  target.evaluate((element) => {
    let active: Element | null = document.activeElement;
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
    return active === element;
  });

describe("the designer's views and map, in Chromium", () => {
  let browser: Browser;
  let server: ServerProcess;
  let page: Page;
  let problems: string[];
  let owner: StudioClient;

  beforeAll(async () => {
    ({ server, browser, page, problems, owner } = await openedDesigner(BOT));
  }, 60_000);
  afterAll(() => closeDesigner(browser, server));

  it('when a step is open and the arrow keys move between the Outline and Map tabs, then focus stays on the tabs, and Enter does not bring the outline back', async () => {
    await page.getByRole('button', { name: /^Question ask/ }).click();
    const outline = page.getByRole('tab', { name: 'Outline' });
    const map = page.getByRole('tab', { name: 'Map' });
    await outline.focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => map.getAttribute('aria-selected')).toBe('true');
    // The map is drawn, and it has had its chance to take focus.
    await page.getByRole('group', { name: 'Map of dialogs and jumps' }).getByRole('region').first().waitFor();
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    expect(await focused(map)).toBe(true);
    await page.keyboard.press('Enter');
    expect(await map.getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => outline.getAttribute('aria-selected')).toBe('true');
    expect(await focused(outline)).toBe(true);
    expect(problems).toEqual([]);
  });

  it("when the map opens, then every dialog is inside the map's pane without pressing Fit map", async () => {
    await page.getByRole('tab', { name: 'Map' }).click();
    const pane = page.getByRole('group', { name: 'Map of dialogs and jumps' });
    const dialogs = pane.getByRole('region');
    await expect.poll(() => dialogs.count()).toBe(3);
    const inside = async () => {
      const frame = (await pane.boundingBox())!;
      const boxes = await Promise.all((await dialogs.all()).map((dialog) => dialog.boundingBox()));
      return boxes.every(
        (box) =>
          box !== null &&
          box.x >= frame.x &&
          box.y >= frame.y &&
          box.x + box.width <= frame.x + frame.width &&
          box.y + box.height <= frame.y + frame.height,
      );
    };
    await expect.poll(inside).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'designer-map-opened');
    expect(problems).toEqual([]);
  });

  it('when a map too large to fit opens (the demo bot), then it starts at the top of the dialogs in view, with the start dialog whole in the pane and no empty band above', async () => {
    const demo = await designerServer('demo/bot.json');
    try {
      const { page: demoPage, problems: demoProblems } = await signedInPage(browser, demo.server, demo.owner, {
        viewport: { width: 1280, height: 800 },
      });
      await openDesigner(demoPage, demo.server);
      await demoPage.getByRole('tab', { name: 'Map' }).click();
      const pane = demoPage.getByRole('group', { name: 'Map of dialogs and jumps' });
      const start = pane.getByRole('region', { name: 'greeting', exact: true });
      await start.waitFor();
      const placed = async () => {
        const frame = (await pane.boundingBox())!;
        const box = (await start.boundingBox())!;
        const inView = (await Promise.all((await pane.getByRole('region').all()).map((each) => each.boundingBox())))
          .filter((each) => each !== null && each.x < frame.x + frame.width && each.x + each.width > frame.x)
          .map((each) => each!.y - frame.y);
        return {
          startWhole: box.y >= frame.y && box.y + box.height <= frame.y + frame.height && box.x >= frame.x,
          // The highest dialog in view sits near the pane's top edge (before, 200 px of empty map came first).
          topGap: Math.round(Math.min(...inView)),
        };
      };
      await expect.poll(placed).toMatchObject({ startWhole: true });
      const { topGap } = await placed();
      expect(topGap).toBeGreaterThanOrEqual(0);
      expect(topGap).toBeLessThanOrEqual(40);
      await screenshot(demoPage, 'designer-map-demo-opened');
      expect(demoProblems).toEqual([]);
      await demoPage.context().close();
    } finally {
      await demo.server.stop();
    }
  });

  it("when the map is opened in German, then each step's reach and drop-off figure stays whole inside its dialog's box, however long the step kind's German name", async () => {
    const german = await designerIn(browser, server, owner, { locale: 'de-DE', steps: /^Schritte von / });
    await german.page.getByRole('tab', { name: 'Karte' }).click();
    const pane = german.page.getByRole('group', { name: 'Karte der Dialoge und Sprünge' });
    const dialogs = pane.getByRole('region');
    await expect.poll(() => dialogs.count()).toBe(3);
    const figure = /^\d+ erreicht, \d+ abgebrochen$/;
    await expect.poll(() => pane.getByText(figure).count(), { timeout: 10_000 }).toBe(7);
    const past: string[] = [];
    for (const dialog of await dialogs.all()) {
      const box = (await dialog.boundingBox())!;
      for (const row of await dialog.getByRole('button').all()) {
        const shown = row.getByText(figure);
        if ((await shown.count()) === 0) continue;
        const badge = (await shown.boundingBox())!;
        if (badge.x + badge.width > box.x + box.width + 0.5) past.push((await row.textContent()) ?? '');
      }
    }
    expect(past).toEqual([]);
    await screenshot(german.page, 'designer-map-de');
    expect(await axeViolations(german.page)).toEqual([]);
    expect(german.problems).toEqual([]);
    await german.page.context().close();
  });
});
