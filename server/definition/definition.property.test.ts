import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validateDefinition } from './load.ts';

/** Every problem line starts with a path, e.g. `dialogs[2].steps[4].next: …` or `(root): …`. */
const PROBLEM = /^(\(root\)|(\[\d+\]|\["(?:[^"\\]|\\.)*"\]|[A-Za-z_$][\w$-]*)(\[\d+\]|\.[A-Za-z_$][\w$-]*|\["(?:[^"\\]|\\.)*"\])*): \S/;

const ids = fc.constantFrom('main', 'order', 'confirm', 'a', 'b', '1bad', '');
const stepKinds = fc.constantFrom('message', 'input', 'condition', 'set', 'goto', 'wait', 'event', 'clearUserData', 'email', 'sms', 'nlp', 'faq', 'end', 'teleport');

/** Steps that are often nearly right: a real kind, plausible fields, random references. */
const step = fc.record(
  {
    id: ids,
    type: stepKinds,
    text: fc.option(fc.string(), { nil: undefined }),
    prompt: fc.option(fc.string({ minLength: 1 }), { nil: undefined }),
    next: fc.option(ids, { nil: undefined }),
    dialog: fc.option(ids, { nil: undefined }),
    step: fc.option(ids, { nil: undefined }),
    duration: fc.option(fc.constantFrom('10m', '5s', 'soon', 10), { nil: undefined }),
    then: fc.option(fc.oneof(ids, fc.record({ dialog: ids })), { nil: undefined }),
    inputType: fc.option(fc.constantFrom('text', 'number', 'choice', 'regex', 'weird'), { nil: undefined }),
    pattern: fc.option(fc.constantFrom('[a-z]+', '(', '\\d'), { nil: undefined }),
    saveTo: fc.option(fc.oneof(fc.record({ userData: fc.constantFrom('name', 'nope') }), fc.record({ variable: fc.constantFrom('x', 'Bad') })), { nil: undefined }),
    to: fc.option(fc.string({ minLength: 1 }), { nil: undefined }),
    subject: fc.option(fc.string({ minLength: 1 }), { nil: undefined }),
    body: fc.option(fc.string({ minLength: 1 }), { nil: undefined }),
    message: fc.option(fc.string({ minLength: 1 }), { nil: undefined }),
    name: fc.option(fc.string({ minLength: 1 }), { nil: undefined }),
    branches: fc.option(fc.array(fc.record({ when: fc.record({ variable: fc.constantFrom('x', 'a.b', '1'), op: fc.constantFrom('equals', 'in', 'matches', 'bogus'), value: fc.option(fc.oneof(fc.string(), fc.integer(), fc.array(fc.string())), { nil: undefined }) }), then: ids })), { nil: undefined }),
    actions: fc.option(fc.array(fc.record({ op: fc.constantFrom('set', 'unset', 'append'), variable: fc.option(fc.constantFrom('x', 'y'), { nil: undefined }), value: fc.option(fc.jsonValue(), { nil: undefined }) })), { nil: undefined }),
  },
  { requiredKeys: ['id', 'type'] },
);

const definition = fc.record(
  {
    settings: fc.record({ id: ids, name: fc.string(), startDialog: ids, nlpThreshold: fc.option(fc.double(), { nil: undefined }) }, { requiredKeys: ['id', 'name', 'startDialog'] }),
    userDataFields: fc.array(fc.constantFrom('name', 'email', 'Bad')),
    dialogs: fc.array(fc.record({ id: ids, steps: fc.array(step, { maxLength: 5 }) }), { maxLength: 4 }),
    intents: fc.array(fc.record({ id: ids, dialog: ids, utterances: fc.array(fc.string(), { maxLength: 2 }) }), { maxLength: 2 }),
    faq: fc.array(fc.record({ id: ids, questions: fc.array(fc.string(), { maxLength: 2 }), answer: fc.string() }), { maxLength: 2 }),
    integrations: fc.record({ services: fc.dictionary(ids, fc.oneof(fc.record({ baseUrl: fc.string() }), fc.string())), datasets: fc.array(fc.record({ name: ids }), { maxLength: 2 }) }, { requiredKeys: [] }),
  },
  { requiredKeys: ['settings', 'dialogs'] },
);

describe('bot definition validation, by property', () => {
  it('when a random definition is validated, then it is valid or every problem names a path, and nothing throws', () => {
    fc.assert(
      fc.property(fc.oneof(definition, fc.anything()), (input) => {
        const result = validateDefinition(input, { env: {} });
        if (!result.ok) {
          expect(result.problems.length).toBeGreaterThan(0);
          for (const problem of result.problems) expect(problem).toMatch(PROBLEM);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('when a valid definition is validated again, then it stays valid (defaults are stable)', () => {
    fc.assert(
      fc.property(definition, (input) => {
        const result = validateDefinition(input);
        if (result.ok) expect(validateDefinition(result.definition).ok).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
