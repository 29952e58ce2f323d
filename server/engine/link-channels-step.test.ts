import { describe, expect, it } from 'vitest';
import { validateDefinition } from '../definition/load.ts';
import type { BotDefinition } from '../definition/schema.ts';
import { runTurn } from './engine.ts';
import type { ConversationState, TurnResult } from './turn/types.ts';

const definition = ((): BotDefinition => {
  const result = validateDefinition({
    settings: { id: 'test', name: 'Test bot', startDialog: 'main' },
    userDataFields: ['name'],
    dialogs: [
      {
        id: 'main',
        steps: [
          {
            id: 'link',
            type: 'linkChannels',
            text: 'Type {{linkCode}} in the web chat, {{name}}.',
            minutes: 5,
            onOtherText: 'stay',
          },
          { id: 'linked', type: 'message', text: 'Welcome back, {{name}}.' },
          { id: 'done', type: 'end' },
          { id: 'stay', type: 'message', text: 'We stay here.' },
        ],
      },
    ],
  });
  if (!result.ok) throw new Error(result.problems.join('\n'));
  return result.definition;
})();

const fresh: ConversationState = { position: null, variables: {}, userData: { name: 'Ada' } };
const texts = (turn: TurnResult) => turn.outputs.map((o) => (o.type === 'text' ? o.text : `<${o.type}>`));
const shown = runTurn(definition, fresh, { kind: 'start', dialogId: 'main' }, { linkCode: 'KQ7M-3XHD' });

describe('the linkChannels step', () => {
  it('when the step is reached, then it shows the code the caller drew, asks the caller to keep it and waits', () => {
    expect(texts(shown)).toEqual(['Type KQ7M-3XHD in the web chat, Ada.']);
    expect(shown.effects).toContainEqual({
      type: 'linkCode',
      dialogId: 'main',
      stepId: 'link',
      code: 'KQ7M-3XHD',
      minutes: 5,
    });
    expect(shown.state.position).toMatchObject({ dialogId: 'main', stepId: 'link', awaiting: true });
  });

  it('when the code arrived on another channel, then the dialog goes on at next with the same data', () => {
    const linked = runTurn(definition, shown.state, { kind: 'linked', dialogId: 'main', stepId: 'link' });
    expect(texts(linked)).toEqual(['Welcome back, Ada.']);
  });

  it('when the user writes something else here instead, then onOtherText follows', () => {
    expect(texts(runTurn(definition, shown.state, { kind: 'text', text: 'no thanks' }))).toEqual(['We stay here.']);
  });

  it('when a link arrives for a step the user has left, then nothing happens', () => {
    const moved = runTurn(definition, shown.state, { kind: 'text', text: 'no thanks' });
    const late = runTurn(definition, moved.state, { kind: 'linked', dialogId: 'main', stepId: 'link' });
    expect(late.outputs).toEqual([]);
    expect(late.state.position).toEqual(moved.state.position);
  });

  it('when the caller drew no code, then the step shows nothing and goes on unlinked', () => {
    const plain = runTurn(definition, fresh, { kind: 'start', dialogId: 'main' });
    expect(texts(plain)).toEqual(['Welcome back, Ada.']);
    expect(plain.effects.some((effect) => effect.type === 'linkCode')).toBe(false);
  });

  it('when a definition has a linkChannels text without {{linkCode}}, then it is refused', () => {
    const result = validateDefinition({
      settings: { id: 'test', name: 'Test bot', startDialog: 'main' },
      dialogs: [{ id: 'main', steps: [{ id: 'link', type: 'linkChannels', text: 'Go to the web chat.' }] }],
    });
    expect(result.ok).toBe(false);
  });
});
