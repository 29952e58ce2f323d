import { describe, expect, it } from 'vitest';
import { format } from '../../i18n/catalogue.ts';
import { editorSchema } from '../../../server/bot/editor-schema.ts';
import { BUILT_IN_STEP_TYPES } from '../../../server/integrations/step-types/registry.ts';
import { designerCatalogue } from '../../../server/studio-server/designer/catalogue.ts';
import { helpInFormWords, helpInLanguage } from '../model/help-words.ts';
import helpDe from './help-de.ts';
import helpEn from './help-en.ts';
import { helpFor } from './help.ts';
import de from './strings-de.ts';
import { en } from './strings.ts';

/** The catalogue the studio is served: the editor schema (with the built-in step types' parameters) and the step types. */
function servedCatalogue(): unknown {
  return designerCatalogue(editorSchema({ ownStepTypes: [] }), { builtIn: BUILT_IN_STEP_TYPES, presets: [], own: [] });
}

/** Every description the studio is served. */
function servedDescriptions(): string[] {
  const found = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'description' && typeof value === 'string') found.add(value);
      else walk(value);
    }
  };
  walk(servedCatalogue());
  return [...found];
}

/** Each field's help as [its key, its description], wherever a schema's properties hold one. */
function fieldHelps(): [string, string][] {
  const found: [string, string][] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!node || typeof node !== 'object') return;
    const properties = (node as { properties?: unknown }).properties;
    if (properties && typeof properties === 'object')
      for (const [key, field] of Object.entries(properties as Record<string, { description?: unknown }>))
        if (typeof field?.description === 'string') found.push([key, field.description]);
    Object.values(node).forEach(walk);
  };
  walk(servedCatalogue());
  return found;
}

describe('help texts in German', () => {
  const served = servedDescriptions();

  it('when the studio speaks German, then every description the catalogue serves has its German text', () => {
    expect(served.length).toBeGreaterThan(200);
    const untranslated = served.filter((help) => helpInLanguage(help, helpDe) === help);
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
    for (const help of served) helpInLanguage(help, watched);
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

  it("when the schema adds a server's own step types to the step-type field's help, then the German text says what to pick, and the list alone names them", () => {
    const help = served.find((text) => text.includes(' Known here: '))!;
    const german = helpInFormWords(help.replace(/Known here: .*$/, 'Known here: http, myStepType.'), de, helpDe);
    expect(german).toMatch(/^Was der Schritt aufruft: /);
    expect(german).not.toMatch(/http|myStepType|listUserEvents/);
  });

  it("when the language is English or one without a table, then the help is the server's (a few in the studio's English), with labels for JSON keys", () => {
    expect(helpFor('en-GB')).toBe(helpEn);
    expect(helpFor('fr')).toBe(helpEn);
    expect(helpFor('de-AT')).toBe(helpDe);
    expect(
      helpInFormWords('Lowest score a step type needs; settings.nlpThreshold when omitted.', en, helpFor('fr')),
    ).toBe('Lowest score a step type needs; settings.nlpThreshold when omitted.');
    expect(helpInFormWords('Static values or {{variable}} templates ({{userId}}, {{userData.email}}).', en)).toBe(
      'Static values or {{variable}} templates ({{userId}}, {{userData.email}}).',
    );
  });
});

describe("help texts that name a list's values", () => {
  const served = servedDescriptions();
  const helps = fieldHelps();
  /** The values a field's list shows in words: its options, an integration's step types and "On error go to"'s kinds. */
  const listed = (t: typeof en, key: string): string[] =>
    key === 'onError'
      ? ['fatal', 'dialog', 'flag']
      : key === 'integration'
        ? BUILT_IN_STEP_TYPES.map((type) => type.name)
        : Object.keys(t.options[key] ?? {});
  const escape = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

  for (const [language, t, table] of [
    ['English', en, helpEn],
    ['German', de, helpDe],
  ] as const)
    it(`when a field's help in ${language} explains its list, then it names the options by the list's words, not the values stored`, () => {
      const checked = helps.filter(([key]) => listed(t, key).length > 0);
      expect(checked.map(([key]) => key)).toEqual(
        expect.arrayContaining(['inputType', 'op', 'timing', 'onError', 'integration', 'recovery']),
      );
      for (const [key, help] of checked) {
        const words = helpInFormWords(help, t, table);
        for (const value of listed(t, key))
          // As the definition spells it: quoted ("fatal", „dialog:<id>“) or before a colon (sync: …).
          expect(words, `${key}: ${help}`).not.toMatch(
            new RegExp(`["„]${escape(value)}["“:]|(^|\\s)${escape(value)}:`),
          );
      }
      const onError = served.find((help) => help.startsWith('What a failed call does'))!;
      expect(helpInFormWords(onError, t, table)).toContain(format(t.fieldInHelp, { label: t.errorFlag }));
    });

  it("when the studio's English rewords a help text, then the server still serves that text (no stale entry)", () => {
    expect(
      Object.keys(helpEn).filter(
        (key) =>
          !served.some((help) => help === key || help.endsWith(`: ${key}`) || help.startsWith(`${key} Known here:`)),
      ),
    ).toEqual([]);
  });
});
