import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StudioClient } from '../server/studio-server/test/studio-client.ts';
import { launchBrowser } from './browser.ts';
import { screenshot } from './screenshots.ts';
import type { ServerProcess } from './server-process.ts';
import { axeViolations } from './studio-axe.ts';
import { designerServer, openDesigner, person, signedInPage } from './studio-designer-helpers.ts';

const bot = {
  settings: { id: 'channels-e2e', name: 'Channels bot', startDialog: 'main' },
  dialogs: [
    {
      id: 'main',
      steps: [
        {
          id: 'pick',
          type: 'input',
          prompt: 'Which delivery suits you?',
          inputType: 'choice',
          choices: [
            { label: 'Standard delivery in three to five days', value: 'standard' },
            { label: 'Express delivery tomorrow morning', value: 'express' },
            { label: 'Pick up at the shop', value: 'pickup' },
            { label: 'Pick up at a parcel locker', value: 'locker' },
          ],
          saveTo: { variable: 'delivery' },
        },
        { id: 'bye', type: 'end' },
      ],
    },
  ],
};

describe("the preview's channel view in Chromium", () => {
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

  it('when the bot asks with four long choices, then the channel view shows it as a WhatsApp list, SMS numbered lines and a Telegram reply keyboard, by keyboard, without axe violations', async () => {
    const { page, problems } = await signedInPage(browser, server, editor);
    await openDesigner(page, server);
    await page.getByRole('tab', { name: 'Preview' }).click();
    const view = page.getByRole('region', { name: 'The last message on other channels' });
    await expect.poll(() => view.textContent()).toContain('Once the bot says something');
    await page.getByRole('button', { name: 'Start preview' }).click();

    const whatsApp = view.getByRole('tab', { name: 'WhatsApp' });
    await whatsApp.waitFor({ timeout: 15_000 });
    expect(await whatsApp.getAttribute('aria-selected')).toBe('true');
    const panel = view.getByRole('tabpanel');
    const list = panel.getByRole('list', { name: 'A list, opened by “Choose”' });
    // WhatsApp's list rows hold 24 characters: the long titles are cut, with an ellipsis.
    await expect.poll(() => list.getByRole('listitem').allTextContents()).toHaveLength(4);
    for (const row of await list.getByRole('listitem').allTextContents())
      expect(row.trim().length).toBeLessThanOrEqual(24);
    expect(await panel.textContent()).toContain('simpler one');

    // The tabs follow the ARIA pattern: arrows move between channels.
    await whatsApp.focus();
    await page.keyboard.press('ArrowRight');
    const sms = view.getByRole('tab', { name: 'SMS (Twilio)' });
    await expect.poll(() => sms.getAttribute('aria-selected')).toBe('true');
    await expect.poll(() => panel.textContent()).toContain('1. Standard delivery in three to five days');
    await expect.poll(() => panel.textContent()).toContain('4. Pick up at a parcel locker');
    await screenshot(page, 'studio-preview-channels-sms');

    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowLeft');
    const telegram = view.getByRole('tab', { name: 'Telegram' });
    await expect.poll(() => telegram.getAttribute('aria-selected')).toBe('true');
    await expect
      .poll(() => panel.getByRole('list', { name: 'Quick replies' }).getByRole('listitem').allTextContents())
      .toEqual([
        'Standard delivery in three to five days',
        'Express delivery tomorrow morning',
        'Pick up at the shop',
        'Pick up at a parcel locker',
      ]);
    await screenshot(page, 'studio-preview-channels-telegram');
    expect(await axeViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('when the studio is in German, then the channel view speaks German', async () => {
    const { page, problems } = await signedInPage(browser, server, editor, { locale: 'de-DE' });
    await page.goto(`${server.url}/studio/designer`);
    await page.getByRole('tab', { name: 'Vorschau' }).click({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Vorschau starten' }).click();
    const view = page.getByRole('region', { name: 'Die letzte Nachricht auf anderen Kanälen' });
    await view.getByRole('tablist', { name: 'Kanäle' }).waitFor({ timeout: 15_000 });
    await expect.poll(() => view.getByRole('tabpanel').textContent()).toContain('einfacher gesendet');
    await view.scrollIntoViewIfNeeded();
    await screenshot(page, 'studio-preview-channels-de');
    expect(problems).toEqual([]);
  });
});
