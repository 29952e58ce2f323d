import { describe, expect, it } from 'vitest';
import { validateDefinition } from '../definition/load.ts';
import type { BotDefinition } from '../definition/schema.ts';
import { runTurn } from './engine.ts';
import type { ConversationState, EngineInput, IntegrationEffect, TurnResult } from './turn/types.ts';

function bot(steps: unknown[], more: Record<string, unknown> = {}): BotDefinition {
  const result = validateDefinition({
    settings: { id: 'test', name: 'Test bot', startDialog: 'main' },
    dialogs: [
      { id: 'main', steps },
      { id: 'rescue', steps: [{ id: 'r', type: 'message', text: 'Rescued.' }] },
    ],
    ...more,
  });
  if (!result.ok) throw new Error(result.problems.join('\n'));
  return result.definition;
}

const fresh: ConversationState = { position: null, variables: { authToken: 't' }, userData: {} };
const start: EngineInput = { kind: 'start', dialogId: 'main' };
const texts = (turn: TurnResult) =>
  turn.outputs.map((o) =>
    o.type === 'text' ? o.text : o.type === 'notice' ? `<notice ${o.level}: ${o.text}>` : `<${o.type}>`,
  );
const call = (turn: TurnResult) => turn.effects.find((e): e is IntegrationEffect => e.type === 'integration');
const failed = (kind: string): EngineInput => ({
  kind: 'integrationResult',
  dialogId: 'main',
  stepId: 'call',
  ok: false,
  error: { kind, message: `it failed (${kind})` },
});
const succeeded = (output: unknown): EngineInput => ({
  kind: 'integrationResult',
  dialogId: 'main',
  stepId: 'call',
  ok: true,
  output,
});

const callStep = (extra: Record<string, unknown> = {}) => ({
  id: 'call',
  type: 'integration',
  integration: 'listUserEvents',
  service: 'crm',
  params: { userId: '{{userId}}' },
  ...extra,
});

describe('integration steps in the engine', () => {
  it('when the product keeps variables of its own ($-named, such as the insights trail), then a call never carries them', () => {
    const definition = bot([callStep()]);
    const turn = runTurn(
      definition,
      { ...fresh, variables: { authToken: 't', $trail: { t: 'my words' }, $timers: {} } },
      start,
    );
    expect(call(turn)?.variables).toEqual({ authToken: 't' });
    expect(turn.state.variables).toMatchObject({ $trail: { t: 'my words' } });
  });

  it('when a synchronous step is reached, then the engine asks for the call with what the step saw and rests on the step', () => {
    const definition = bot([
      { id: 'hi', type: 'message', text: 'Looking…' },
      callStep({ output: 'events' }),
      { id: 'after', type: 'message', text: 'Got {{events}}' },
    ]);
    const turn = runTurn(definition, fresh, start);
    expect(texts(turn)).toEqual(['Looking…']);
    expect(call(turn)).toEqual({
      type: 'integration',
      dialogId: 'main',
      stepId: 'call',
      timing: 'sync',
      variables: { authToken: 't' },
      userData: {},
    });
    expect(turn.state.position).toMatchObject({ dialogId: 'main', stepId: 'call', awaiting: true });

    const done = runTurn(definition, turn.state, succeeded(3));
    expect(texts(done)).toEqual(['Got 3']);
    expect(done.state.variables.events).toBe(3);
    expect(done.state.position).toBeNull();
  });

  it('when a result comes back for a step the conversation has left, then nothing happens', () => {
    const definition = bot([callStep(), { id: 'after', type: 'message', text: 'After' }]);
    const resting = runTurn(definition, fresh, start).state;
    const done = runTurn(definition, resting, succeeded(1));
    const again = runTurn(definition, done.state, succeeded(1));
    expect(texts(again)).toEqual([]);
    expect(again.state).toEqual(done.state);
  });

  it('when an asynchronous step is reached, then the call is asked for and the tree continues at once', () => {
    const definition = bot([
      callStep({ timing: 'async' }),
      { id: 'after', type: 'set', actions: [{ op: 'set', variable: 'later', value: 1 }] },
      { id: 'said', type: 'message', text: 'Queued.' },
    ]);
    const turn = runTurn(definition, fresh, start);
    expect(texts(turn)).toEqual(['Queued.']);
    expect(call(turn)).toMatchObject({ timing: 'async', variables: { authToken: 't' } });
    expect(call(turn)?.variables).not.toHaveProperty('later');
    expect(turn.state.position).toBeNull();
  });

  it('when the call fails under the fatal policy, then a fatal notice is said and the conversation ends', () => {
    const definition = bot([
      callStep({ errorText: 'We are down, sorry.' }),
      { id: 'after', type: 'message', text: 'After' },
    ]);
    const turn = runTurn(definition, runTurn(definition, fresh, start).state, failed('timeout'));
    expect(texts(turn)).toEqual(['<notice fatal: We are down, sorry.>']);
    expect(turn.state.position).toBeNull();
    expect(turn.effects).toContainEqual({
      type: 'warn',
      code: 'integration_error_policy',
      detail: { dialogId: 'main', stepId: 'call', errorKind: 'timeout', policy: 'fatal' },
    });
  });

  it('when the call fails under the dialog policy, then the named dialog runs', () => {
    const definition = bot([callStep({ onError: 'dialog:rescue' }), { id: 'after', type: 'message', text: 'After' }]);
    const turn = runTurn(definition, runTurn(definition, fresh, start).state, failed('network'));
    expect(texts(turn)).toEqual(['Rescued.']);
  });

  it('when the call fails under the flag policy, then the flag and its error kind are set and the tree branches on them; a later success clears the flag', () => {
    const definition = bot([
      callStep({ onError: 'flag:crmDown', output: 'events' }),
      {
        id: 'check',
        type: 'condition',
        branches: [{ when: { variable: 'crmDown', op: 'equals', value: true }, then: 'down' }],
      },
      { id: 'up', type: 'message', text: 'Up: {{events}}', next: 'end' },
      { id: 'down', type: 'message', text: 'Down ({{crmDownError}})' },
      { id: 'end', type: 'end' },
    ]);
    const down = runTurn(definition, runTurn(definition, fresh, start).state, failed('invalid_body'));
    expect(texts(down)).toEqual(['Down (invalid\\_body)']); // values are markdown-escaped
    expect(down.state.variables).toMatchObject({ crmDown: true, crmDownError: 'invalid_body' });
    const up = runTurn(definition, runTurn(definition, down.state, start).state, succeeded('ok'));
    expect(texts(up)).toEqual(['Up: ok']);
    expect(up.state.variables.crmDown).toBe(false);
    expect(up.state.variables).not.toHaveProperty('crmDownError');
  });

  it('when the flag and its error kind are declared user-data fields, then they are saved to user data (the export shows them) and a success clears them there', () => {
    const definition = bot(
      [
        callStep({ onError: 'flag:apiFlag' }),
        {
          id: 'check',
          type: 'condition',
          branches: [{ when: { variable: 'apiFlag', op: 'equals', value: true }, then: 'down' }],
        },
        { id: 'up', type: 'message', text: 'Up', next: 'end' },
        { id: 'down', type: 'message', text: 'Down ({{apiFlagError}})' },
        { id: 'end', type: 'end' },
      ],
      { userDataFields: ['apiFlag', 'apiFlagError'] },
    );
    const down = runTurn(definition, runTurn(definition, fresh, start).state, failed('timeout'));
    expect(texts(down)).toEqual(['Down (timeout)']);
    expect(down.state.userData).toMatchObject({ apiFlag: true, apiFlagError: 'timeout' });
    expect(down.state.variables).not.toHaveProperty('apiFlag');
    const up = runTurn(definition, runTurn(definition, down.state, start).state, succeeded('ok'));
    expect(texts(up)).toEqual(['Up']);
    expect(up.state.userData.apiFlag).toBe(false);
    expect(up.state.userData).not.toHaveProperty('apiFlagError');
  });

  it('when a message takes its cards from a variable, then valid cards make a carousel and an empty list says noCardsText', () => {
    const definition = bot([{ id: 'show', type: 'message', text: 'Yours:', cardsFrom: 'cards', noCardsText: 'None.' }]);
    const cards = [
      {
        title: 'Meetup',
        subtitle: '1 May',
        buttons: [{ kind: 'postback', label: 'Go', payload: 'go' }, { kind: 'evil' }],
      },
      { subtitle: 'no title' },
      'junk',
      { title: 'Talk', imageUrl: 'javascript:alert(1)' },
    ];
    const shown = runTurn(definition, { ...fresh, variables: { cards } }, start);
    expect(shown.outputs).toEqual([
      { type: 'text', text: 'Yours:' },
      {
        type: 'carousel',
        cards: [
          { title: 'Meetup', subtitle: '1 May', buttons: [{ kind: 'postback', label: 'Go', payload: 'go' }] },
          { title: 'Talk' },
        ],
      },
    ]);
    expect(texts(runTurn(definition, { ...fresh, variables: { cards: [] } }, start))).toEqual(['Yours:', 'None.']);
  });

  it('when an integration step names a missing dialog or misplaces fields, then validation names the path', () => {
    const result = validateDefinition({
      settings: { id: 'test', name: 'Test bot', startDialog: 'main' },
      dialogs: [
        {
          id: 'main',
          steps: [
            { id: 'a', type: 'integration', integration: 'listUserEvents', onError: 'dialog:ghost' },
            { id: 'b', type: 'integration', integration: 'createUser', onError: 'flag:x', errorText: 'Oops' },
            { id: 'c', type: 'integration', integration: 'createUser', onError: 'retry' },
          ],
        },
      ],
    });
    expect(result.ok ? [] : result.problems).toEqual([
      'dialogs[0].steps[2].onError: must be "fatal", "dialog:<dialogId>" or "flag:<camelCaseVariable>"',
    ]);
    const refs = validateDefinition({
      settings: { id: 'test', name: 'Test bot', startDialog: 'main' },
      dialogs: [
        {
          id: 'main',
          steps: [
            { id: 'a', type: 'integration', integration: 'listUserEvents', onError: 'dialog:ghost' },
            { id: 'b', type: 'integration', integration: 'createUser', onError: 'flag:x', errorText: 'Oops' },
          ],
        },
      ],
    });
    expect(refs.ok ? [] : refs.problems).toEqual([
      'dialogs[0].steps[0].onError: no dialog "ghost"',
      'dialogs[0].steps[1].errorText: only said when onError is "fatal"',
    ]);
  });
});
