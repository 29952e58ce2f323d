import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startUpstream, type Upstream } from '../server/integrations/test/upstream.ts';
import type { StudioClient } from '../server/studio-server/test/studio-client.ts';
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
          {
            id: 'lookup',
            type: 'integration',
            integration: 'http',
            service: 'crm',
            params: { endpoint: '/contacts' },
            output: 'contact',
          },
          { id: 'found', type: 'message', text: 'Found {{contact.body.name}}.' },
          { id: 'bye', type: 'end' },
        ],
      },
      {
        id: 'reminder',
        steps: [
          {
            id: 'track',
            type: 'integration',
            integration: 'http',
            service: 'crm',
            timing: 'async',
            params: { endpoint: '/events' },
          },
          { id: 'pause', type: 'wait', duration: '1d', then: 'after' },
          { id: 'after', type: 'message', text: 'A day later.' },
          { id: 'done', type: 'end' },
        ],
      },
    ],
  };
}

/** The preview's chat (the real widget) once it asks for the email, answered with `email`. */
async function answerEmail(page: Page, email: string): Promise<Locator> {
  const chat = page.getByRole('log', { name: 'Conversation' });
  await expect.poll(() => chat.textContent(), { timeout: 15_000 }).toContain('Your email?');
  await page.getByRole('textbox', { name: /message/i }).fill(email);
  await page.keyboard.press('Enter');
  return chat;
}

describe("the designer's preview panel in Chromium", () => {
  let browser: Browser;
  let server: ServerProcess;
  let upstream: Upstream;
  let editor: StudioClient;
  let viewer: StudioClient;

  beforeAll(async () => {
    upstream = await startUpstream((req, res) =>
      json(res, 200, { name: 'Real Ada', bearer: req.headers.authorization === `Bearer ${TOKEN}` }),
    );
    let owner: StudioClient;
    ({ server, owner } = await designerServer(bot(`${upstream.url}/api`), {
      E2E_CRM_TOKEN: TOKEN,
      INTEGRATION_ALLOWED_HOSTS: '127.0.0.1',
    }));
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
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'Preview runs' }).textContent(), { timeout: 15_000 })
      .toContain('main.ask');

    // The real widget, talking to the preview user.
    const chat = await answerEmail(page, 'ada@example.com');

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

    await call.getByRole('textbox', { name: 'Test answer: content' }).fill('{"name":"Stub Ada"}');
    await call.getByRole('button', { name: 'Reply with the test answer' }).click();
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

  it('when an editor whose studio speaks German previews, then the held call is answered with a test answer the panel names in German, without JSON or stub', async () => {
    const { page, problems } = await signedInPage(browser, server, editor, { locale: 'de-DE' });
    await page.goto(`${server.url}/studio/designer`);
    await page.getByRole('heading', { name: 'Schritte von main' }).waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: /^Frage ask/ }).click();
    await page.getByRole('tab', { name: 'Vorschau' }).click();
    await page.getByRole('button', { name: 'Ab diesem Schritt starten' }).click();
    // The chat is the widget as visitors see it: in the bot's language (English here), not the studio's.
    const chat = await answerEmail(page, 'ada@example.com');

    const call = page.getByRole('region', { name: 'HTTP-Aufruf aus main.lookup' });
    await call.waitFor({ timeout: 15_000 });
    expect(
      await call.getByRole('spinbutton', { name: 'Testantwort: Status (200 heißt, es hat geklappt)' }).inputValue(),
    ).toBe('200');
    const panel = page.getByRole('tabpanel', { name: 'Vorschau' });
    expect(await panel.getByRole('heading', { name: 'Vorschau: Ihr Entwurf, wie der Bot ihn ausführt' }).count()).toBe(
      1,
    );
    // The panel's own words: the request shown as it goes out is the only raw text.
    const words = (await panel.locator('label, button, h3, h4').allTextContents()).join('\n');
    expect(words).not.toMatch(/\bJSON\b|Attrappe|\bstub\b/i);
    await screenshot(page, 'studio-preview-held-de');
    expect(await axeViolations(page)).toEqual([]);

    await call.getByRole('textbox', { name: 'Testantwort: Inhalt' }).fill('{"name":"Test Ada"}');
    await call.getByRole('button', { name: 'Mit der Testantwort antworten' }).click();
    await expect.poll(() => chat.textContent(), { timeout: 15_000 }).toContain('Found Test Ada.');
    expect(problems).toEqual([]);
  });

  it('when the preview reaches a background call and a one-day wait, then the call is held as a background call, the map marks the waiting step as current, and skipping the wait moves the chat on', async () => {
    const { page, problems } = await signedInPage(browser, server, editor);
    await openDesigner(page, server);
    await page
      .getByRole('navigation', { name: 'Dialogs' })
      .getByRole('button', { name: /^reminder/ })
      .click();
    await page.getByRole('button', { name: /^Integration track/ }).click();
    await page.getByRole('tab', { name: 'Preview' }).click();
    await page.getByRole('button', { name: 'Start from this step' }).click();

    const call = page.getByRole('region', {
      name: 'Background HTTP call from reminder.track (the conversation went on)',
    });
    await call.waitFor({ timeout: 15_000 });
    expect(await call.locator('pre').textContent()).toContain('authorization: Bearer ‹E2E_CRM_TOKEN›');
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'Preview runs' }).textContent(), { timeout: 15_000 })
      .toContain('reminder.pause');

    // The map marks where the conversation rests (aria-current="step"), the background call's step not.
    await page.getByRole('tab', { name: 'Map' }).click();
    const map = page.getByRole('group', { name: 'Map of dialogs and jumps' });
    await expect
      .poll(() => map.getByRole('button', { name: /^Wait pause/ }).getAttribute('aria-current'), { timeout: 15_000 })
      .toBe('step');
    expect(await map.getByRole('button', { name: /^Integration track/ }).getAttribute('aria-current')).toBeNull();
    expect(await map.getByRole('button', { name: /^Question ask/ }).getAttribute('aria-current')).toBeNull();
    await screenshot(page, 'studio-preview-map-wait');
    expect(await axeViolations(page)).toEqual([]);

    await call.getByRole('button', { name: 'Reply with the test answer' }).click();
    await expect
      .poll(() => page.getByText('The background call from reminder.track succeeded').count(), { timeout: 15_000 })
      .toBe(1);
    const chat = page.getByRole('log', { name: 'Conversation' });
    expect(await chat.textContent()).not.toContain('A day later.');

    const skip = page.getByRole('button', { name: 'Skip the wait at reminder.pause' });
    await skip.scrollIntoViewIfNeeded();
    await screenshot(page, 'studio-preview-wait-pending');
    await skip.click();
    await expect.poll(() => chat.textContent(), { timeout: 15_000 }).toContain('A day later.');
    await expect.poll(() => page.getByText('No wait is pending.').count()).toBe(1);
    await page.getByText('No wait is pending.').scrollIntoViewIfNeeded();
    // The conversation ended: no step is current on the map any more.
    await expect.poll(() => map.getByRole('button', { name: /^Wait pause/ }).getAttribute('aria-current')).toBeNull();
    await screenshot(page, 'studio-preview-wait-skipped');
    expect(await axeViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('when a viewer opens the preview tab, then there is no preview to start', async () => {
    const { page } = await signedInPage(browser, server, viewer);
    await openDesigner(page, server);
    await page.getByRole('tab', { name: 'Preview' }).click();
    await expect
      .poll(() => page.getByRole('tabpanel', { name: 'Preview' }).textContent())
      .toContain('Previewing needs the owner or editor role.');
    expect(await page.getByRole('button', { name: 'Start preview' }).count()).toBe(0);
  });
});
