import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StudioClient } from '../server/studio-server/test/studio-client.ts';
import type { ServerProcess } from './server-process.ts';
import { axeViolations } from './studio-axe.ts';
import { closeDesigner, openDesigner, openedDesigner, signedInPage } from './studio-designer-helpers.ts';

const BOT = {
  settings: { id: 'undo', name: 'Undo', startDialog: 'main' },
  dialogs: [
    {
      id: 'main',
      steps: [
        { id: 'hello', type: 'message', text: 'Hello!' },
        { id: 'bye', type: 'end' },
      ],
    },
  ],
};

/** Undo, redo and the draft as people meet them: shortcuts from anywhere in the designer, typing as one step, preview right after. */
describe('undo and redo in the designer, in Chromium', () => {
  let browser: Browser;
  let server: ServerProcess;
  let owner: StudioClient;
  let page: Page;
  let problems: string[];

  const steps = () =>
    page
      .getByRole('list', { name: 'Steps of main' })
      .getByRole('button', { name: /, step \d+ of \d+/ })
      .count();
  const hello = () => page.getByRole('button', { name: /^Message hello/ }).textContent();
  const status = () =>
    page
      .getByRole('status')
      .filter({ hasText: /Draft saved|Unsaved changes|Saving/ })
      .textContent();
  const heading = () => page.getByRole('heading', { name: 'Steps of main' });
  const addQuestion = async () => {
    await page.getByRole('button', { name: 'Add step', exact: true }).click();
    await page.getByLabel('Search step kinds').fill('question');
    await page.keyboard.press('Enter');
  };

  beforeAll(async () => {
    ({ server, owner, browser, page, problems } = await openedDesigner(BOT));
  }, 60_000);
  afterAll(() => closeDesigner(browser, server));

  it("when a step's text is typed in two bursts and the dialog's heading is clicked, then Ctrl+Z takes the typing back as one step, and Ctrl+Shift+Z and Ctrl+Y redo it", async () => {
    await page.getByRole('button', { name: /^Message hello/ }).click();
    const text = page.getByLabel('Text', { exact: true });
    await text.click();
    await page.keyboard.press('End');
    await page.keyboard.type(' Nice');
    // A pause longer than a typing burst: still the same field, still one undo step.
    await page.waitForTimeout(2000);
    await page.keyboard.type(' to see you.');
    await expect.poll(hello).toContain('Hello! Nice to see you.');
    await heading().click();

    await page.keyboard.press('Control+z');
    await expect.poll(hello).not.toContain('Nice');
    expect(await hello()).toContain('Hello!');
    // Redo names what it brings back.
    expect(await page.getByRole('button', { name: 'Redo: Change Text of hello', exact: true }).isEnabled()).toBe(true);
    await page.keyboard.press('Control+Shift+z');
    await expect.poll(hello).toContain('Hello! Nice to see you.');
    await page.keyboard.press('Control+z');
    await expect.poll(hello).not.toContain('Nice');
    await page.keyboard.press('Control+y');
    await expect.poll(hello).toContain('Hello! Nice to see you.');
    expect(problems).toEqual([]);
  });

  it("when a step is added and the dialog's heading is clicked, then the Undo button names the addition, and Ctrl+Z takes the step away", async () => {
    const before = await steps();
    await addQuestion();
    await expect.poll(steps).toBe(before + 1);
    await expect.poll(() => page.getByRole('button', { name: /^Undo: Added Question / }).count()).toBe(1);
    await heading().click();
    await page.keyboard.press('Control+z');
    await expect.poll(steps).toBe(before);
    expect(problems).toEqual([]);
  });

  it('when a step is added, undone, redone and undone again, then the status settles on "Draft saved" and the draft is what the screen shows', async () => {
    const before = await steps();
    await expect.poll(status, { timeout: 10_000 }).toBe('Draft saved');
    await addQuestion();
    await expect.poll(steps).toBe(before + 1);
    await heading().click();
    for (const key of ['Control+z', 'Control+Shift+z', 'Control+z']) await page.keyboard.press(key);
    await expect.poll(steps).toBe(before);
    await expect.poll(status, { timeout: 10_000 }).toBe('Draft saved');
    expect(((await owner.get('/studio/api/draft')).body.definition.dialogs[0].steps as unknown[]).length).toBe(before);
    expect(problems).toEqual([]);
  });

  it('when a step with a problem was saved to the draft and Start preview comes right after undoing it, then the preview starts on what the screen shows', async () => {
    const before = await steps();
    await addQuestion();
    await expect.poll(steps).toBe(before + 1);
    // The draft with the empty question is saved: the server holds a draft with a problem.
    await expect.poll(status, { timeout: 10_000 }).toBe('Draft saved');
    await heading().click();
    await page.keyboard.press('Control+z');
    await expect.poll(steps).toBe(before);
    await page.getByRole('tab', { name: 'Preview' }).click();
    await page.getByRole('button', { name: 'Start preview' }).click();
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'Preview runs' }).count(), { timeout: 15_000 })
      .toBe(1);
    expect(await page.getByText('The draft has errors to fix before it can run.').count()).toBe(0);
    await expect
      .poll(() => page.getByRole('log', { name: 'Conversation' }).textContent(), { timeout: 15_000 })
      .toContain('Hello!');
    expect(await axeViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('when a step is added, saved and the page is reloaded, then the Undo button still names the addition and Ctrl+Z takes it away; once another tab changed the draft, a reload starts a new history', async () => {
    await page.getByRole('tab', { name: 'Outline' }).click();
    const before = await steps();
    await addQuestion();
    await expect.poll(steps).toBe(before + 1);
    await expect.poll(status, { timeout: 10_000 }).toBe('Draft saved');

    await page.reload();
    await openDesigner(page, server);
    await expect.poll(steps).toBe(before + 1);
    await expect.poll(() => page.getByRole('button', { name: /^Undo: Added Question / }).count()).toBe(1);
    await heading().click();
    await page.keyboard.press('Control+z');
    await expect.poll(steps).toBe(before);
    await expect.poll(() => page.getByRole('button', { name: /^Redo: Added Question / }).count()).toBe(1);
    await expect.poll(status, { timeout: 10_000 }).toBe('Draft saved');

    // Another tab of the same person saves the draft: undoing here after a reload would take back its work.
    const draft = (await owner.get('/studio/api/draft')).body;
    const renamed = { ...draft.definition, settings: { ...draft.definition.settings, name: 'Renamed elsewhere' } };
    const saved = await owner.put('/studio/api/draft', {
      baseVersionId: draft.baseVersionId,
      revision: draft.revision,
      definition: renamed,
    });
    expect(saved.status).toBe(200);
    await page.reload();
    await openDesigner(page, server);
    expect(await page.getByRole('button', { name: 'Undo', exact: true }).isDisabled()).toBe(true);
    expect(problems).toEqual([]);
  });

  it('when the page is reloaded right after a save, before it was ever idle, then the Undo button still names the addition', async () => {
    // A page that is never idle (a busy machine, a background tab): the history is written when the page goes.
    const { context, page: busy } = await signedInPage(browser, server, owner);
    try {
      await busy.addInitScript('window.requestIdleCallback = () => 0;');
      await openDesigner(busy, server);
      await busy.getByRole('button', { name: 'Add step', exact: true }).click();
      await busy.getByLabel('Search step kinds').fill('question');
      await busy.keyboard.press('Enter');
      await busy.getByRole('status').filter({ hasText: 'Draft saved' }).waitFor({ timeout: 10_000 });

      await busy.reload();
      await openDesigner(busy, server);
      await expect.poll(() => busy.getByRole('button', { name: /^Undo: Added Question / }).count()).toBe(1);
    } finally {
      await context.close();
    }
  });
});
