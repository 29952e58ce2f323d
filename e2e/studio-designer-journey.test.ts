import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startUpstream, type Upstream } from '../server/integrations/test/upstream.ts';
import { setUpOwner, type StudioClient } from '../server/studio-server/test/studio-client.ts';
import { screenshot } from './screenshots.ts';
import { axeViolations } from './studio-axe.ts';
import {
  addBearerService,
  addOpeningHoursFaq,
  addStep,
  branchOnPlan,
  openDesigner,
  person,
  rename,
  signedInPage,
} from './studio-designer-helpers.ts';
import { startTwoOrigins, type TwoOrigins } from './two-origins.ts';

/** The API's key, set by the owner in the studio: it must never be on a page. */
const TOKEN = 'sk_live_journey_7c41e9d2';
const SECRET = 'SHOP_API_TOKEN';
/** The server does real work behind these (a preview, a publish that runs the bot's tests): a shared machine may take seconds. */
const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 20_000, interval: 100 });

/** The smallest bot there is: one dialog that ends. */
const EMPTY = {
  settings: { id: 'journey', name: 'Journey bot', startDialog: 'main' },
  dialogs: [{ id: 'main', steps: [{ id: 'done', type: 'end' }] }],
};

/**
 * Issue 23's must-show chain, end to end in Chromium: the owner sets the API's secret in the
 * studio, an editor builds a flow on an empty bot with clicks and keys, previews it (the held call
 * shown with the secret masked, then sent for real), saves the chat as a test, publishes, and the
 * widget on a shop page of another origin runs the new flow against the same loopback API.
 */
describe("an editor's journey from an empty bot to the widget on a shop page, in Chromium", () => {
  let upstream: Upstream;
  let sites: TwoOrigins;
  let owner: StudioClient;
  let editor: StudioClient;
  let editorPage: Page;
  /** Page errors, console errors and CSP violations on the editor's page. */
  let problems: string[] = [];

  beforeAll(async () => {
    // The shop's API: JSON for a plan, only with the bot's Bearer key.
    upstream = await startUpstream((req, res) => {
      if (req.headers.authorization !== `Bearer ${TOKEN}`) return json(res, 401, { error: 'unauthorized' });
      const plan = /^\/api\/plans\/([a-z]+)$/.exec(req.url)?.[1];
      return plan === 'pro' ? json(res, 200, { name: 'Pro', seats: 5 }) : json(res, 404, { error: 'no such plan' });
    });
    sites = await startTwoOrigins({
      definition: () => EMPTY,
      env: { INTEGRATION_ALLOWED_HOSTS: '127.0.0.1', LOG_LEVEL: 'warn' },
    });
    const link = /(http:\/\/\S+\/studio\/setup#[A-Za-z0-9_-]+)/.exec(sites.bot.output())?.[1];
    if (!link) throw new Error(`no setup link in the server's output:\n${sites.bot.output()}`);
    owner = await setUpOwner(sites.bot.url, link);
    editor = await person(owner, 'editor');
  }, 90_000);
  afterAll(async () => {
    await sites?.close();
    await upstream?.close();
  });

  it('when the owner sets the API key in Settings, then the Secrets screen lists it as set in the studio and its value is not on the page', async () => {
    const { page, problems: seen } = await signedInPage(sites.browser, sites.bot, owner);
    await page.goto(`${sites.bot.url}/studio/`);
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Secrets' }).click();
    await page.getByLabel('Secret name').fill(SECRET);
    await page.getByLabel('Value').fill(TOKEN);
    await page.getByRole('button', { name: 'Save secret' }).click();
    await eventually(() => page.getByRole('row', { name: new RegExp(SECRET) }).textContent()).toContain(
      'set in the studio',
    );
    expect(await page.getByLabel('Value').inputValue()).toBe('');
    expect(await page.content()).not.toContain(TOKEN);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'journey-secret');
    expect(seen).toEqual([]);
  }, 120_000);

  it('when the editor builds a service for the shop API, a greeting, a question kept in user data, a condition on it, a call to the service and an FAQ answer, then check finds no problem and the version saves', async () => {
    ({ page: editorPage, problems } = await signedInPage(sites.browser, sites.bot, editor));
    const page = editorPage;
    await openDesigner(page, sites.bot);

    // The shop API as a service of the bot: its address, and a Bearer token from the owner's secret, picked by name.
    await addBearerService(page, 'shop', `${upstream.url}/api`, SECRET);
    const service = page.getByRole('group', { name: 'Service “shop”' });
    expect(await service.getByRole('combobox', { name: /^Token secret/ }).inputValue()).toBe(SECRET);
    expect(await page.content()).not.toContain(TOKEN);
    expect(await axeViolations(page)).toEqual([]);
    await service.getByRole('combobox', { name: /^Token secret/ }).scrollIntoViewIfNeeded();
    await screenshot(page, 'journey-service');
    await page.getByRole('tab', { name: 'Outline' }).click();

    await addStep(page, undefined, /^Message/);
    await rename(page, 'greet');
    await page.getByRole('textbox', { name: 'Text', exact: true }).fill('Hello! Welcome to the shop.');
    await page.getByRole('button', { name: 'Move up greet' }).click();

    await addStep(page, 'greet', /^Question/);
    await rename(page, 'ask-plan');
    await page.getByRole('textbox', { name: /^Question/ }).fill('Which plan do you use?');
    await page.getByLabel('Place').selectOption({ label: 'A user-data field (exported)' });
    await page.getByLabel('New user-data field').fill('plan');
    await page.getByRole('button', { name: 'Add field' }).click();
    await eventually(() => page.getByRole('combobox', { name: /^User-data field/ }).inputValue()).toBe('plan');

    await addStep(page, 'ask-plan', /^Condition/);
    await rename(page, 'check');
    await addStep(page, 'check', /^HTTP request$/);
    await rename(page, 'call');
    await page.getByRole('combobox', { name: /^Service/ }).selectOption({ label: 'shop' });
    await page.getByRole('combobox', { name: /^Address/ }).fill('/plans/{{plan}}');
    await page.getByLabel('Output variable').fill('plans');
    await addStep(page, 'call', /^Message/);
    await rename(page, 'answer');
    await page
      .getByRole('textbox', { name: 'Text', exact: true })
      .fill('Your plan: {{plans.body.name}}, {{plans.body.seats}} seats.');
    await addStep(page, 'answer', /^FAQ answer/);
    await rename(page, 'hours');
    await page.getByRole('textbox', { name: /^Question/ }).fill('Ask me anything about the shop.');

    // plan equals "pro" goes to the call, otherwise to the FAQ; the FAQ pair in the bot's settings.
    await branchOnPlan(page, 'call', 'hours');
    await addOpeningHoursFaq(page);
    expect(await axeViolations(page)).toEqual([]);

    await eventually(() => page.getByRole('tab', { name: /^Problems/ }).textContent()).toContain('Problems (0)');
    await page.getByRole('tab', { name: 'Outline' }).click();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'journey-built');

    await page.getByRole('button', { name: 'Save version' }).click();
    await page.getByLabel('What changed').fill('Plans from the shop API');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await eventually(() => page.getByRole('log', { name: 'Changes' }).textContent()).toContain(
      'Saved as a new version.',
    );
  }, 120_000);

  it('when the editor previews and answers "pro", then the held call shows the Bearer key masked, and sent for real it calls the API once and the answer reaches the chat, which saves as a test', async () => {
    const page = editorPage;
    await page.getByRole('tab', { name: 'Preview' }).click();
    await page.getByRole('button', { name: 'Start preview' }).click();
    const chat = page.getByRole('log', { name: 'Conversation' });
    await eventually(() => chat.textContent()).toContain('Which plan do you use?');
    expect(await chat.textContent()).toContain('Hello! Welcome to the shop.');
    await page.getByRole('textbox', { name: /message/i }).fill('pro');
    await page.keyboard.press('Enter');

    const call = page.getByRole('region', { name: 'HTTP call from main.call' });
    await call.waitFor({ timeout: 20_000 });
    const shown = await call.locator('pre').textContent();
    expect(shown).toContain(`GET ${upstream.url}/api/plans/pro`);
    expect(shown).toContain(`authorization: Bearer ‹${SECRET}›`);
    expect(await page.content()).not.toContain(TOKEN);
    expect(upstream.seen).toHaveLength(0);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'journey-preview-held');

    await call.getByRole('button', { name: 'Send for real' }).click();
    await eventually(() => chat.textContent()).toContain('Your plan: Pro, 5 seats.');
    expect(upstream.seen).toHaveLength(1);
    expect(upstream.seen[0]).toMatchObject({ method: 'GET', url: '/api/plans/pro' });
    expect(upstream.seen[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(await page.content()).not.toContain(TOKEN);

    await page.getByRole('textbox', { name: 'Test name' }).fill('pro plan from the API');
    await page.getByRole('button', { name: 'Save as test' }).click();
    await eventually(() => page.getByRole('alert').textContent()).toContain('Saved as test "pro plan from the API"');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'journey-preview-saved');
  }, 120_000);

  it("when the editor publishes from the designer, then the plan shows the saved test passed, and a visitor on the shop page of another origin meets the new greeting and answering it reaches the API's answer", async () => {
    const page = editorPage;
    // An edit after the saved version (v2): the FAQ answer. Publishing puts a saved version live, so "Publish…" offers to save it first.
    await page.getByRole('tab', { name: 'Bot settings' }).click();
    await page
      .getByRole('group', { name: 'FAQ pair 1' })
      .getByRole('textbox', { name: /^Answer/ })
      .fill('From nine to six, Monday to Saturday.');
    await page.getByRole('button', { name: 'Publish…' }).click();
    const saveFirst = page.getByRole('dialog', { name: 'Save your changes before publishing?' });
    await saveFirst.waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'journey-save-first');
    // Cancel: nothing saved, the designer stays.
    await saveFirst.getByRole('button', { name: 'Cancel' }).click();
    await eventually(() => saveFirst.count()).toBe(0);
    expect(new URL(page.url()).pathname).toBe('/studio/designer');
    expect(((await owner.get('/studio/api/versions')).body as { headId: string }).headId).toBe('v2');
    // Again, with the keyboard: a note, then "Save and continue" saves v3 and opens its plan on the Versions screen.
    await page.getByRole('button', { name: 'Publish…' }).focus();
    await page.keyboard.press('Enter');
    await saveFirst.getByRole('textbox', { name: 'What changed' }).waitFor();
    await page.keyboard.type('Longer opening hours');
    await saveFirst.getByRole('button', { name: 'Save and continue' }).click();
    await eventually(() => new URL(page.url()).pathname).toBe('/studio/versions/publish/v3');
    // The plan runs the bot's tests and lists them.
    await eventually(() => page.getByText('pro plan from the API: passed').count()).toBe(1);
    await eventually(() => page.getByRole('heading', { name: 'Publish v3', level: 2 }).count()).toBe(1);
    await eventually(() => page.getByText('No problems found.').count()).toBe(1);
    // The plan's changes name the bot's parts in words, not by their keys.
    expect(
      await page
        .getByRole('listitem')
        .filter({ hasText: /^Services and datasets added$/ })
        .count(),
    ).toBe(1);
    expect(
      await page
        .getByRole('listitem')
        .filter({ hasText: /^User-data fields added$/ })
        .count(),
    ).toBe(1);
    await eventually(() => page.getByRole('button', { name: 'Publish v3', exact: true }).isEnabled()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'journey-publish-plan');
    await page.getByRole('button', { name: 'Publish v3', exact: true }).click();
    await eventually(() => page.getByRole('status').filter({ hasText: 'v3 is live now on every node.' }).count()).toBe(
      1,
    );
    expect(await axeViolations(page)).toEqual([]);
    expect(await page.content()).not.toContain(TOKEN);

    const shop = await sites.visit();
    expect(new URL(shop.url()).origin).not.toBe(new URL(sites.botUrl).origin);
    await shop.getByRole('button', { name: 'Open chat' }).click();
    const chat = shop.getByRole('log', { name: 'Conversation' });
    await eventually(() => chat.textContent()).toContain('Which plan do you use?');
    expect(await chat.textContent()).toContain('Hello! Welcome to the shop.');
    await shop.getByRole('textbox', { name: 'Message' }).fill('pro');
    await shop.getByRole('button', { name: 'Send' }).click();
    await eventually(() => chat.textContent()).toContain('Your plan: Pro, 5 seats.');
    expect(upstream.seen).toHaveLength(2);
    // The edit saved on the way to publishing is live: the FAQ answers with the new hours.
    await eventually(() => chat.textContent()).toContain('Ask me anything about the shop.');
    await shop.getByRole('textbox', { name: 'Message' }).fill('When are you open?');
    await shop.getByRole('button', { name: 'Send' }).click();
    await eventually(() => chat.textContent()).toContain('From nine to six, Monday to Saturday.');
    expect(upstream.seen[1]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    // The shop page's own heading sits outside a landmark: the shop's markup (e2e/host-page.ts), not the widget's.
    expect((await axeViolations(shop)).filter((violation) => violation !== 'region: ["h1"]')).toEqual([]);
    await screenshot(shop, 'journey-shop');

    // A plan address that names no version (a typo, a hand-made link) shows the list, no plan, no error.
    await page.goto(`${new URL(page.url()).origin}/studio/versions/publish/latest`);
    await eventually(() => page.getByRole('heading', { name: 'Versions', level: 1 }).count()).toBe(1);
    expect(await page.getByRole('heading', { level: 2, name: /^Publish/ }).count()).toBe(0);
    expect(problems).toEqual([]);
  }, 120_000);
});
