import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { SCREENSHOT_DIR } from './screenshots.ts';
import { axeViolations } from './studio-axe.ts';
import { description, designerIn, designerSuite, outside } from './studio-designer-helpers.ts';

/** One step of every kind, two of them integrations (the generic HTTP request and a webhook preset). */
const STEPS = [
  { id: 'hello', type: 'message', text: 'Hello!' },
  { id: 'ask', type: 'input', prompt: 'Which plan?', inputType: 'choice', choices: [{ label: 'Pro' }] },
  {
    id: 'check',
    type: 'condition',
    branches: [{ when: { variable: 'plan', op: 'equals', value: 'pro' }, then: 'bye' }],
  },
  { id: 'remember', type: 'set', actions: [{ op: 'set', variable: 'plan', value: 'pro' }] },
  { id: 'pause', type: 'wait', duration: '10m', then: 'bye' },
  { id: 'tell', type: 'event', name: 'paid' },
  { id: 'forget', type: 'clearUserData' },
  { id: 'mail', type: 'email', to: 'a@example.com', subject: 'Hi', body: 'Hello' },
  { id: 'sms-note', type: 'sms', to: '+491701234567', message: 'Hi' },
  { id: 'understand', type: 'nlp', prompt: 'What do you need?' },
  { id: 'answer', type: 'faq', prompt: 'Ask me' },
  { id: 'call', type: 'integration', integration: 'http', params: { endpoint: 'https://example.com' } },
  { id: 'hook', type: 'integration', integration: 'sendWebhook', params: { url: 'https://example.com/hook' } },
  { id: 'link', type: 'linkChannels', text: 'Type {{linkCode}} there.' },
  { id: 'jump', type: 'goto', dialog: 'other' },
  { id: 'bye', type: 'end' },
] as const;

const BOT = {
  settings: { id: 'forms', name: 'Forms', startDialog: 'main' },
  userDataFields: ['customerMail'],
  intents: [
    { id: 'help', dialog: 'other', utterances: ['I need help', 'help me please'] },
    { id: 'buy', dialog: 'main', utterances: ['I want to buy', 'purchase a plan'] },
  ],
  faq: [{ id: 'hours', questions: ['When are you open?'], answer: 'Nine to five.' }],
  dialogs: [
    { id: 'main', steps: STEPS },
    { id: 'other', steps: [{ id: 'tip', type: 'message', text: 'A tip.' }] },
  ],
};

/** What each language calls the things the test looks for. */
const WORDS = {
  en: { locale: 'en-GB', steps: /^Steps of /, form: 'Settings of', more: /^More settings/, saved: 'Draft saved' },
  de: {
    locale: 'de-DE',
    steps: /^Schritte von /,
    form: 'Einstellungen von',
    more: /^Weitere Einstellungen/,
    saved: 'Entwurf gespeichert',
  },
} as const;
type Language = keyof typeof WORDS;

/** The values the schema stores, which no list, default or label may show as they are. */
const RAW_VALUES = ['text', 'number', 'email', 'phone', 'choice', 'regex', 'set', 'unset', 'append', 'sync', 'async'];

describe("every step's form in the words of the form, in English and German, in Chromium", () => {
  const suite = designerSuite(BOT);

  async function designer(language: Language, width = 1280): Promise<{ page: Page; problems: string[] }> {
    return designerIn(suite.browser, suite.server, suite.owner, { ...WORDS[language], width });
  }

  /** Opens step `id` from its card, and its "More settings" when it has any; returns its form. */
  async function openStep(page: Page, language: Language, id: string): Promise<Locator> {
    const card = page
      .getByRole('button', { name: new RegExp(`^\\S+( \\S+)* ${id}\\b`) })
      .and(page.locator('[aria-expanded]'));
    await card.first().click();
    const form = page.getByRole('group', { name: `${WORDS[language].form} ${id}`, exact: true });
    await form.waitFor();
    const more = form.getByText(WORDS[language].more);
    if ((await more.count()) > 0) {
      await more.click();
      await form.getByText(WORDS[language].more).waitFor();
    }
    return form;
  }

  it("when a question's answer type is picked, then each option reads in words in either language, and the stored value stays the schema's", async () => {
    for (const [language, words] of [
      [
        'en',
        ['Any text', 'A number', 'An email address', 'A phone number', 'Pick from choices', 'Text matching a pattern'],
      ],
      [
        'de',
        [
          'Beliebiger Text',
          'Eine Zahl',
          'Eine E-Mail-Adresse',
          'Eine Telefonnummer',
          'Auswahl aus Optionen',
          'Text nach einem Muster',
        ],
      ],
    ] as const) {
      const { page, problems } = await designer(language);
      const form = await openStep(page, language, 'ask');
      const answerType = form.getByRole('combobox', { name: language === 'en' ? 'Answer type' : 'Antworttyp' });
      const options = await answerType.getByRole('option').allTextContents();
      for (const word of words) expect(options).toContain(word);
      expect(options.filter((option) => RAW_VALUES.includes(option.trim()))).toEqual([]);
      // Underneath, the list still holds the values the definition stores.
      expect(await answerType.inputValue()).toBe('choice');
      await answerType.selectOption({ label: words[1] });
      expect(await answerType.inputValue()).toBe('number');
      // The question's help speaks of the option by its words too.
      const choices = form.getByRole('group', { name: language === 'en' ? /^Choices/ : /^Auswahlmöglichkeiten/ });
      expect(await choices.textContent()).toContain(
        language === 'en' ? '"Answer type" "Pick from choices"' : '„Antworttyp“ „Auswahl aus Optionen“',
      );
      expect(await axeViolations(page)).toEqual([]);
      await answerType.selectOption({ label: words[4] });
      await expect.poll(() => page.getByRole('status').filter({ hasText: WORDS[language].saved }).count()).toBe(1);
      expect(problems).toEqual([]);
      await page.context().close();
    }
  });

  it("when an integration step is opened, then its step type's parameters have labels and help in either language, never their JSON keys", async () => {
    const labels = {
      en: {
        call: ['Address', 'HTTP method', 'Headers', 'Query parameters', 'Body'],
        hook: ['Address', 'Address from a secret', 'HTTP method', 'Signing secret', 'Headers'],
        keys: /^(Endpoint|Method|Query|Url secret|url|urlSecret|signingSecret)( \(|$)/,
        help: {
          method: 'The HTTP method of the request.',
          headers: 'Headers to send, by name; values may hold templates.',
        },
      },
      de: {
        call: ['Adresse', 'HTTP-Methode', 'Header', 'Abfrageparameter', 'Inhalt'],
        hook: ['Adresse', 'Adresse aus einem Geheimnis', 'HTTP-Methode', 'Signatur-Geheimnis', 'Header'],
        keys: /^(Endpoint|Method|Headers|Query|Url secret|Signing secret|url|urlSecret|signingSecret)( \(|$)/,
        help: {
          method: 'Die HTTP-Methode der Anfrage.',
          headers: 'Header, die gesendet werden, nach Namen; Werte dürfen Vorlagen enthalten.',
        },
      },
    } as const;
    for (const language of ['en', 'de'] as const) {
      const { page, problems } = await designer(language);
      for (const step of ['call', 'hook'] as const) {
        const form = await openStep(page, language, step);
        const params = form.getByRole('group', { name: language === 'en' ? /^Parameters of / : /^Parameter von / });
        for (const label of labels[language][step]) {
          const control = params.getByLabel(new RegExp(`^${label}( \\(|$)`));
          const group = params.getByRole('group', { name: label, exact: true });
          const field = (await group.count()) > 0 ? group : control;
          expect(await field.count(), `${language} ${step}: ${label}`).toBe(1);
          // Every parameter says what it is for: its schema's help in the person's language, or the studio's own.
          if ((await group.count()) === 0)
            expect(await description(control), `${language} ${step}: ${label}`).not.toBe('');
        }
        if (step === 'call') {
          // The generic request's schema describes only its address: the studio says what the others are for.
          const help = labels[language].help;
          expect(await description(params.getByLabel(labels[language].call[1]))).toBe(help.method);
          expect(await params.getByRole('group', { name: labels[language].call[2] }).textContent()).toContain(
            help.headers,
          );
        }
        const legends = await params.locator('label, legend').allTextContents();
        expect(legends.filter((text) => labels[language].keys.test(text.trim()))).toEqual([]);
      }
      expect(await axeViolations(page)).toEqual([]);
      expect(problems).toEqual([]);
      await page.context().close();
    }
  });

  it("when an integration parameter takes a secret, then it is picked from the studio's secrets by name in either language, and the definition keeps the name, never the value", async () => {
    const value = 'whsec-form-words-never-on-a-page';
    expect((await suite.owner.put('/studio/api/secrets/HOOK_SIGNING', { value })).status).toBeLessThan(300);
    const words = {
      en: {
        params: /^Parameters of /,
        secrets: ['Address from a secret', 'Signing secret'],
        none: '(no secret chosen)',
      },
      de: {
        params: /^Parameter von /,
        secrets: ['Adresse aus einem Geheimnis', 'Signatur-Geheimnis'],
        none: '(kein Geheimnis gewählt)',
      },
    } as const;
    for (const language of ['en', 'de'] as const) {
      const { page, problems } = await designer(language);
      const form = await openStep(page, language, 'hook');
      const params = form.getByRole('group', { name: words[language].params });
      for (const name of words[language].secrets) {
        const picker = params.getByRole('combobox', { name: new RegExp(`^${name}( \\(|$)`) });
        expect(await picker.getByRole('option').allTextContents(), `${language}: ${name}`).toEqual([
          words[language].none,
          'HOOK_SIGNING',
        ]);
        // No longer a text field to type the secret (or its name) into.
        expect(await params.getByRole('textbox', { name: new RegExp(`^${name}`) }).count()).toBe(0);
      }
      if (language === 'en') {
        await params.getByRole('combobox', { name: /^Signing secret/ }).selectOption({ label: 'HOOK_SIGNING' });
        await expect.poll(() => page.getByRole('status').filter({ hasText: WORDS.en.saved }).count()).toBe(1);
        const steps = (await suite.owner.get('/studio/api/draft')).body.definition.dialogs[0].steps;
        expect(steps.find((step: { id: string }) => step.id === 'hook').params).toMatchObject({
          url: 'https://example.com/hook',
          signingSecret: 'HOOK_SIGNING',
        });
        await form.screenshot({ path: path.join(SCREENSHOT_DIR, 'designer-form-en-secret-params.png') });
      }
      expect(await page.content()).not.toContain(value);
      expect(await axeViolations(page)).toEqual([]);
      expect(problems).toEqual([]);
      await page.context().close();
    }
  });

  for (const language of ['en', 'de'] as const)
    it(`when every step's form is opened with its further settings in ${language === 'en' ? 'English' : 'German'}, at 1280 px and at a narrow 640 px, then no control runs past its form's edges and no list or default shows a stored value`, async () => {
      for (const width of [1280, 640]) {
        const { page, problems } = await designer(language, width);
        for (const { id } of STEPS) {
          const form = await openStep(page, language, id);
          await form.screenshot({ path: path.join(SCREENSHOT_DIR, `designer-form-${language}-${width}-${id}.png`) });
          expect(await outside(form), `${language} ${width} ${id}`).toEqual([]);
          const options = (await form.getByRole('option').allTextContents()).map((option) => option.trim());
          expect(
            options.filter((option) => RAW_VALUES.includes(option)),
            `${language} ${id}`,
          ).toEqual([]);
          // A default reads in words, and once: not as the stored value, nor again at the end of the help.
          const defaults = form.getByText(
            /(Default|Standard): (true|false|fatal|sync|async)\b|Default (true|false)\.|Standard: (ja|nein)\./,
          );
          expect(await defaults.allTextContents(), `${language} ${id}`).toEqual([]);
          // A list's help names its options by the words the list shows, not the values the definition stores.
          expect(await storedValuesInHelp(form), `${language} ${width} ${id}`).toEqual([]);
        }
        expect(await axeViolations(page)).toEqual([]);
        expect(problems).toEqual([]);
        await page.context().close();
      }
    }, 180_000);

  it("when the draft holds values its lists do not offer, then every problem reads in the form's words in either language", async () => {
    const draft = (await suite.owner.get('/studio/api/draft')).body;
    const broken = structuredClone(draft.definition);
    const steps = broken.dialogs[0].steps as Record<string, unknown>[];
    Object.assign(steps[1]!, { inputType: 'choise', maxRetries: 'three' });
    Object.assign(steps[3]!, { actions: [{ op: 'put', variable: 'plan', value: 'pro' }] });
    Object.assign(steps[4]!, { duration: 'ten minutes' });
    const saved = await suite.owner.put('/studio/api/draft', {
      baseVersionId: draft.baseVersionId,
      revision: draft.revision,
      definition: broken,
    });
    expect(saved.status).toBe(200);
    const expected = {
      en: [
        'Answer type: "choise" is not one of the choices; did you mean "Pick from choices"?',
        'Retries must be a number.',
        'Operation: "put" is not one of the choices (Set to a value, Clear, Add to a list).',
        'Duration: give a duration such as 30s, 10m, 2h or 1d.',
      ],
      de: [
        'Antworttyp: „choise“ ist keine der Möglichkeiten; meinten Sie „Auswahl aus Optionen“?',
        'Wiederholungen muss eine Zahl sein.',
        'Vorgang: „put“ ist keine der Möglichkeiten (Auf einen Wert setzen, Leeren, An eine Liste anhängen).',
        'Dauer: Geben Sie eine Dauer wie 30s, 10m, 2h oder 1d an.',
      ],
    };
    for (const language of ['en', 'de'] as const) {
      const { page, problems } = await designer(language);
      const list = page.getByRole('tabpanel', { name: language === 'en' ? /^Problems/ : /^Probleme/ });
      for (const text of expected[language])
        await expect.poll(() => list.getByText(text, { exact: true }).count(), { timeout: 10_000 }).toBe(1);
      // Nothing of the check's own sentences (kept for programmers in `chatbot check`) is left.
      expect(await list.getByText(/is not allowed|Allowed:|\(got |such as "/).count()).toBe(0);
      expect(await axeViolations(page)).toEqual([]);
      expect(problems).toEqual([]);
      await page.context().close();
    }
    // The form's own lists are fine again: the draft as it was.
    const now = (await suite.owner.get('/studio/api/draft')).body;
    const restored = await suite.owner.put('/studio/api/draft', {
      baseVersionId: now.baseVersionId,
      revision: now.revision,
      definition: draft.definition,
    });
    expect(restored.status).toBe(200);
  });

  it("when the bot's settings are opened in either language, at 1280 px and 640 px, then every field has a label in that language, lists read in words, and nothing runs past the panel", async () => {
    const words = {
      en: {
        tab: 'Bot settings',
        limits: ['Most steps without an answer', 'Most calls without an answer'],
        synonyms: 'Synonyms',
        recovery: 'Where users of a removed step go',
        options: ['Default: The start of their dialog', 'The start of their dialog', 'The recovery dialog'],
      },
      de: {
        tab: 'Bot-Einstellungen',
        limits: ['Höchstens so viele Schritte ohne Antwort', 'Höchstens so viele Aufrufe ohne Antwort'],
        synonyms: 'Synonyme',
        recovery: 'Wohin Nutzer eines entfernten Schritts gehen',
        options: ['Standard: Der Anfang ihres Dialogs', 'Der Anfang ihres Dialogs', 'Der Wiederherstellungsdialog'],
      },
    } as const;
    for (const language of ['en', 'de'] as const)
      for (const width of [1280, 640]) {
        const { page, problems } = await designer(language, width);
        const said = words[language];
        await page.getByRole('tab', { name: said.tab }).click();
        const panel = page.getByRole('tabpanel', { name: said.tab });
        for (const limit of said.limits) expect(await panel.getByRole('spinbutton', { name: limit }).count()).toBe(1);
        expect(await panel.getByRole('textbox', { name: said.synonyms, exact: true }).count()).toBe(1);
        const recovery = panel.getByRole('combobox', { name: said.recovery });
        expect(await recovery.getByRole('option').allTextContents()).toEqual(said.options);
        expect(await description(recovery)).toContain(said.options[1]);
        expect(await storedValuesInHelp(panel), `${language} ${width}`).toEqual([]);
        await panel.screenshot({ path: path.join(SCREENSHOT_DIR, `designer-bot-settings-${language}-${width}.png`) });
        expect(await outside(panel), `${language} ${width}`).toEqual([]);
        expect(await axeViolations(page)).toEqual([]);
        expect(problems).toEqual([]);
        await page.context().close();
      }
  });
});

/**
 * The lists of a form whose help (their accessible description) names a value they show in words as the
 * definition stores it: quoted ("fatal", „dialog:<id>“), before a colon ("sync: …"), or a camelCase key
 * anywhere (listUserEvents); and options that lead with their stored value ("http: A general HTTP request").
 */
async function storedValuesInHelp(form: Locator): Promise<string[]> {
  const found: string[] = [];
  const escape = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  for (const list of await form.getByRole('combobox').all()) {
    const options = await list
      .getByRole('option')
      .evaluateAll((all) => all.map((option) => [(option as HTMLOptionElement).value, option.textContent!.trim()]));
    const help = await description(list);
    for (const [value, text] of options as [string, string][]) {
      if (value === '' || value === text) continue;
      const raw = escape(value);
      const stored = new RegExp(`["„]${raw}["“:]|(^|\\s)${raw}:${/[A-Z]/.test(value) ? `|\\b${raw}\\b` : ''}`);
      if (stored.test(help)) found.push(`${value} in the help "${help}"`);
      if (text.startsWith(`${value}:`)) found.push(`${value} in the option "${text}"`);
    }
  }
  return found;
}
