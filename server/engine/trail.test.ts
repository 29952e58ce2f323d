import { describe, expect, it } from 'vitest';
import type { BotDefinition } from '../definition/schema.ts';
import { validateDefinition } from '../definition/load.ts';
import { runTurn } from './engine.ts';
import type { ConversationState } from './turn/types.ts';

function definition(dialogs: unknown): BotDefinition {
  const result = validateDefinition({
    settings: { id: 'trail', name: 'Trail', startDialog: 'main', fallbackText: 'Say again?' },
    userDataFields: ['name'],
    dialogs,
  });
  if (!result.ok) throw new Error(result.problems.join('\n'));
  return result.definition;
}

const bot = definition([
  {
    id: 'main',
    steps: [
      { id: 'hi', type: 'message', text: 'Hi!' },
      {
        id: 'pick',
        type: 'input',
        prompt: 'Colour?',
        saveTo: { variable: 'colour' },
        inputType: 'choice',
        choices: [{ label: 'red' }, { label: 'blue' }],
      },
      { id: 'go', type: 'goto', dialog: 'second' },
    ],
  },
  {
    id: 'second',
    steps: [
      { id: 'say', type: 'message', text: 'Second.' },
      { id: 'done', type: 'end' },
    ],
  },
  { id: 'runs-out', steps: [{ id: 'only', type: 'message', text: 'Only.' }] },
]);

const fresh: ConversationState = { position: null, variables: {}, userData: {} };

describe('the trail of a turn', () => {
  it('when a dialog starts and waits for input, then the trail says it started, and nothing completed', () => {
    expect(runTurn(bot, fresh, { kind: 'start', dialogId: 'main' }).trail).toEqual([
      { kind: 'dialogStarted', dialogId: 'main' },
    ]);
  });

  it('when an answer leads through a goto step to a dialog that reaches its end step, then the trail says the first completed (its own step handed over), the second started and completed, in order', () => {
    const waiting = runTurn(bot, fresh, { kind: 'start', dialogId: 'main' }).state;
    expect(runTurn(bot, waiting, { kind: 'text', text: 'red' }).trail).toEqual([
      { kind: 'dialogCompleted', dialogId: 'main' },
      { kind: 'dialogStarted', dialogId: 'second' },
      { kind: 'dialogCompleted', dialogId: 'second' },
    ]);
  });

  it('when a dialog runs past its last step, then it is completed too', () => {
    expect(runTurn(bot, fresh, { kind: 'start', dialogId: 'runs-out' }).trail).toEqual([
      { kind: 'dialogStarted', dialogId: 'runs-out' },
      { kind: 'dialogCompleted', dialogId: 'runs-out' },
    ]);
  });

  it('when text is of no use to the step and no intent takes it, then the trail says it was not understood, with where', () => {
    const waiting = runTurn(bot, fresh, { kind: 'start', dialogId: 'main' }).state;
    expect(runTurn(bot, waiting, { kind: 'text', text: 'purple' }).trail).toEqual([
      { kind: 'notUnderstood', dialogId: 'main', stepId: 'pick', text: 'purple' },
    ]);
    expect(runTurn(bot, fresh, { kind: 'text', text: 'hello?' }).trail).toEqual([
      { kind: 'notUnderstood', dialogId: null, stepId: null, text: 'hello?' },
    ]);
  });
});
