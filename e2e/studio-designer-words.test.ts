import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeViolations } from './studio-axe.ts';
import { designerSuite, openDesigner, signedInPage } from './studio-designer-helpers.ts';

const BOT = {
  settings: { id: 'words', name: 'Words', startDialog: 'main' },
  dialogs: [{ id: 'main', steps: [{ id: 'hello', type: 'message', text: 'Hello!' }] }],
};

/** The problems `check` finds, as a person who does not program reads them: in the form's words, in English and German. */
describe("problems in the form's words, in Chromium", () => {
  const suite = designerSuite(BOT);

  const problemsPanel = (page: Page, name: RegExp) => page.getByRole('tabpanel', { name });

  it('when a question has no text, then the problem names the field by its label ("Question") under the field and in the problems list, never the JSON key', async () => {
    const { page, problems } = await signedInPage(suite.browser, suite.server, suite.owner);
    await openDesigner(page, suite.server);
    await page.getByRole('button', { name: 'Add step', exact: true }).click();
    await page.getByLabel('Search step kinds').fill('question');
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'Draft saved' }).count(), { timeout: 10_000 })
      .toBe(1);
    const list = problemsPanel(page, /^Problems/);
    await expect
      .poll(() => list.getByText('Question is required.', { exact: true }).count(), { timeout: 10_000 })
      .toBe(1);
    expect(await list.getByText(/\bprompt\b/).count()).toBe(0);
    await list.getByRole('button', { name: /^Show/ }).first().click();
    await expect.poll(() => page.getByText('Question is required.').count()).toBe(2);
    expect(await axeViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('when the studio is in German, then the same problem reads in German with the German label', async () => {
    const { page, problems } = await signedInPage(suite.browser, suite.server, suite.owner, { locale: 'de-DE' });
    await page.goto(`${suite.server.url}/studio/designer`);
    await page.getByRole('heading', { name: 'Designer', level: 1 }).waitFor({ timeout: 20_000 });
    const list = problemsPanel(page, /^Probleme/);
    await expect
      .poll(() => list.getByText('Frage muss ausgefüllt sein.', { exact: true }).count(), { timeout: 10_000 })
      .toBe(1);
    expect(await list.getByText(/\bprompt\b|is required/).count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
  });
});
