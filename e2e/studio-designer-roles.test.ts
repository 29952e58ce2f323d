import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StudioClient } from '../server/studio-server/test/studio-client.ts';
import { launchBrowser } from './browser.ts';
import type { ServerProcess } from './server-process.ts';
import { axeViolations } from './studio-axe.ts';
import { designerServer, openDesigner, person, signedInPage } from './studio-designer-helpers.ts';

const BOT = {
  settings: { id: 'roles', name: 'Roles', startDialog: 'main' },
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

describe('what each role may do in the designer, in Chromium and on the server', () => {
  let browser: Browser;
  let server: ServerProcess;
  let owner: StudioClient;
  let viewer: StudioClient;
  let analyst: StudioClient;

  beforeAll(async () => {
    ({ server, owner } = await designerServer(BOT));
    viewer = await person(owner, 'viewer');
    analyst = await person(owner, 'analyst');
    browser = await launchBrowser();
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('when a viewer opens the designer, then the bot reads but cannot be changed or saved, and the server refuses a save', async () => {
    const { page, problems } = await signedInPage(browser, server, viewer);
    await openDesigner(page, server);
    await expect
      .poll(() => page.getByRole('note').textContent())
      .toContain('Read only: your role (viewer) may look at the bot but not change it.');
    expect(await page.getByRole('button', { name: 'Save version' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Add step', exact: true }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Undo' }).count()).toBe(0);
    await page.getByRole('button', { name: /^Message hello/ }).click();
    const text = page.getByRole('textbox', { name: 'Text', exact: true });
    await expect.poll(() => text.inputValue()).toBe('Hello!');
    expect(await text.isEditable()).toBe(false);
    expect(await page.getByRole('button', { name: 'Delete hello' }).count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    expect(problems).toEqual([]);

    // The server is the guard, whatever a page offers.
    const head = (await viewer.get('/studio/api/versions')).body.headId as string;
    const definition = (await viewer.get(`/studio/api/versions/${head}`)).body.definition;
    const save = await viewer.post('/studio/api/versions', { baseVersionId: head, definition, message: 'sneaky' });
    expect(save.status).toBe(403);
    expect(save.body.error.code).toBe('forbidden');
    expect((await viewer.put('/studio/api/draft', { baseVersionId: head, revision: null, definition })).status).toBe(
      403,
    );
    expect((await viewer.get('/studio/api/draft')).status).toBe(403);
    expect((await owner.get('/studio/api/versions')).body.versions).toHaveLength(1);
  });

  it('when an analyst opens the designer, then there is no publishing and no saving, and the server refuses a publish', async () => {
    const { page, problems } = await signedInPage(browser, server, analyst);
    await openDesigner(page, server);
    await expect.poll(() => page.getByRole('note').textContent()).toContain('your role (analyst)');
    expect(await page.getByRole('button', { name: /^Publish/ }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Save version' }).count()).toBe(0);
    expect(problems).toEqual([]);

    const head = (await analyst.get('/studio/api/versions')).body.headId as string;
    const publish = await analyst.post('/studio/api/publish', { versionId: head, moves: [] });
    expect(publish.status).toBe(403);
    expect(publish.body.error).toMatchObject({ code: 'forbidden' });
    expect(publish.body.error.message).toContain('analyst');
  });

  it('when an owner opens the designer, then saving and publishing are offered', async () => {
    const { page } = await signedInPage(browser, server, owner);
    await openDesigner(page, server);
    expect(await page.getByRole('button', { name: 'Save version' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: /^Publish/ }).count()).toBe(1);
    expect(await page.getByRole('note').count()).toBe(0);
  });
});
