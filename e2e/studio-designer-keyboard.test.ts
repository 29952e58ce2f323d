import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StudioClient } from '../server/studio-server/test/studio-client.ts';
import type { ServerProcess } from './server-process.ts';
import { axeViolations } from './studio-axe.ts';
import { closeDesigner, openedDesigner, tabTo } from './studio-designer-helpers.ts';

const BOT = {
  settings: { id: 'keys', name: 'Keys', startDialog: 'main' },
  dialogs: [
    {
      id: 'main',
      steps: [
        { id: 'hello', type: 'message', text: 'Hello!' },
        { id: 'ask', type: 'input', prompt: 'Your name?' },
        { id: 'bye', type: 'end' },
      ],
    },
  ],
};

/** The step headers of the open dialog, in order, by their accessible names. */
async function stepOrder(page: Page): Promise<string[]> {
  const names = await page
    .getByRole('list', { name: 'Steps of main' })
    .getByRole('button', { name: /, step \d+ of \d+/ })
    .evaluateAll((buttons) => buttons.map((b) => b.querySelector('.id')?.textContent ?? ''));
  return names;
}

describe('the designer with the keyboard alone, in Chromium', () => {
  let browser: Browser;
  let server: ServerProcess;
  let owner: StudioClient;
  let page: Page;
  let problems: string[];

  beforeAll(async () => {
    ({ server, owner, browser, page, problems } = await openedDesigner(BOT));
  }, 60_000);
  afterAll(() => closeDesigner(browser, server));

  it('when a step is added, moved and deleted with keys only, then each change is announced, and undo brings every state back in turn', async () => {
    const said = () => page.getByRole('log', { name: 'Changes' }).textContent();
    // Tab from the top of the page to "Add step", as a keyboard user does.
    await page.locator('body').focus();
    await tabTo(page, page.getByRole('button', { name: 'Add step', exact: true }));
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('dialog', { name: 'Add a step' }).isVisible()).toBe(true);
    await expect
      .poll(() =>
        page
          .getByLabel('Search step kinds')
          .evaluate((input) => (input.getRootNode() as ShadowRoot).activeElement === input),
      )
      .toBe(true);
    await page.keyboard.type('message');
    await page.keyboard.press('Enter');
    await expect.poll(() => stepOrder(page)).toEqual(['hello', 'ask', 'bye', 'message']);
    await expect.poll(said).toContain('Added Message message.');

    // Focus is in the new step's form: its id, then its text.
    await page.keyboard.press('Tab');
    await tabTo(page, page.getByLabel('Text', { exact: true }));
    await page.keyboard.type('See you soon');
    await expect
      .poll(() => page.getByRole('button', { name: /^Message message/ }).textContent())
      .toContain('See you soon');

    // Back to the card's header; Alt+Up moves the step above "bye".
    await tabTo(page, page.getByRole('button', { name: /^Message message/ }), { back: true });
    await page.keyboard.press('Alt+ArrowUp');
    await expect.poll(() => stepOrder(page)).toEqual(['hello', 'ask', 'message', 'bye']);
    await expect.poll(said).toContain('Moved message to position 3.');
    // Focus stayed on the moved step, so Delete removes that one.
    await page.keyboard.press('Delete');
    await expect.poll(() => stepOrder(page)).toEqual(['hello', 'ask', 'bye']);
    await expect.poll(said).toContain('Deleted message. Undo with Ctrl+Z.');
    expect(await axeViolations(page)).toEqual([]);

    // Undo: the delete, the move, the typing, the insert; redo the insert.
    await page.keyboard.press('Control+z');
    await expect.poll(() => stepOrder(page)).toEqual(['hello', 'ask', 'message', 'bye']);
    await expect.poll(said).toContain('Undone: Deleted message');
    await page.keyboard.press('Control+z');
    await expect.poll(() => stepOrder(page)).toEqual(['hello', 'ask', 'bye', 'message']);
    await page.keyboard.press('Control+z');
    await expect
      .poll(() => page.getByRole('button', { name: /^Message message/ }).textContent())
      .not.toContain('See you soon');
    await page.keyboard.press('Control+z');
    await expect.poll(() => stepOrder(page)).toEqual(['hello', 'ask', 'bye']);
    await page.keyboard.press('Control+Shift+z');
    await expect.poll(() => stepOrder(page)).toEqual(['hello', 'ask', 'bye', 'message']);

    // The draft on the server follows (autosave): what the page shows is what is kept.
    await expect
      .poll(
        async () =>
          ((await owner.get('/studio/api/draft')).body.definition.dialogs[0].steps as { id: string }[]).map(
            (s) => s.id,
          ),
        { timeout: 10_000 },
      )
      .toEqual(['hello', 'ask', 'bye', 'message']);
    expect(problems).toEqual([]);
  });
});
