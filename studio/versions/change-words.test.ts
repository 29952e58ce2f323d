import { afterEach, describe, expect, it } from 'vitest';
import { setLanguage } from '../i18n/catalogue.ts';
import { changeInWords } from './change-words.ts';
import type { Change } from '../../shared/studio-versions.ts';

const part = (kind: Change['kind'], id: string): Change => ({
  kind,
  what: 'part',
  path: id,
  id,
  words: `${id} ${kind}.`,
});

describe('a top-level part of the definition in the publish plan', () => {
  afterEach(() => setLanguage('en'));

  it('when the user-data fields or the services changed, then the plan names them in words, not by their key', () => {
    expect(changeInWords(part('changed', 'userDataFields'))).toBe('User-data fields changed');
    expect(changeInWords(part('added', 'integrations'))).toBe('Services and datasets added');
    expect(changeInWords(part('removed', 'pageEvents'))).toBe('Page events removed');
  });

  it('when the studio speaks German, then the part and what happened to it are German', () => {
    setLanguage('de');
    expect(changeInWords(part('changed', 'userDataFields'))).toBe('Benutzerdatenfelder geändert');
    expect(changeInWords(part('removed', 'stepTypes'))).toBe('Eigene Schritttypen entfernt');
  });

  it('when a part has no word of its own, then its key is shown capitalised', () => {
    expect(changeInWords(part('changed', 'somethingNew'))).toBe('SomethingNew changed');
  });
});
