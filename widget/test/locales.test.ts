/// <reference types="mocha" />
import { expect } from '@open-wc/testing';
import { LOCALES } from '../i18n/locales/all.ts';
import { en, plural, type PluralForms } from '../i18n/strings.ts';

/** Placeholders such as `{n}` a sentence fills in. */
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('widget languages', () => {
  it('ships at least en, de, fr, es, it, pl, pt, nl, ar and he', () => {
    expect(Object.keys(LOCALES)).to.include.members(['en', 'de', 'fr', 'es', 'it', 'pl', 'pt', 'nl', 'ar', 'he']);
  });

  for (const [language, strings] of Object.entries(LOCALES)) {
    it(`when the widget speaks ${language}, then every string is there, translated where English would show, with the same placeholders`, () => {
      expect(Object.keys(strings).sort(), 'keys').to.deep.equal(Object.keys(en).sort());
      for (const [key, value] of Object.entries(strings) as [keyof typeof en, unknown][]) {
        if (key === 'unread') continue;
        expect(value, key).to.be.a('string').and.not.equal('');
        expect(placeholders(value as string), key).to.deep.equal(placeholders(en[key] as string));
      }
      if (language !== 'en') expect(strings.openChat, 'openChat still English').to.not.equal(en.openChat);
    });

    it(`when ${language} counts unread messages, then every plural form the language has (Intl.PluralRules) is written`, () => {
      const forms: PluralForms = strings.unread;
      const needed = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
      for (const category of needed) expect(forms[category], `unread.${category}`).to.be.a('string').and.not.equal('');
      for (const n of [0, 1, 2, 3, 5, 11, 22, 100]) {
        const sentence = plural(forms, n, language);
        expect(sentence, `n=${n}`).to.not.contain('{');
      }
    });
  }

  it('when one message is unread in English, then it says "1 unread message", and "2 unread messages" for two', () => {
    expect(plural(en.unread, 1, 'en')).to.equal('1 unread message');
    expect(plural(en.unread, 2, 'en')).to.equal('2 unread messages');
  });

  it('when Polish counts 2, 5 and 22, then each takes its own form', () => {
    expect(plural(LOCALES.pl!.unread, 2, 'pl')).to.equal('2 nieprzeczytane wiadomości');
    expect(plural(LOCALES.pl!.unread, 5, 'pl')).to.equal('5 nieprzeczytanych wiadomości');
    expect(plural(LOCALES.pl!.unread, 22, 'pl')).to.equal('22 nieprzeczytane wiadomości');
  });
});
