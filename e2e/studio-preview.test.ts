import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startUpstream, type Upstream } from '../server/integrations/test/upstream.ts';
import type { StudioClient } from '../server/studio/test/studio-client.ts';
import { launchBrowser } from './browser.ts';
import { screenshot } from './screenshots.ts';
import type { ServerProcess } from './server-process.ts';
import { axeViolations } from './studio-axe.ts';
import { designerServer, openDesigner, person, signedInPage } from './studio-designer-helpers.ts';

const TOKEN = 'sk_live_e2e_preview_5b8d2f';

function bot(api: string) {
  return {
    settings: { id: 'preview-e2e', name: 'Preview bot', startDialog: 'main' },
    userDataFields: ['email'],
    integrations: { services: { crm: { baseUrl: api, auth: { type: 'bearer', tokenEnv: 'E2E_CRM_TOKEN' } } } },
    dialogs: [
      {
        id: 'main',
        steps: [
          { id: 'hello', type: 'message', text: 'Hello from the draft.' },
          { id: 'ask', type: 'input', prompt: 'Your email?', saveTo: { userData: 'email' } },
          { id: 'lookup', type: 'integration', integration: 'http', service: 'crm', params: { endpoint: '/contacts' }, output: 'contact' },
          { id: 'found', type: 'message', text: 'Found {{contact.body.name}}.' },
          { id: 'bye', type: 'end' },
        ],
      },
    ],
  };
}

describe('the designer\'s preview panel in Chromium', () => {
  let browser: Browser;
  let server: ServerProcess;
  let upstream: Upstream;
  let editor: StudioClient;
  let viewer: StudioClient;

  beforeAll(async () => {
    upstream = await startUpstream((req, res) => json(res, 200, { name: 'Real Ada', bearer: req.headers.authorization === `Bearer ${TOKEN}` }));
    let owner: StudioClient;
    ({ server, owner } = await designerServer(bot(`${upstream.url}/api`), { E2E_CRM_TOKEN: TOKEN, INTEGRATION_ALLOWED_HOSTS: '127.0.0.1' }));
    editor = await person(owner, 'editor');
    viewer = await person(owner, 'viewer');
    browser = await launchBrowser();
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await upstream?.close();
  });

  it('when an editor previews the draft, then the widget chats, the held call shows masked, a stub answers it, the step is highlighted, values update live, and the chat saves as a test', async () => {
    const { page, problems } = await signedInPage(browser, server, editor);
    await openDesigner(page, server);
    await page.getByRole('tab', { name: 'Preview' }).click();
    await page.getByRole('button', { name: 'Start preview' }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Preview runs' }).textContent(), { timeout: 15_000 }).toContain('main.ask');

    // The real widget, talking to the preview user.
    const chat = page.getByRole('log', { name: 'Conversation' });
    await expect.poll(() => chat.textContent(), { timeout: 15_000 }).toContain('Your email?');
    await page.getByRole('textbox', { name: /message/i }).fill('ada@example.com');
    await page.keyboard.press('Enter');

    const call = page.getByRole('region', { name: 'HTTP call from main.lookup' });
    await call.waitFor({ timeout: 15_000 });
    const shown = await call.locator('pre').textContent();
    expect(shown).toContain(`GET ${upstream.url}/api/contacts`);
    expect(shown).toContain('authorization: Bearer ‹E2E_CRM_TOKEN›');
    expect(await page.content()).not.toContain(TOKEN);
    // The values inspector shows what the input saved, live.
    await expect.poll(() => page.getByRole('definition').allTextContents()).toContain('"ada@example.com"');
    // The step waiting is highlighted in the outline.
    await screenshot(page, 'studio-preview-held');
    await expect.poll(() => page.getByRole('button', { name: /lookup.*Preview/ }).count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);

    await call.getByRole('textbox', { name: 'Stub body (JSON)' }).fill('{"name":"Stub Ada"}');
    await call.getByRole('button', { name: 'Answer with stub' }).click();
    await expect.poll(() => chat.textContent(), { timeout: 15_000 }).toContain('Found Stub Ada.');
    expect(upstream.seen).toHaveLength(0);

    await page.getByRole('textbox', { name: 'Test name' }).fill('finds Ada');
    await page.getByRole('button', { name: 'Save as test' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('Saved as test "finds Ada"');
    await screenshot(page, 'studio-preview-done');
    expect(await axeViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('when the editor starts from a chosen step and sends the call for real, then the API is called once', async () => {
    const { page, problems } = await signedInPage(browser, server, editor);
    await openDesigner(page, server);
    await page.getByRole('button', { name: /^Question ask/ }).click();
    await page.getByRole('tab', { name: 'Preview' }).click();
    await page.getByRole('button', { name: 'Start from this step' }).click();
    const chat = page.getByRole('log', { name: 'Conversation' });
    await expect.poll(() => chat.textContent(), { timeout: 15_000 }).toContain('Your email?');
    expect(await chat.textContent()).not.toContain('Hello from the draft.');
    await page.getByRole('textbox', { name: /message/i }).fill('grace@example.com');
    await page.keyboard.press('Enter');
    const call = page.getByRole('region', { name: 'HTTP call from main.lookup' });
    await call.getByRole('button', { name: 'Send for real' }).click();
    await expect.poll(() => chat.textContent(), { timeout: 15_000 }).toContain('Found Real Ada.');
    expect(upstream.seen).toHaveLength(1);
    expect(upstream.seen[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(problems).toEqual([]);
  });

  it('when a viewer opens the preview tab, then there is no preview to start', async () => {
    const { page } = await signedInPage(browser, server, viewer);
    await openDesigner(page, server);
    await page.getByRole('tab', { name: 'Preview' }).click();
    await expect.poll(() => page.getByRole('tabpanel', { name: 'Preview' }).textContent()).toContain('Previewing needs the owner or editor role.');
    expect(await page.getByRole('button', { name: 'Start preview' }).count()).toBe(0);
  });
});
