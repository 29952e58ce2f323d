import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StudioClient } from '../server/studio-server/test/studio-client.ts';
import { launchBrowser } from './browser.ts';
import type { ServerProcess } from './server-process.ts';
import { axeViolations } from './studio-axe.ts';
import { designerServer, openDesigner, person, signedInPage } from './studio-designer-helpers.ts';

const SHOTS = process.env.STUDIO_SCREENSHOTS;

const BOT = {
  settings: { id: 'team', name: 'Team', startDialog: 'main' },
  dialogs: [
    {
      id: 'main',
      steps: [
        { id: 'hello', type: 'message', text: 'Hello!' },
        { id: 'bye', type: 'end' },
      ],
    },
    { id: 'extra', steps: [{ id: 'tip', type: 'message', text: 'A tip.' }] },
  ],
};

async function saveVersion(page: Page, message: string): Promise<void> {
  await page.getByRole('button', { name: 'Save version' }).click();
  await page.getByLabel('What changed').fill(message);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
}

async function setText(page: Page, dialog: string, step: RegExp, text: string): Promise<void> {
  await page.getByRole('button', { name: new RegExp(`^${dialog}\\b`) }).click();
  await page.getByRole('button', { name: step }).click();
  await page.getByRole('textbox', { name: 'Text', exact: true }).fill(text);
}

describe('two editors on one bot, in Chromium', () => {
  let browser: Browser;
  let server: ServerProcess;
  let owner: StudioClient;
  let editor: StudioClient;
  let ownerPage: Page;
  let editorPage: Page;

  beforeAll(async () => {
    ({ server, owner } = await designerServer(BOT));
    editor = await person(owner, 'editor', 'erin@example.com');
    browser = await launchBrowser();
    ({ page: ownerPage } = await signedInPage(browser, server, owner));
    ({ page: editorPage } = await signedInPage(browser, server, editor));
    await openDesigner(ownerPage, server);
    await openDesigner(editorPage, server);
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('when both have the bot open, then each sees the other and the dialog they are on', async () => {
    await expect
      .poll(() => editorPage.getByText('Also editing: Olive Owner (in main)').count(), { timeout: 10_000 })
      .toBe(1);
    await ownerPage.getByRole('button', { name: /^extra\b/ }).click();
    await expect
      .poll(() => ownerPage.getByText('Also editing: editor person (in main)').count(), { timeout: 10_000 })
      .toBe(1);
    await editorPage.getByRole('button', { name: /^main\b/ }).focus();
    await editorPage.getByRole('button', { name: /^extra\b/ }).click();
    await editorPage.getByRole('button', { name: /^main\b/ }).click();
    await expect
      .poll(() => editorPage.getByText('Also editing: Olive Owner (in extra)').count(), { timeout: 10_000 })
      .toBe(1);
  });

  it('when one saves a version and the other then saves on the old base, then both changes are shown side by side, the other part merges, and the chosen side is saved', async () => {
    // The owner changes the greeting and saves first.
    await setText(ownerPage, 'main', /^Message hello/, 'Hello from the owner!');
    await saveVersion(ownerPage, 'Owner greeting');
    await expect
      .poll(() => ownerPage.getByRole('log', { name: 'Changes' }).textContent())
      .toContain('Saved as a new version.');

    // The editor, still on the first version, changes the same greeting and the tip.
    await setText(editorPage, 'extra', /^Message tip/, 'A better tip.');
    await setText(editorPage, 'main', /^Message hello/, 'Hello from the editor!');
    await saveVersion(editorPage, 'Editor greeting and tip');
    const conflict = editorPage.getByRole('dialog', { name: 'Someone saved a version since you started' });
    await expect.poll(() => conflict.isVisible(), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => conflict.textContent()).toContain('Olive Owner saved a version');
    expect(await conflict.textContent()).toContain('Merged without a question: extra.');
    const choice = conflict.getByRole('group', { name: 'For main' });
    expect(await choice.getByRole('region', { name: 'Their version: main' }).textContent()).toContain(
      'Hello from the owner!',
    );
    expect(await choice.getByRole('region', { name: 'Your version: main' }).textContent()).toContain(
      'Hello from the editor!',
    );
    expect(await axeViolations(editorPage)).toEqual([]);
    if (SHOTS) await editorPage.screenshot({ path: `${SHOTS}/designer-conflict.png`, fullPage: true });
    await choice.getByRole('radio', { name: 'Keep theirs' }).check();
    await conflict.getByRole('button', { name: 'Save merged version' }).click();
    await expect
      .poll(() => editorPage.getByRole('log', { name: 'Changes' }).textContent())
      .toContain('Saved as a new version.');

    const list = (await owner.get('/studio/api/versions')).body as { headId: string; versions: unknown[] };
    expect(list.versions).toHaveLength(3);
    const merged = (await owner.get(`/studio/api/versions/${list.headId}`)).body.definition;
    expect(merged.dialogs[0].steps[0].text).toBe('Hello from the owner!');
    expect(merged.dialogs[1].steps[0].text).toBe('A better tip.');
    // The editor's page shows what was saved.
    await expect
      .poll(() => editorPage.getByRole('textbox', { name: 'Text', exact: true }).inputValue())
      .toBe('Hello from the owner!');
  });
});
