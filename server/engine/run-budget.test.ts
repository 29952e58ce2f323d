import { describe, expect, it } from 'vitest';
import { validateDefinition } from '../definition/load.ts';
import type { BotDefinition } from '../definition/schema.ts';
import { runTurn } from './engine.ts';
import type { ConversationState, EngineInput, TurnResult } from './turn/types.ts';

function bot(steps: unknown[], settings: Record<string, unknown> = {}): BotDefinition {
  const result = validateDefinition({
    settings: { id: 'test', name: 'Test bot', startDialog: 'main', fallbackText: 'Sorry, say again?', ...settings },
    dialogs: [{ id: 'main', steps }],
  });
  if (!result.ok) throw new Error(result.problems.join('\n'));
  return result.definition;
}

const fresh: ConversationState = { position: null, variables: {}, userData: {} };
const calls = (turn: TurnResult) => turn.effects.filter((e) => e.type === 'integration').length;
const texts = (turn: TurnResult) => turn.outputs.map((o) => (o.type === 'text' ? o.text : o.type));
const limitWarning = (turn: TurnResult) =>
  turn.effects.find((e) => e.type === 'warn' && (e.code === 'call_limit' || e.code === 'step_limit'));
const result = (stepId: string): EngineInput => ({
  kind: 'integrationResult',
  dialogId: 'main',
  stepId,
  ok: true,
  output: 1,
});

/** Plays the caller: feeds each sync call's result back in, as the app does, until the engine asks for none. */
function chainSyncResults(
  definition: BotDefinition,
  first: TurnResult,
  most = 1000,
): { turns: TurnResult[]; calls: number } {
  const turns = [first];
  let total = calls(first);
  let turn = first;
  while (turn.state.position?.awaiting && turns.length < most) {
    turn = runTurn(definition, turn.state, result(turn.state.position.stepId));
    turns.push(turn);
    total += calls(turn);
  }
  return { turns, calls: total };
}

const syncLoop = [
  { id: 'call', type: 'integration', integration: 'httpRequest', params: { url: 'https://api.example.com/x' } },
  { id: 'again', type: 'goto', dialog: 'main', step: 'call' },
];

describe('run budget: a run without input is bounded across the turns it chains', () => {
  it('when a sync integration step loops back to itself with no input between, then the calls stop at maxCallsWithoutInput and the user hears the fallback', () => {
    const definition = bot(syncLoop, { maxCallsWithoutInput: 5 });
    const { turns, calls: made } = chainSyncResults(
      definition,
      runTurn(definition, fresh, { kind: 'start', dialogId: 'main' }),
    );
    expect(made).toBe(5);
    const last = turns.at(-1)!;
    expect(limitWarning(last)).toEqual({
      type: 'warn',
      code: 'call_limit',
      detail: { dialogId: 'main', stepId: 'call', limit: 5 },
    });
    expect(texts(last)).toEqual(['Sorry, say again?']);
    expect(last.state.position).toBeNull();
  });

  it('when the bot sets no limit, then the documented default of 10 calls applies', () => {
    const definition = bot(syncLoop);
    expect(chainSyncResults(definition, runTurn(definition, fresh, { kind: 'start', dialogId: 'main' })).calls).toBe(
      10,
    );
  });

  it('when an async integration step loops within one turn, then it schedules no more than the limit', () => {
    const definition = bot(
      [
        {
          id: 'call',
          type: 'integration',
          integration: 'httpRequest',
          timing: 'async',
          params: { url: 'https://api.example.com/x' },
        },
        { id: 'again', type: 'goto', dialog: 'main', step: 'call' },
      ],
      { maxCallsWithoutInput: 3 },
    );
    const turn = runTurn(definition, fresh, { kind: 'start', dialogId: 'main' });
    expect(calls(turn)).toBe(3);
    expect(limitWarning(turn)).toMatchObject({ code: 'call_limit', detail: { stepId: 'call' } });
  });

  it('when the user writes between calls, then each message starts a new run', () => {
    const definition = bot(
      [
        { id: 'ask', type: 'input', prompt: 'Ask me.', saveTo: { variable: 'q' } },
        { id: 'call', type: 'integration', integration: 'httpRequest', params: { url: 'https://api.example.com/x' } },
        { id: 'again', type: 'goto', dialog: 'main', step: 'ask' },
      ],
      { maxCallsWithoutInput: 2 },
    );
    let state = runTurn(definition, fresh, { kind: 'start', dialogId: 'main' }).state;
    let made = 0;
    for (let i = 0; i < 6; i++) {
      const asked = runTurn(definition, state, { kind: 'text', text: `question ${i}` });
      made += calls(asked);
      const answered = runTurn(definition, asked.state, result('call'));
      expect(limitWarning(answered)).toBeUndefined();
      state = answered.state;
    }
    expect(made).toBe(6);
  });

  it('when a wait under a second loops, then it counts as a call; a wait of a second or more starts a new run', () => {
    const loopWith = (duration: string) =>
      bot(
        [
          { id: 'tick', type: 'wait', duration, then: 'said' },
          { id: 'said', type: 'message', text: 'tick' },
          { id: 'again', type: 'goto', dialog: 'main', step: 'tick' },
        ],
        { maxCallsWithoutInput: 4 },
      );
    const fire = (definition: BotDefinition, rounds: number) => {
      let turn = runTurn(definition, fresh, { kind: 'start', dialogId: 'main' });
      const seen: TurnResult[] = [turn];
      for (let i = 0; i < rounds && turn.effects.some((e) => e.type === 'scheduleTimer'); i++) {
        turn = runTurn(definition, turn.state, { kind: 'timer', timerId: 'main.tick' });
        seen.push(turn);
      }
      return seen;
    };
    const fast = fire(loopWith('0s'), 50);
    expect(fast.length).toBeLessThan(50);
    expect(limitWarning(fast.at(-1)!)).toMatchObject({ code: 'call_limit', detail: { stepId: 'tick', limit: 4 } });
    const slow = fire(loopWith('1s'), 50);
    expect(slow).toHaveLength(51);
    expect(slow.some(limitWarning)).toBe(false);
  });
});
