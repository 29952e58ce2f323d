import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkDefinition } from '../bot/check-definition.ts';
import { runTurn } from '../engine/engine.ts';
import { validateDefinition } from './load.ts';

/** Every problem line starts with a path, e.g. `dialogs[2].steps[4].next: …` or `(root): …`. */
const PROBLEM =
  /^(\(root\)|(\[\d+\]|\["(?:[^"\\]|\\.)*"\]|[A-Za-z_$][\w$-]*)(\[\d+\]|\.[A-Za-z_$][\w$-]*|\["(?:[^"\\]|\\.)*"\])*): \S/;

const ids = fc.constantFrom('main', 'order', 'confirm', 'a', 'b', '1bad', '');
const stepKinds = fc.constantFrom(
  'message',
  'input',
  'condition',
  'set',
  'goto',
  'wait',
  'event',
  'clearUserData',
  'email',
  'sms',
  'nlp',
  'faq',
  'end',
  'teleport',
);

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
    saveTo: fc.option(
      fc.oneof(
        fc.record({ userData: fc.constantFrom('name', 'nope') }),
        fc.record({ variable: fc.constantFrom('x', 'Bad') }),
      ),
      { nil: undefined },
    ),
    to: fc.option(fc.string({ minLength: 1 }), { nil: undefined }),
    subject: fc.option(fc.string({ minLength: 1 }), { nil: undefined }),
    body: fc.option(fc.string({ minLength: 1 }), { nil: undefined }),
    message: fc.option(fc.string({ minLength: 1 }), { nil: undefined }),
    name: fc.option(fc.string({ minLength: 1 }), { nil: undefined }),
    branches: fc.option(
      fc.array(
        fc.record({
          when: fc.record({
            variable: fc.constantFrom('x', 'a.b', '1'),
            op: fc.constantFrom('equals', 'in', 'matches', 'bogus'),
            value: fc.option(fc.oneof(fc.string(), fc.integer(), fc.array(fc.string())), { nil: undefined }),
          }),
          then: ids,
        }),
      ),
      { nil: undefined },
    ),
    actions: fc.option(
      fc.array(
        fc.record({
          op: fc.constantFrom('set', 'unset', 'append'),
          variable: fc.option(fc.constantFrom('x', 'y'), { nil: undefined }),
          value: fc.option(fc.jsonValue(), { nil: undefined }),
        }),
      ),
      { nil: undefined },
    ),
  },
  { requiredKeys: ['id', 'type'] },
);

const definition = fc.record(
  {
    settings: fc.record(
      { id: ids, name: fc.string(), startDialog: ids, nlpThreshold: fc.option(fc.double(), { nil: undefined }) },
      { requiredKeys: ['id', 'name', 'startDialog'] },
    ),
    userDataFields: fc.array(fc.constantFrom('name', 'email', 'Bad')),
    dialogs: fc.array(fc.record({ id: ids, steps: fc.array(step, { maxLength: 5 }) }), { maxLength: 4 }),
    intents: fc.array(fc.record({ id: ids, dialog: ids, utterances: fc.array(fc.string(), { maxLength: 2 }) }), {
      maxLength: 2,
    }),
    faq: fc.array(fc.record({ id: ids, questions: fc.array(fc.string(), { maxLength: 2 }), answer: fc.string() }), {
      maxLength: 2,
    }),
    integrations: fc.record(
      {
        services: fc.dictionary(ids, fc.oneof(fc.record({ baseUrl: fc.string() }), fc.string())),
        datasets: fc.array(fc.record({ name: ids }), { maxLength: 2 }),
      },
      { requiredKeys: [] },
    ),
  },
  { requiredKeys: ['settings', 'dialogs'] },
);

/**
 * Definitions that are valid by construction: unique ids, every reference names a dialog or a
 * step that exists, templates name declared fields. Each step kind the engine runs without a
 * model or an outside system appears.
 */
const DIALOG_IDS = ['main', 'order', 'help', 'survey'] as const;
const validDefinition = fc
  .uniqueArray(fc.constantFrom(...DIALOG_IDS), { minLength: 1, maxLength: 4 })
  .chain((dialogIds) =>
    fc.record({
      settings: fc.record({
        id: fc.constantFrom('shop', 'bot-1'),
        name: fc.string({ minLength: 1, maxLength: 20 }),
        startDialog: fc.constantFrom(...dialogIds),
      }),
      userDataFields: fc.constant(['name', 'email']),
      dialogs: fc.tuple(
        ...dialogIds.map((id) => fc.integer({ min: 1, max: 5 }).chain((count) => validDialog(id, count, dialogIds))),
      ),
    }),
  );

function validDialog(id: string, count: number, dialogIds: readonly string[]) {
  const stepIds = Array.from({ length: count }, (_, i) => `s${i}`);
  const here = fc.constantFrom(...stepIds);
  const there = fc.record({ dialog: fc.constantFrom(...dialogIds) });
  const target = fc.oneof(here, there);
  const text = fc.constantFrom('Hello', 'Hi {{name}}', 'Mail: {{email}}', 'Page: {{pageData.product}}');
  const kinds = [
    fc.record({ type: fc.constant('message'), text }),
    fc.record({ type: fc.constant('message'), text, quickReplies: fc.constant([{ label: 'Yes', payload: 'yes' }]) }),
    fc.record({
      type: fc.constant('input'),
      prompt: text,
      saveTo: fc.constantFrom({ userData: 'name' }, { variable: 'answer' }),
    }),
    fc.record({
      type: fc.constant('input'),
      prompt: text,
      inputType: fc.constant('number'),
      min: fc.constant(1),
      max: fc.constant(10),
      saveTo: fc.constant({ variable: 'count' }),
    }),
    fc.record({
      type: fc.constant('condition'),
      branches: fc.array(
        fc.record({
          when: fc.record({
            variable: fc.constantFrom('name', 'answer'),
            op: fc.constantFrom('equals', 'notEquals', 'contains'),
            value: fc.constantFrom('a', 'yes'),
          }),
          then: target,
        }),
        { minLength: 1, maxLength: 2 },
      ),
      else: fc.option(target, { nil: undefined }),
    }),
    fc.record({ type: fc.constant('set'), actions: fc.constant([{ op: 'set', variable: 'answer', value: 'yes' }]) }),
    fc.record({ type: fc.constant('wait'), duration: fc.constantFrom('10m', '2h'), then: target }),
    fc.record({ type: fc.constant('event'), name: fc.constantFrom('close-chat', 'open-cart') }),
    fc.record({ type: fc.constant('clearUserData') }),
    fc.record({ type: fc.constant('goto'), dialog: fc.constantFrom(...dialogIds) }),
    fc.record({ type: fc.constant('end') }),
  ];
  return fc
    .tuple(
      ...stepIds.map((stepId) =>
        fc.tuple(fc.oneof(...kinds), fc.option(here, { nil: undefined })).map(([step, next]) => ({
          id: stepId,
          ...step,
          ...(next !== undefined && step.type !== 'goto' && step.type !== 'end' ? { next } : {}),
        })),
      ),
    )
    .map((steps) => ({ id, steps }));
}

/** Half by construction valid, half random and mostly broken: both properties get exercised. */
const anyDefinition = fc.oneof(validDefinition, definition);
const SAMPLE = fc.sample(anyDefinition, { numRuns: 400, seed: 14 });
const validShare = SAMPLE.filter((input) => validateDefinition(input, { env: {} }).ok).length / SAMPLE.length;
const share = `${Math.round(validShare * 100)}% valid, ${100 - Math.round(validShare * 100)}% broken of ${SAMPLE.length} sampled`;

describe('bot definition validation, by property', () => {
  it(`when definitions are generated, then both valid and broken ones come (${share})`, () => {
    console.log(`definition generator: ${share}`);
    expect(validShare).toBeGreaterThan(0.3);
    expect(validShare).toBeLessThan(0.7);
  });

  it('when a definition valid by construction is loaded, then it is valid and its start dialog runs a turn and takes an answer', () => {
    fc.assert(
      fc.property(validDefinition, (input) => {
        const result = validateDefinition(input, { env: {} });
        if (!result.ok) throw new Error(`valid by construction, yet: ${result.problems.join('; ')}`);
        const definition = result.definition;
        // The conversation rests on a step that exists, or has ended; the same holds after an answer.
        const rests = (position: { dialogId: string; stepId: string } | null) =>
          position === null ||
          definition.dialogs.some(
            (d) => d.id === position.dialogId && d.steps.some((step) => step.id === position.stepId),
          );
        const first = runTurn(
          definition,
          { position: null, variables: {}, userData: {} },
          { kind: 'start', dialogId: definition.settings.startDialog },
        );
        expect(rests(first.state.position)).toBe(true);
        const second = runTurn(definition, first.state, { kind: 'text', text: 'yes' });
        expect(rests(second.state.position)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('when a definition valid by construction is checked as `chatbot check` does, then it has no errors (its lints do not cry wolf)', async () => {
    await fc.assert(
      fc.asyncProperty(validDefinition, async (input) => {
        const { problems } = await checkDefinition(input, 'bot.json', { env: {} });
        expect(problems.filter((p) => p.severity !== 'warning')).toEqual([]);
      }),
      { numRuns: 100 },
    );
  });

  it('when a random definition is validated, then it is valid or every problem names a path, and nothing throws', () => {
    fc.assert(
      fc.property(fc.oneof(anyDefinition, fc.anything()), (input) => {
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
