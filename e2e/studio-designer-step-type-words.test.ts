import { copyFile, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StudioClient } from '../server/studio-server/test/studio-client.ts';
import { launchBrowser } from './browser.ts';
import { SCREENSHOT_DIR } from './screenshots.ts';
import type { ServerProcess } from './server-process.ts';
import { axeViolations } from './studio-axe.ts';
import { closeDesigner, description, designerIn, designerServer, outside } from './studio-designer-helpers.ts';

/** One step of every integration step type the server offers (built in and presets), and one of the bot's own. */
const STEPS = [
  { id: 'call', integration: 'http', params: { endpoint: 'https://example.com' } },
  { id: 'svc', integration: 'service', service: 'crm', params: { module: 'contacts', action: 'find' } },
  { id: 'events', integration: 'listUserEvents', service: 'crm', params: { userId: '{{userId}}' } },
  {
    id: 'signup',
    integration: 'createUser',
    service: 'crm',
    params: { email: 'a@example.com', name: 'Ann', surname: 'Lee', interestedInProductIds: [] },
  },
  { id: 'track', integration: 'sendTrackingEvent', service: 'crm', params: { event: 'lead', userId: '{{userId}}' } },
  { id: 'places', integration: 'queryDataset', params: { dataset: 'places', tags: ['cafe'] } },
  { id: 'hook', integration: 'sendWebhook', params: { url: 'https://example.com/hook' } },
  { id: 'slack', integration: 'slackPostMessage', params: { webhookUrlSecret: 'SLACK_HOOK', text: 'New lead' } },
  {
    id: 'row',
    integration: 'googleSheetsAppendRow',
    params: {
      credentialsSecret: 'SHEETS_KEY',
      spreadsheetId: 'sheet-1234567890',
      range: 'Leads!A:C',
      values: ['{{userId}}'],
    },
  },
  {
    id: 'lookup',
    integration: 'googleSheetsLookupRows',
    params: {
      credentialsSecret: 'SHEETS_KEY',
      spreadsheetId: 'sheet-1234567890',
      range: 'Orders',
      column: 'Order',
      value: 'A1',
    },
  },
  {
    id: 'contact',
    integration: 'hubspotUpsertContact',
    params: { tokenSecret: 'HUBSPOT_TOKEN', email: 'a@example.com' },
  },
  {
    id: 'ticket',
    integration: 'zendeskCreateTicket',
    params: {
      subdomain: 'acme',
      email: 'agent@example.com',
      tokenSecret: 'ZENDESK_TOKEN',
      subject: 'Hi',
      body: 'Help',
    },
  },
  { id: 'ask-ai', integration: 'chatCompletion', params: { model: 'gpt-4o-mini', prompt: 'Say hello.' } },
  { id: 'points', integration: 'loyaltyPoints', service: 'crm', params: { memberId: '{{userId}}' } },
].map((step) => ({ type: 'integration', ...step }));

const BOT = {
  settings: { id: 'words', name: 'Words', startDialog: 'main' },
  stepTypes: ['./steps/loyalty-points.mjs'],
  integrations: {
    services: { crm: { baseUrl: 'https://crm.example.com/' } },
    datasets: [
      {
        name: 'places',
        source: { service: 'crm', url: 'places', rows: 'places' },
        refreshIntervalSec: 300,
        fields: { id: 'id', tags: 'tags', lat: 'location.lat', lon: 'location.lon' },
      },
    ],
  },
  dialogs: [{ id: 'main', steps: [...STEPS, { id: 'bye', type: 'end' }] }],
};

/** The secrets the presets' steps name, set as a deployment sets them, so the bot starts. */
const SECRETS = { SLACK_HOOK: 'x', SHEETS_KEY: 'x', HUBSPOT_TOKEN: 'x', ZENDESK_TOKEN: 'x' };

/** What each language calls the palette, the forms and the step types a person picks from it. */
const WORDS = {
  en: {
    locale: 'en-GB',
    steps: /^Steps of /,
    addStep: 'Add step',
    palette: 'Add a step',
    search: 'Search step kinds',
    query: 'webhook send',
    stepId: 'Step id',
    newWebhookId: 'send-a-webhook',
    groups: ['Integrations', 'Preset integrations', "This bot's own step types"],
    form: 'Settings of',
    more: /^More settings/,
    params: /^Parameters of /,
    types: {
      http: 'HTTP request',
      service: 'Call a configured service',
      listUserEvents: "List the user's events",
      queryDataset: 'Look up a dataset',
      sendWebhook: 'Send a webhook',
      slackPostMessage: 'Slack: post a message',
      googleSheetsAppendRow: 'Google Sheets: add a row',
      zendeskCreateTicket: 'Zendesk: create a ticket',
      chatCompletion: 'Ask a language model',
      loyaltyPoints: 'Loyalty points',
    },
  },
  de: {
    locale: 'de-DE',
    steps: /^Schritte von /,
    addStep: 'Schritt hinzufügen',
    palette: 'Einen Schritt hinzufügen',
    search: 'Schrittarten suchen',
    query: 'webhook senden',
    stepId: 'Schritt-ID',
    newWebhookId: 'einen-webhook-senden',
    groups: ['Integrationen', 'Vorgefertigte Integrationen', 'Eigene Schritttypen dieses Bots'],
    form: 'Einstellungen von',
    more: /^Weitere Einstellungen/,
    params: /^Parameter von /,
    types: {
      http: 'HTTP-Anfrage',
      service: 'Einen eingerichteten Dienst aufrufen',
      listUserEvents: 'Ereignisse des Nutzers auflisten',
      queryDataset: 'In einem Datensatz nachschlagen',
      sendWebhook: 'Einen Webhook senden',
      slackPostMessage: 'Slack: eine Nachricht posten',
      googleSheetsAppendRow: 'Google Sheets: eine Zeile anfügen',
      zendeskCreateTicket: 'Zendesk: ein Ticket anlegen',
      chatCompletion: 'Ein Sprachmodell fragen',
      loyaltyPoints: 'Loyalty points',
    },
  },
} as const;
type Language = keyof typeof WORDS;

/**
 * Words of whoever writes the definition file, which a marketer filling the form has no use for: JSON
 * and its brackets (`["a"]`, `{"a": 1}`), the path of a docs file, the server's environment.
 */
const PROGRAMMER_WORDS =
  /\bJSON\b|environment variable|Umgebungsvariable|\{module\}|\{action\}|\b(returns|liefert) \{|\[\{|\["|\{"|\bdocs\/[\w-]+\.md\b|\bPOSTs\b|\bHMAC\b|radiusKm|lat\/lon|map with @/;

describe('the palette and every integration step form in words, in English and German, in Chromium', () => {
  let browser: Browser;
  let server: ServerProcess;
  let owner: StudioClient;

  beforeAll(async () => {
    // The bot's own step type is a module beside its definition, as a deployment ships it.
    const folder = await mkdtemp(path.join(tmpdir(), 'designer-step-types-'));
    await mkdir(path.join(folder, 'steps'));
    await copyFile('demo/steps/loyalty-points.mjs', path.join(folder, 'steps', 'loyalty-points.mjs'));
    await writeFile(path.join(folder, 'bot.json'), JSON.stringify(BOT, null, 2));
    ({ server, owner } = await designerServer(path.join(folder, 'bot.json'), SECRETS));
    browser = await launchBrowser();
  }, 60_000);
  afterAll(() => closeDesigner(browser, server));

  async function designer(language: Language, width = 1280): Promise<{ page: Page; problems: string[] }> {
    return designerIn(browser, server, owner, { ...WORDS[language], width });
  }

  async function openPalette(page: Page, language: Language): Promise<Locator> {
    await page.getByRole('button', { name: WORDS[language].addStep, exact: true }).click();
    const palette = page.getByRole('dialog', { name: WORDS[language].palette });
    await palette.waitFor();
    return palette;
  }

  for (const language of ['en', 'de'] as const)
    it(`when the palette is opened in ${language === 'en' ? 'English' : 'German'}, then every integration step type is named in words, its key shown beside it and found by search`, async () => {
      const words = WORDS[language];
      const { page, problems } = await designer(language);
      const palette = await openPalette(page, language);
      for (const [key, name] of Object.entries(words.types)) {
        const entry = palette.getByRole('button', { name, exact: true });
        expect(await entry.count(), `${language}: ${name}`).toBe(1);
        // What it does is read after its name, in the person's words; its key is there for whoever writes the JSON.
        const said = await description(entry);
        expect(said, `${language}: ${name}`).toContain(key);
        expect(said.replace(key, ''), `${language}: ${name}`).not.toMatch(PROGRAMMER_WORDS);
      }
      // No entry is named by its key, as the definition spells it.
      const names = await palette.getByRole('button').evaluateAll((buttons) =>
        buttons.map((button) => {
          const root = button.getRootNode() as ShadowRoot;
          const labelledBy = button.getAttribute('aria-labelledby');
          return (labelledBy ? root.getElementById(labelledBy)?.textContent : button.textContent)?.trim() ?? '';
        }),
      );
      expect(names.filter((name) => /^[a-z]+([A-Z][a-z0-9]*)+$|^http$|^service$/.test(name))).toEqual([]);
      // Each group of step types, scrolled into view, as a person looks down the list.
      for (const [i, group] of words.groups.entries()) {
        await palette.getByRole('heading', { name: group, exact: true }).scrollIntoViewIfNeeded();
        await palette.screenshot({ path: path.join(SCREENSHOT_DIR, `designer-palette-${language}-${i}.png`) });
      }
      expect(await outside(palette)).toEqual([]);
      expect(await axeViolations(page)).toEqual([]);

      // A marketer finds it by words in any order, a programmer by its key.
      const search = palette.getByRole('searchbox', { name: words.search });
      const found = () =>
        palette
          .getByRole('button')
          .filter({ hasNotText: /^(Close|Schließen)$/ })
          .allTextContents();
      for (const query of [words.query, 'sendWebhook']) {
        await search.fill(query);
        await expect.poll(found).toEqual([expect.stringContaining(words.types.sendWebhook)]);
      }
      // Picking it adds an integration step of that type.
      await page.keyboard.press('Enter');
      const form = page.getByRole('group', { name: words.params });
      await form.waitFor();
      expect(await form.locator('legend').first().textContent()).toContain(words.types.sendWebhook);
      // Its id is the name it was picked by, in the studio's language, as a new dialog's is: never the type's key.
      expect(await page.getByRole('textbox', { name: words.stepId, exact: true }).inputValue()).toBe(
        words.newWebhookId,
      );
      expect(problems).toEqual([]);
      await page.context().close();
    });

  for (const language of ['en', 'de'] as const)
    it(`when every integration step's form is opened with its further settings in ${language === 'en' ? 'English' : 'German'}, at 1280 px and 640 px, then its help speaks no programmer's words, no label is a key, and nothing runs past the form`, async () => {
      const words = WORDS[language];
      for (const width of [1280, 640]) {
        const { page, problems } = await designer(language, width);
        for (const { id, integration } of STEPS) {
          const card = page
            .getByRole('button', { name: new RegExp(`^\\S+( \\S+)* ${id}\\b`) })
            .and(page.locator('[aria-expanded]'))
            .first();
          // The outline's card says what the step calls in the same words as the palette.
          const name = (words.types as Readonly<Record<string, string>>)[integration];
          if (name) expect(await card.textContent(), `${language} ${id}`).toContain(name);
          if (/[A-Z]/.test(integration))
            expect(await card.textContent(), `${language} ${id}`).not.toContain(integration);
          await card.click();
          const form = page.getByRole('group', { name: `${words.form} ${id}`, exact: true });
          await form.waitFor();
          const more = form.getByText(words.more);
          if ((await more.count()) > 0) await more.click();
          const params = form.getByRole('group', { name: words.params });
          // Its legend names the step type in words, not by its key.
          expect(await params.locator('legend').first().textContent(), `${language} ${id}`).not.toMatch(
            new RegExp(`["„]${integration}["“]`),
          );
          const help = (await form.locator('p').allTextContents()).join('\n');
          expect(help, `${language} ${width} ${id}`).not.toMatch(PROGRAMMER_WORDS);
          // A default that is an empty list or set of named values reads as a word, not as [] or {}.
          expect(help, `${language} ${width} ${id}`).not.toMatch(/(Default|Standard): (\{\}|\[\])/);
          const labels = (await params.locator('label, legend').allTextContents()).map((text) => text.trim());
          expect(
            labels.filter((label) => /^[a-z]+([A-Z][a-z0-9]*)+\b/.test(label)),
            `${language} ${id}`,
          ).toEqual([]);
          await form.screenshot({
            path: path.join(SCREENSHOT_DIR, `designer-integration-${language}-${width}-${id}.png`),
          });
          expect(await outside(form), `${language} ${width} ${id}`).toEqual([]);
        }
        expect(await axeViolations(page)).toEqual([]);
        expect(problems).toEqual([]);
        await page.context().close();
      }
    }, 240_000);
});
