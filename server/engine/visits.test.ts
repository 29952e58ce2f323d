import { describe, expect, it } from 'vitest';
import type { BotDefinition } from '../definition/schema.ts';
import { validateDefinition } from '../definition/load.ts';
import { runTurn } from './engine.ts';
import type { ConversationState, TurnResult } from './turn/types.ts';

function definition(dialogs: unknown, extra: Record<string, unknown> = {}): BotDefinition {
  const result = validateDefinition({
    settings: { id: 'test', name: 'Test bot', startDialog: 'greeting', fallbackText: 'Say again?' },
    userDataFields: ['name'],
    dialogs,
    ...extra,
  });
  if (!result.ok) throw new Error(result.problems.join('\n'));
  return result.definition;
}

/** The dialogs the turn's trail says completed. */
function completed(turn: TurnResult): string[] {
  return turn.trail.flatMap((m) => (m.kind === 'dialogCompleted' ? [m.dialogId] : []));
}

const fresh: ConversationState = { position: null, variables: {}, userData: {} };

const bot = definition(
  [
    {
      id: 'greeting',
      steps: [
        { id: 'hello', type: 'message', text: 'Hi!' },
        { id: 'ask', type: 'input', prompt: 'Your name?', saveTo: { userData: 'name' } },
        { id: 'thanks', type: 'message', text: 'Thanks.' },
        { id: 'menu', type: 'goto', dialog: 'menu' },
      ],
    },
    {
      id: 'menu',
      steps: [
        { id: 'pick', type: 'input', prompt: 'What now?', saveTo: { variable: 'x' } },
        { id: 'bye', type: 'message', text: 'Bye.' },
      ],
    },
    { id: 'help', steps: [{ id: 'say', type: 'message', text: 'Help is here.' }] },
  ],
  { intents: [{ id: 'help', dialog: 'help', utterances: ['help me', 'i need help'] }] },
);

describe('what a turn tells insights', () => {
  it('when a dialog starts and waits, then the steps moved to are listed in order and nothing is completed', () => {
    const turn = runTurn(bot, fresh, { kind: 'start', dialogId: 'greeting' });
    expect(turn.visits).toEqual([
      { dialogId: 'greeting', stepId: 'hello' },
      { dialogId: 'greeting', stepId: 'ask' },
    ]);
    expect(completed(turn)).toEqual([]);
  });

  it('when a goto step hands over to another dialog, then its own dialog is completed; running past the last step completes the next', () => {
    const asked = runTurn(bot, fresh, { kind: 'start', dialogId: 'greeting' });
    const answered = runTurn(bot, asked.state, { kind: 'text', text: 'Ann' });
    expect(answered.visits).toEqual([
      { dialogId: 'greeting', stepId: 'ask' },
      { dialogId: 'greeting', stepId: 'thanks' },
      { dialogId: 'greeting', stepId: 'menu' },
      { dialogId: 'menu', stepId: 'pick' },
    ]);
    expect(completed(answered)).toEqual(['greeting']);
    const last = runTurn(bot, answered.state, { kind: 'text', text: 'nothing' });
    expect(completed(last)).toEqual(['menu']);
  });

  it('when an intent takes the user elsewhere mid-dialog, then the dialog they left is not completed', () => {
    const asked = runTurn(bot, fresh, { kind: 'start', dialogId: 'menu' });
    const nlp = { modelId: 'm', intent: 'help', score: 0.99, classifications: [{ intent: 'help', score: 0.99 }] };
    const switched = runTurn(
      bot,
      { ...asked.state, position: { dialogId: 'greeting', stepId: 'hello', awaiting: true, retries: 0 } },
      { kind: 'text', text: 'help me', understanding: { nlp } },
    );
    expect(completed(switched)).not.toContain('greeting');
    expect(switched.visits?.map((v) => v.stepId)).toContain('say');
  });
});

describe('what completes a dialog', () => {
  const calls = definition(
    [
      {
        id: 'greeting',
        steps: [
          {
            id: 'call',
            type: 'integration',
            integration: 'listUserEvents',
            service: 'api',
            params: { userId: 'u' },
            onError: 'dialog:rescue',
          },
          { id: 'next', type: 'goto', dialog: 'rescue' },
        ],
      },
      { id: 'rescue', steps: [{ id: 'say', type: 'message', text: 'Rescued.' }] },
    ],
    { integrations: { services: { api: { baseUrl: 'https://api.example.com/' } } } },
  );

  it('when an integration fails and its onError leads to another dialog, then the dialog it left is not completed; when it succeeds and the dialog jumps on, then it is', () => {
    const waiting = runTurn(calls, fresh, { kind: 'start', dialogId: 'greeting' });
    const failed = runTurn(calls, waiting.state, {
      kind: 'integrationResult',
      dialogId: 'greeting',
      stepId: 'call',
      ok: false,
      error: { kind: 'status', message: 'it failed' },
    });
    expect(completed(failed)).toEqual(['rescue']);
    const succeeded = runTurn(calls, waiting.state, {
      kind: 'integrationResult',
      dialogId: 'greeting',
      stepId: 'call',
      ok: true,
      output: [],
    });
    expect(completed(succeeded)).toEqual(['greeting', 'rescue']);
  });
});
