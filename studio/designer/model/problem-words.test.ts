import { describe, expect, it } from 'vitest';
import { en } from '../i18n/strings.ts';
import de from '../i18n/strings-de.ts';
import { helpInFormWords } from './help-words.ts';
import { problemText } from './problem-words.ts';

describe("problems and help in the form's words", () => {
  it("when a question's text is missing or empty, then the problem names the field by its label in either language", () => {
    expect(problemText(en, { field: 'prompt', message: 'is required' })).toBe('Question is required.');
    expect(problemText(en, { field: 'prompt', message: 'must be at least 1 characters (got 0)' })).toBe(
      'Question is required.',
    );
    expect(problemText(de, { field: 'prompt', message: 'is required' })).toBe('Frage muss ausgefüllt sein.');
  });

  it('when a problem is inside a list, then its field is named by the last named part', () => {
    expect(problemText(en, { field: 'choices[1].label', message: 'must be at most 80 characters (got 91)' })).toBe(
      'Label may have at most 80 characters.',
    );
  });

  it("when the studio has no words for a sentence, then the server's sentence follows the field's label", () => {
    expect(problemText(en, { field: 'cardsFrom', message: 'odd thing', hint: 'do this' })).toBe(
      'Cards from variable: odd thing (do this)',
    );
  });

  it("when a help text names JSON keys, then they read as the form's labels, and plain words stay", () => {
    expect(helpInFormWords('Said instead of the carousel when the cardsFrom variable holds no cards.', en)).toBe(
      'Said instead of the carousel when the "Cards from variable" variable holds no cards.',
    );
    expect(helpInFormWords('For inputType "number": inclusive bounds. The text; templates allowed.', en)).toBe(
      'For "Answer type" "A number": inclusive bounds. The text; templates allowed.',
    );
  });

  it("when a problem is on an integration's parameter, then it names the parameter's own label, not a step field's", () => {
    expect(problemText(en, { field: 'params.prompt', message: 'is required' })).toBe('Prompt is required.');
    expect(problemText(en, { field: 'prompt', message: 'is required' })).toBe('Question is required.');
    expect(problemText(de, { field: 'params.endpoint', message: 'is required' })).toBe('Adresse muss ausgefüllt sein.');
  });

  it("when a value is not one the field's list offers, then the problem names the field and the choices in the list's words", () => {
    const misspelt = {
      field: 'inputType',
      message: '"choise" is not allowed',
      hint: 'did you mean "choice"? Allowed: "text", "number", "email", "phone", "choice", "regex"',
    };
    expect(problemText(en, misspelt)).toBe(
      'Answer type: "choise" is not one of the choices; did you mean "Pick from choices"?',
    );
    expect(problemText(de, misspelt)).toBe(
      'Antworttyp: „choise“ ist keine der Möglichkeiten; meinten Sie „Auswahl aus Optionen“?',
    );
    const unknown = {
      field: 'actions[0].op',
      message: '"put" is not allowed',
      hint: 'allowed: "set", "unset", "append"',
    };
    expect(problemText(en, unknown)).toBe(
      'Operation: "put" is not one of the choices (Set to a value, Clear, Add to a list).',
    );
  });

  it("when a number, a bound or a duration is wrong, then the problem says so in the form's words in either language", () => {
    expect(problemText(en, { field: 'maxRetries', message: 'must be a number (got string "three")' })).toBe(
      'Retries must be a number.',
    );
    expect(problemText(de, { field: 'maxRetries', message: 'must be at least 0 (got -1)' })).toBe(
      'Wiederholungen muss mindestens 0 sein.',
    );
    expect(
      problemText(de, { field: 'duration', message: 'must be a duration such as "500ms", "30s", "10m", "2h" or "1d"' }),
    ).toBe('Dauer: Geben Sie eine Dauer wie 30s, 10m, 2h oder 1d an.');
  });

  it("when a yes-or-no field's help ends with its default as JSON, then the help leaves it to the default said under the field", () => {
    expect(helpInFormWords('The user writes or presses something. Default false.', en)).toBe(
      'The user writes or presses something.',
    );
  });
});
