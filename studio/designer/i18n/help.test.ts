import { describe, expect, it } from 'vitest';
import { editorSchema } from '../../../server/bot/editor-schema.ts';
import { BUILT_IN_STEP_TYPES } from '../../../server/integrations/step-types/registry.ts';
import { designerCatalogue } from '../../../server/studio-server/designer/catalogue.ts';
import { helpInFormWords, helpInLanguage } from '../model/help-words.ts';
import helpDe from './help-de.ts';
import { helpFor } from './help.ts';
import de from './strings-de.ts';
import { en } from './strings.ts';

/** Every description the studio is served: the editor schema's (with the built-in step types' parameters) and the step types'. */
function servedDescriptions(): string[] {
  const catalogue = designerCatalogue(editorSchema({ ownStepTypes: [] }), {
    builtIn: BUILT_IN_STEP_TYPES,
    presets: [],
    own: [],
  });
  const found = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'description' && typeof value === 'string') found.add(value);
      else walk(value);
    }
  };
  walk(catalogue);
  return [...found];
}

describe('help texts in German', () => {
  const served = servedDescriptions();

  it('when the studio speaks German, then every description the catalogue serves has its German text', () => {
    expect(served.length).toBeGreaterThan(200);
    const untranslated = served.filter((help) => helpInLanguage(help, helpDe, de) === help);
    expect(untranslated).toEqual([]);
  });

  it('when a German text has no description served any more, then it is named (a stale entry)', () => {
    const used = new Set<string>();
    const watched = new Proxy(helpDe, {
      get: (table, key: string) => {
        if (key in table) used.add(key);
        return table[key];
      },
    });
    for (const help of served) helpInLanguage(help, watched, de);
    expect(Object.keys(helpDe).filter((key) => !used.has(key))).toEqual([]);
  });

  it('when a German help text names a field, then it reads as its German label, never as its JSON key', () => {
    const keys = Object.keys(de.fields).filter((key) => /[A-Z]/.test(key));
    for (const help of served) {
      const german = helpInFormWords(help, de, helpDe);
      for (const key of keys) expect(german, help).not.toMatch(new RegExp(`(^|[\\s(„"])${key}($|[\\s)“",.;:])`));
    }
    expect(
      helpInFormWords(
        'For inputType "regex": the answer must match this (JavaScript syntax, whole answer).',
        de,
        helpDe,
      ),
    ).toBe(
      'Für den „Antworttyp“ „Text nach einem Muster“: Die ganze Antwort muss zu diesem Muster passen (JavaScript-Schreibweise).',
    );
  });

  it("when the schema adds a server's own step types to the step-type field's help, then the German text still shows, with them", () => {
    const help = served.find((text) => text.includes(' Known here: '))!;
    const german = helpInFormWords(help.replace(/Known here: .*$/, 'Known here: http, myStepType.'), de, helpDe);
    expect(german).toMatch(/^Der Integrations-Schritttyp: .* Hier bekannt: http, myStepType\.$/);
  });

  it("when the language is English or one without a table, then the help is the server's, with labels for JSON keys", () => {
    expect(helpFor('en-GB')).toEqual({});
    expect(helpFor('de-AT')).toBe(helpDe);
    expect(
      helpInFormWords('Lowest score an intent needs; settings.nlpThreshold when omitted.', en, helpFor('fr')),
    ).toBe('Lowest score an intent needs; settings.nlpThreshold when omitted.');
    expect(helpInFormWords('Static values or {{variable}} templates ({{userId}}, {{userData.email}}).', en)).toBe(
      'Static values or {{variable}} templates ({{userId}}, {{userData.email}}).',
    );
  });
});
