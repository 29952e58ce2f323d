import { describe, expect, it } from 'vitest';
import { axeViolations } from './studio-axe.ts';
import { description, designerSuite, signedInPage } from './studio-designer-helpers.ts';

const BOT = {
  settings: { id: 'hilfe', name: 'Hilfe', startDialog: 'main' },
  dialogs: [
    {
      id: 'main',
      steps: [
        { id: 'hello', type: 'message', text: 'Hallo!' },
        {
          id: 'ask',
          type: 'input',
          prompt: 'Welcher Tarif?',
          inputType: 'choice',
          choices: [{ label: 'Pro' }, { label: 'Basis' }],
        },
      ],
    },
  ],
};

/** A marketer whose studio speaks German reads a step's help in German, with the form's German labels. */
describe('help texts in German, in Chromium', () => {
  const suite = designerSuite(BOT);

  it("when a question step is opened in the German studio, then its fields' help reads in German and names fields by their German labels", async () => {
    const { page, problems } = await signedInPage(suite.browser, suite.server, suite.owner, { locale: 'de-DE' });
    await page.goto(`${suite.server.url}/studio/designer`);
    await page.getByRole('heading', { name: 'Schritte von main' }).waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: /^Frage ask\b/ }).click();

    const question = page.getByRole('textbox', { name: 'Frage (Pflichtfeld)', exact: true });
    await question.waitFor();
    expect(await description(question)).toContain('Die Frage; Vorlagen erlaubt.');
    const answerType = page.getByRole('combobox', { name: 'Antworttyp' });
    expect(await description(answerType)).toContain(
      'Welche Art von Antwort die Frage erwartet; die Antwort wird danach geprüft.',
    );
    const choices = page.getByRole('group', { name: /^Auswahlmöglichkeiten/ });
    expect(await choices.textContent()).toContain(
      'Für den „Antworttyp“ „Auswahl aus Optionen“: als Schnellantworten gezeigt',
    );

    // The fields behind "More settings" too: no English help and no JSON key is left anywhere in the step's form.
    const form = page.getByRole('group', { name: 'Einstellungen von ask' });
    await form.getByText(/^Weitere Einstellungen/).click();
    const retries = form.getByRole('spinbutton', { name: 'Wiederholungen' });
    expect(await description(retries)).toContain('Wie oft nach einer ungültigen Antwort erneut gefragt wird.');
    const text = (await form.textContent()) ?? '';
    expect(text).not.toMatch(/templates allowed|when omitted|\binputType\b|\bretryPrompt\b/);

    // The bot's settings too: their help says what a field does, and points at no file of the docs.
    await page.getByRole('tab', { name: 'Bot-Einstellungen' }).click();
    const threshold = page.getByLabel('NLP-Schwelle', { exact: true });
    expect(await description(threshold)).toContain(
      'Ohne Angabe: der Schwellenwert, den die Erkennung beim Laden für diesen Bot selbst bestimmt.',
    );
    expect(await page.getByText(/docs\/[\w-]+\.md/).count()).toBe(0);
    await page.screenshot({ path: '/tmp/studio-designer-help-de.png', fullPage: true });
    expect(await axeViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
  });
});
