import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StudioClient } from '../server/studio-server/test/studio-client.ts';
import { launchBrowser } from './browser.ts';
import { screenshot } from './screenshots.ts';
import type { ServerProcess } from './server-process.ts';
import { axeViolations } from './studio-axe.ts';
import { designerServer, openDesigner, person, signedInPage } from './studio-designer-helpers.ts';

/** A one-pixel PNG. */
const PIXEL_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

const bot = {
  settings: { id: 'carousel-e2e', name: 'Carousel bot', startDialog: 'main' },
  dialogs: [
    {
      id: 'main',
      steps: [
        {
          id: 'concerts',
          type: 'message',
          cards: [1, 2, 3].map((n) => ({
            title: `Concert ${n}`,
            subtitle: `Friday at ${n} pm`,
            // Messenger fetches a card's image itself, so only an absolute https address goes in its card set.
            imageUrl: `https://shop.example/concert-${n}.png`,
            imageAlt: `The band of concert ${n}`,
            buttons: [{ kind: 'postback', label: 'Book', payload: `concert-${n}` }],
          })),
        },
        { id: 'bye', type: 'end' },
      ],
    },
  ],
};

describe("the preview's channel view of a carousel in Chromium", () => {
  let browser: Browser;
  let server: ServerProcess;
  let editor: StudioClient;

  beforeAll(async () => {
    let owner: StudioClient;
    ({ server, owner } = await designerServer(bot));
    editor = await person(owner, 'editor');
    browser = await launchBrowser();
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('when the bot shows three cards, then the Messenger tab shows them side by side in one message, each with its title, subtitle, image and button, without axe violations', async () => {
    const { page, problems } = await signedInPage(browser, server, editor);
    // The shop's pictures, served as the shop's CDN would (the preview's web chat shows them).
    await page.route('https://shop.example/**', (route) =>
      route.fulfill({ contentType: 'image/png', body: Buffer.from(PIXEL_PNG, 'base64') }),
    );
    await openDesigner(page, server);
    await page.getByRole('tab', { name: 'Preview' }).click();
    const view = page.getByRole('region', { name: 'The last message on other channels' });
    await page.getByRole('button', { name: 'Start preview' }).click();
    const messenger = view.getByRole('tab', { name: 'Messenger' });
    await messenger.waitFor({ timeout: 15_000 });
    await messenger.click();
    const panel = view.getByRole('tabpanel');
    await expect.poll(() => panel.textContent()).toContain('It goes in Messenger’s own form.');
    const message = panel.getByRole('group', { name: 'Message 1 of 1' });
    const cards = message.getByRole('list', { name: '3 cards side by side' });
    const card = (n: number) => cards.getByRole('listitem', { name: `Card ${n} of 3`, exact: true });
    await card(3).waitFor({ timeout: 15_000 });
    for (const n of [1, 2, 3]) {
      const text = await card(n).textContent();
      expect(text).toContain(`Concert ${n}`);
      expect(text).toContain(`Friday at ${n} pm`);
      expect(text).toContain(`Image: The band of concert ${n}`);
    }
    // Titles are unique across the message: the user answers "Book (2)" by name too.
    expect(await card(2).getByRole('list', { name: 'Buttons' }).textContent()).toContain('Book (2)');
    await screenshot(page, 'studio-preview-channels-messenger-carousel');

    // Telegram has no card set: a message a card.
    await view.getByRole('tab', { name: 'Telegram' }).click();
    await expect.poll(() => panel.getByRole('group', { name: /^Message \d of 3$/ }).count()).toBe(3);
    expect(await axeViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
  });
});
