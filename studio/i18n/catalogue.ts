/**
 * The studio's one way to speak a language. Each part of the studio keeps a table of its
 * sentences per language — English built in, the others in a strings-<language>.ts beside it and checked by a test to
 * have every key with the same placeholders — and reads it with the helpers here: `{name}`
 * placeholders filled by `format`, counts by `plural` in the language's own plural rules. The
 * language is chosen once, from the browser's, when the studio starts.
 */

/** A sentence that changes with a count: one form per plural category the language has. */
export type PluralForms = { readonly other: string } & Partial<
  Readonly<Record<Exclude<Intl.LDMLPluralRule, 'other'>, string>>
>;

export type Values = Readonly<Record<string, string | number>>;

/** The languages the studio speaks. */
export type Language = 'en' | 'de';

/** The language part of a locale tag: `de-CH` → `de`. */
export const languageOf = (locale: string | undefined): string => (locale ?? 'en').toLowerCase().split('-')[0] || 'en';

/** The table for a locale (`de-CH` → German), English when the language has none. */
export function tableFor<T>(tables: Readonly<Record<string, T>>, locale: string | undefined, english: T): T {
  return tables[languageOf(locale)] ?? english;
}

export function format(template: string, values: Values = {}): string {
  return template.replace(/\{(\w+)\}/g, (m, name: string) => (name in values ? String(values[name]) : m));
}

/** One rule set per locale: building one costs more than a redraw's worth of select() calls. */
const pluralRules = new Map<string | undefined, Intl.PluralRules | null>();

function rulesFor(locale: string | undefined): Intl.PluralRules | null {
  let rules = pluralRules.get(locale);
  if (rules === undefined) {
    try {
      rules = new Intl.PluralRules(locale);
    } catch {
      // A malformed tag: the `other` form still reads right.
      rules = null;
    }
    pluralRules.set(locale, rules);
  }
  return rules;
}

/** `forms` for the count `n` in the locale's plural category, `{n}` filled in. */
export function plural(forms: PluralForms, n: number, locale: string | undefined, values: Values = {}): string {
  const category: Intl.LDMLPluralRule = rulesFor(locale)?.select(n) ?? 'other';
  return format(forms[category] ?? forms.other, { ...values, n });
}

/** The studio's language: the browser's first supported one, English otherwise. */
export function pickLanguage(languages: readonly string[]): Language {
  for (const tag of languages) {
    const language = languageOf(tag);
    if (language === 'en' || language === 'de') return language;
  }
  return 'en';
}

let current: Language = 'en';

export function setLanguage(language: Language): void {
  current = language;
}

export const language = (): Language => current;
