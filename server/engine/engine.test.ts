import { describe, expect, it } from 'vitest';
import type { BotDefinition } from '../definition/schema.ts';
import { validateDefinition } from '../definition/load.ts';
import { runTurn } from './engine.ts';
import type { ConversationState } from './turn/types.ts';

function definition(
  dialogs: unknown,
  userDataFields: string[] = ['name'],
  settings: Record<string, unknown> = {},
): BotDefinition {
  const result = validateDefinition({
    settings: { id: 'test', name: 'Test bot', startDialog: 'greeting', fallbackText: 'Say again?', ...settings },
    userDataFields,
    dialogs,
  });
  if (!result.ok) throw new Error(result.problems.join('\n'));
  return result.definition;
}

const fresh: ConversationState = { position: null, variables: {}, userData: {} };

const greeting = definition([
  {
    id: 'greeting',
    steps: [
      { id: 'hello', type: 'message', text: 'Hi!' },
      { id: 'ask', type: 'input', prompt: 'Your name?', saveTo: { userData: 'name' } },
      { id: 'thanks', type: 'message', text: 'Thanks, {{name}}.' },
    ],
  },
]);

describe('engine', () => {
  it('when a dialog starts, then it says each message up to the first input and waits there', () => {
    const turn = runTurn(greeting, fresh, { kind: 'start', dialogId: 'greeting' });
    expect(turn.outputs).toEqual([
      { type: 'text', text: 'Hi!' },
      { type: 'text', text: 'Your name?' },
    ]);
    expect(turn.state.position).toEqual({ dialogId: 'greeting', stepId: 'ask', awaiting: true, retries: 0 });
  });

  it('when a turn says messages, then each is paired with the dialog and step that said it, and a fallback with no position with none', () => {
    const started = runTurn(greeting, fresh, { kind: 'start', dialogId: 'greeting' });
    expect(started.origins).toEqual([
      { dialogId: 'greeting', stepId: 'hello' },
      { dialogId: 'greeting', stepId: 'ask' },
    ]);
    const answered = runTurn(greeting, started.state, { kind: 'text', text: 'Ada' });
    expect(answered.origins).toEqual([{ dialogId: 'greeting', stepId: 'thanks' }]);
    const retried = runTurn(greeting, started.state, { kind: 'text', text: '  ' });
    expect(retried.origins).toEqual([{ dialogId: 'greeting', stepId: 'ask' }]);
    expect(runTurn(greeting, fresh, { kind: 'text', text: 'what?' }).origins).toEqual([undefined]);
  });

  it('when the user answers an input, then the answer is saved and the template uses it', () => {
    const started = runTurn(greeting, fresh, { kind: 'start', dialogId: 'greeting' });
    const turn = runTurn(greeting, started.state, { kind: 'text', text: '  Ada ' });
    expect(turn.state.userData).toEqual({ name: 'Ada' });
    expect(turn.outputs).toEqual([{ type: 'text', text: 'Thanks, Ada.' }]);
    expect(turn.state.position).toBeNull();
  });

  it('when an answer is blank, then the prompt is repeated and the retry counted', () => {
    const started = runTurn(greeting, fresh, { kind: 'start', dialogId: 'greeting' });
    const turn = runTurn(greeting, started.state, { kind: 'text', text: '   ' });
    expect(turn.outputs).toEqual([{ type: 'text', text: 'Your name?' }]);
    expect(turn.state.position).toMatchObject({ stepId: 'ask', awaiting: true, retries: 1 });
  });

  it('when text arrives and nothing awaits it, then the bot answers its fallback and reports unprocessed input', () => {
    const turn = runTurn(greeting, fresh, { kind: 'text', text: 'what?' });
    expect(turn.outputs).toEqual([{ type: 'text', text: 'Say again?' }]);
    expect(turn.effects).toContainEqual({
      type: 'nlpLog',
      fields: {
        dialogId: null,
        stepId: null,
        stepType: null,
        query: 'what?',
        modelId: null,
        intent: null,
        result: null,
        processed: false,
      },
    });
  });

  it('when a template names a missing variable, then it renders empty and is reported once, naming the dialog and step', () => {
    const bot = definition([
      { id: 'greeting', steps: [{ id: 'a', type: 'message', text: '[{{nope}}|{{nope}}|{{name}}]' }] },
    ]);
    const turn = runTurn(bot, fresh, { kind: 'start', dialogId: 'greeting' });
    expect(turn.outputs).toEqual([{ type: 'text', text: '[||]' }]);
    // The warning says where, so the log line leads to the template.
    expect(turn.effects.filter((e) => e.type === 'warn').map((e) => e.detail)).toEqual([
      { name: 'nope', dialogId: 'greeting', stepId: 'a' },
      { name: 'name', dialogId: 'greeting', stepId: 'a' },
    ]);
  });

  it('when goto steps form a cycle, then the turn stops at the bound, names the step and answers with the fallback', () => {
    const bot = definition(
      [
        { id: 'greeting', steps: [{ id: 'a', type: 'goto', dialog: 'loop' }] },
        {
          id: 'loop',
          steps: [
            { id: 'b', type: 'message', text: 'again' },
            { id: 'c', type: 'goto', dialog: 'greeting' },
          ],
        },
      ],
      ['name'],
      { maxStepsWithoutInput: 10 },
    );
    const turn = runTurn(bot, fresh, { kind: 'start', dialogId: 'greeting' });
    expect(turn.state.position).toBeNull();
    // 10 steps: a, b, c, a, b, c, a, b, c, a — three "again", then the fallback.
    expect(turn.outputs.map((o) => (o.type === 'text' ? o.text : o.type))).toEqual([
      'again',
      'again',
      'again',
      'Say again?',
    ]);
    expect(turn.effects).toContainEqual({
      type: 'warn',
      code: 'step_limit',
      detail: { dialogId: 'loop', stepId: 'b', limit: 10 },
    });
    expect(turn.state.variables).toEqual({});
  });

  it('when a goto names a step, then the conversation continues there and next jumps within the dialog', () => {
    const bot = definition([
      { id: 'greeting', steps: [{ id: 'a', type: 'goto', dialog: 'other', step: 'y' }] },
      {
        id: 'other',
        steps: [
          { id: 'x', type: 'message', text: 'skipped' },
          { id: 'y', type: 'message', text: 'here', next: 'z-end' },
          { id: 'w', type: 'message', text: 'skipped too' },
          { id: 'z-end', type: 'end' },
        ],
      },
    ]);
    const turn = runTurn(bot, fresh, { kind: 'start', dialogId: 'greeting' });
    expect(turn.outputs).toEqual([{ type: 'text', text: 'here' }]);
    expect(turn.state.position).toBeNull();
  });

  it('when the input state is given, then it is never mutated', () => {
    const state: ConversationState = Object.freeze({
      position: null,
      variables: Object.freeze({}),
      userData: Object.freeze({}),
    });
    const started = runTurn(greeting, state, { kind: 'start', dialogId: 'greeting' });
    expect(() => runTurn(greeting, started.state, { kind: 'text', text: 'Ada' })).not.toThrow();
    expect(state.userData).toEqual({});
  });
});
