import { describe, expect, it } from 'vitest';
import type { BotDefinition } from '../definition/schema.ts';
import { validateDefinition } from '../definition/load.ts';
import { runTurn } from './engine.ts';
import type { ConversationState } from './turn/types.ts';

function definition(settings: Record<string, unknown> = {}): BotDefinition {
  const result = validateDefinition({
    settings: { id: 'test', name: 'Test bot', startDialog: 'greeting', fallbackText: 'Say again?', ...settings },
    userDataFields: ['name'],
    dialogs: [
      {
        id: 'greeting',
        steps: [
          { id: 'hello', type: 'message', text: 'Welcome back.' },
          { id: 'menu', type: 'input', prompt: 'What now?' },
        ],
      },
      {
        id: 'order',
        steps: [
          { id: 'intro', type: 'message', text: 'Your order.' },
          { id: 'question', type: 'input', prompt: 'Which number?', saveTo: { variable: 'number' } },
        ],
      },
      { id: 'help', steps: [{ id: 'offer', type: 'input', prompt: 'How can I help?' }] },
    ],
  });
  if (!result.ok) throw new Error(result.problems.join('\n'));
  return result.definition;
}

const restingOn = (dialogId: string, stepId: string): ConversationState => ({
  position: { dialogId, stepId, awaiting: true, retries: 0 },
  variables: {},
  userData: {},
});

describe('a user resting on a step the definition no longer has', () => {
  it('when their dialog still exists, then their next message restarts it at its first step and the move is a warning', () => {
    const turn = runTurn(definition(), restingOn('order', 'ask'), { kind: 'text', text: '42' });
    expect(turn.outputs).toEqual([
      { type: 'text', text: 'Your order.' },
      { type: 'text', text: 'Which number?' },
    ]);
    expect(turn.state.position).toEqual({ dialogId: 'order', stepId: 'question', awaiting: true, retries: 0 });
    expect(turn.effects).toContainEqual({
      type: 'warn',
      code: 'stale_position',
      detail: {
        fromDialogId: 'order',
        fromStepId: 'ask',
        toDialogId: 'order',
        toStepId: 'intro',
        chosenAtPublish: false,
      },
    });
  });

  it('when a move was chosen at publish for their step, then their next message takes them to the chosen step and the move names it as chosen', () => {
    const moves = [{ from: { dialogId: 'order', stepId: 'ask' }, to: { dialogId: 'help', stepId: 'offer' } }];
    const turn = runTurn(definition(), restingOn('order', 'ask'), { kind: 'text', text: '42' }, { moves });
    expect(turn.outputs).toEqual([{ type: 'text', text: 'How can I help?' }]);
    expect(turn.state.position).toEqual({ dialogId: 'help', stepId: 'offer', awaiting: true, retries: 0 });
    expect(turn.effects).toContainEqual({
      type: 'warn',
      code: 'stale_position',
      detail: {
        fromDialogId: 'order',
        fromStepId: 'ask',
        toDialogId: 'help',
        toStepId: 'offer',
        chosenAtPublish: true,
      },
    });
    // A user elsewhere is not touched by the move.
    const other = runTurn(definition(), restingOn('order', 'question'), { kind: 'text', text: '7' }, { moves });
    expect(other.state.variables).toEqual({ number: '7' });
  });

  it('when the chosen target is gone too (a later publish removed it), then settings.recovery decides', () => {
    const moves = [{ from: { dialogId: 'order', stepId: 'ask' }, to: { dialogId: 'help', stepId: 'removed-later' } }];
    const turn = runTurn(definition(), restingOn('order', 'ask'), { kind: 'text', text: '42' }, { moves });
    expect(turn.state.position).toEqual({ dialogId: 'order', stepId: 'question', awaiting: true, retries: 0 });
    expect(turn.effects).toContainEqual(
      expect.objectContaining({
        code: 'stale_position',
        detail: expect.objectContaining({ toStepId: 'intro', chosenAtPublish: false }),
      }),
    );
  });

  it('when their dialog is gone, then they go to the start dialog, or to settings.recoveryDialog when set', () => {
    const toStart = runTurn(definition(), restingOn('checkout', 'pay'), {
      kind: 'postback',
      payload: 'yes',
      label: 'Yes',
    });
    expect(toStart.outputs.map((o) => (o.type === 'text' ? o.text : o.type))).toEqual(['Welcome back.', 'What now?']);
    const toHelp = runTurn(definition({ recoveryDialog: 'help' }), restingOn('checkout', 'pay'), {
      kind: 'text',
      text: 'hi',
    });
    expect(toHelp.state.position).toEqual({ dialogId: 'help', stepId: 'offer', awaiting: true, retries: 0 });
    expect(toHelp.effects).toContainEqual(
      expect.objectContaining({
        code: 'stale_position',
        detail: expect.objectContaining({ toDialogId: 'help', toStepId: 'offer' }),
      }),
    );
  });

  it('when settings.recovery is "recoveryDialog", then even a user whose dialog exists goes to the recovery dialog', () => {
    const turn = runTurn(
      definition({ recovery: 'recoveryDialog', recoveryDialog: 'help' }),
      restingOn('order', 'ask'),
      { kind: 'text', text: '42' },
    );
    expect(turn.outputs).toEqual([{ type: 'text', text: 'How can I help?' }]);
  });

  it('when the position still exists, then nothing is moved and the answer goes to the step', () => {
    const turn = runTurn(definition(), restingOn('order', 'question'), { kind: 'text', text: '42' });
    expect(turn.state.variables).toEqual({ number: '42' });
    expect(turn.effects.some((e) => e.type === 'warn' && e.code === 'stale_position')).toBe(false);
  });

  it('when settings.recoveryDialog names no dialog, then the definition is refused naming the setting', () => {
    const result = validateDefinition({
      settings: { id: 't', name: 'T', startDialog: 'a', recoveryDialog: 'gone' },
      dialogs: [{ id: 'a', steps: [{ id: 's', type: 'message', text: 'x' }] }],
    });
    expect(result).toEqual({ ok: false, problems: ['settings.recoveryDialog: no dialog "gone"'] });
  });
});
