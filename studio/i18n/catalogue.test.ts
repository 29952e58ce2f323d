import { describe, expect, it } from 'vitest';
import { LOCALES as DESIGNER_LOCALES } from '../designer/i18n/i18n.ts';
import { en as designerEn } from '../designer/i18n/strings.ts';
import { format, pickLanguage } from './catalogue.ts';
import { LOCALES as STUDIO_LOCALES, en as studioEn } from './strings.ts';

/** Placeholders such as `{n}` a sentence fills in. */
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

/** Every leaf of a table as [path, value]. */
function leaves(table: object, prefix = ''): [string, unknown][] {
  return Object.entries(table).flatMap(([key, value]) =>
    value && typeof value === 'object'
      ? leaves(value as object, `${prefix}${key}.`)
      : [[`${prefix}${key}`, value] as [string, unknown]],
  );
}

const CATALOGUES = [
  ['screens', STUDIO_LOCALES, studioEn],
  ['designer', DESIGNER_LOCALES, designerEn],
] as const;

describe("the studio's catalogues", () => {
  for (const [part, locales, english] of CATALOGUES) {
    for (const [language, strings] of Object.entries(locales)) {
      it(`when the ${part} speak ${language}, then every string is there with the same placeholders as in English`, () => {
        const base = new Map(leaves(english));
        const own = new Map(leaves(strings));
        expect([...own.keys()].sort()).toEqual([...base.keys()].sort());
        for (const [key, value] of own) {
          expect(typeof value, key).toBe('string');
          expect(value, key).not.toBe('');
          expect(placeholders(value as string), key).toEqual(placeholders(String(base.get(key) ?? value)));
        }
      });
    }
  }

  it('when the browser prefers a language the studio speaks (de-AT), then the studio speaks it; otherwise English', () => {
    expect(pickLanguage(['fr-FR', 'de-AT', 'en'])).toBe('de');
    expect(pickLanguage(['fr'])).toBe('en');
  });

  it('when a sentence names a value it is not given, then the placeholder stays for the developer to see', () => {
    expect(format('{a} and {b}', { a: 1 })).toBe('1 and {b}');
  });
});
