import { describe, expect, it } from 'vitest';
import { LOCALES, stringsFor } from './i18n.ts';
import { rowText } from '../elements/form-context.ts';
import { en } from './strings.ts';
import { plural } from '../../i18n/catalogue.ts';

describe('the designer speaks English and German', () => {
  for (const [language, strings] of Object.entries(LOCALES)) {
    it(`when ${language} counts problems, then every plural form the language has is written`, () => {
      for (const forms of [
        strings.publishBlocked,
        strings.stepProblems,
        strings.problemsUpdated,
        strings.searchResults,
      ]) {
        for (const category of new Intl.PluralRules(language).resolvedOptions().pluralCategories)
          expect(forms[category as keyof typeof forms], category).toBeTruthy();
        for (const n of [0, 1, 2, 5]) expect(plural(forms, n, language)).not.toContain('{');
      }
    });
  }

  it('when German is asked for (de-AT), then the designer speaks German; an unknown language falls back to English', () => {
    expect(stringsFor('de-AT').addStep).toBe('Schritt hinzufügen');
    expect(stringsFor('xx').addStep).toBe('Add step');
    expect(stringsFor('de').undo).not.toBe(en.undo);
  });
});

describe("labels made from a list's row name", () => {
  it('when an "Add …" button is labelled, then English reads in sentence case, an acronym stays, and German keeps its capitalised nouns', () => {
    expect(rowText(en.addRow, en.rowNames.fields!)).toBe('Add field');
    expect(rowText(en.addRow, en.rowNames.faq!)).toBe('Add FAQ pair');
    expect(rowText(en.addRow, en.rowNames.services!)).toBe('Add service');
    const de = stringsFor('de');
    expect(rowText(de.addRow, de.rowNames.fields!)).toBe('Feld hinzufügen');
    expect(rowText(de.addRow, de.rowNames.services!)).toBe('Dienst hinzufügen');
  });

  it('when a row is named at the start of a label, then its first letter is capitalised', () => {
    expect(rowText(en.row, en.rowNames.choices!, { n: 2 })).toBe('Choice 2');
    expect(rowText(en.recordEntry, en.rowNames.services!, { name: 'shop' })).toBe('Service “shop”');
    expect(rowText(en.removeRow, en.rowNames.quickReplies!, { n: 1 })).toBe('Remove quick reply 1');
  });
});
