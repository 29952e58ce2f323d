import { describe, expect, it } from 'vitest';
import type { TurnResult } from '../engine/turn/types.ts';
import { turnEvents } from './observe-turn.ts';

const state = { position: null, variables: {}, userData: {} } as unknown as TurnResult['state'];

function result(extra: Partial<TurnResult> = {}): TurnResult {
  return { state, outputs: [], effects: [], trail: [], ...extra };
}

describe('what a turn tells its observers', () => {
  it('when the user writes and the bot moves on, then the events say who wrote what, the steps entered, the dialogs completed and how much the bot said', () => {
    const events = turnEvents({
      input: { kind: 'text', text: 'Ann' },
      userWrote: true,
      userEntry: { from: 'user', at: 1, clientId: 'c1', message: { type: 'text', text: 'Ann' } },
      result: result({
        outputs: [
          { type: 'text', text: 'Thanks' },
          { type: 'text', text: 'Bye' },
        ],
        visits: [
          { dialogId: 'main', stepId: 'age' },
          { dialogId: 'done', stepId: 'bye' },
        ],
        trail: [
          { kind: 'dialogStarted', dialogId: 'done' },
          { kind: 'dialogCompleted', dialogId: 'done' },
        ],
      }),
    });
    expect(events).toEqual([
      { kind: 'userWrote', text: 'Ann' },
      { kind: 'stepEntered', dialogId: 'main', stepId: 'age' },
      { kind: 'stepEntered', dialogId: 'done', stepId: 'bye' },
      { kind: 'dialogCompleted', dialogId: 'done' },
      { kind: 'botSaid', messages: 2 },
    ]);
  });

  it('when the models log what they read, then only free text nothing took and FAQ answers and misses are events', () => {
    const events = turnEvents({
      input: { kind: 'text', text: 'x' },
      userWrote: false,
      result: result({
        effects: [
          { type: 'nlpLog', fields: { query: 'where is my parcel', processed: false } } as never,
          { type: 'nlpLog', fields: { query: 'order pizza', processed: true } } as never,
          { type: 'faqLog', fields: { text: 'Do you deliver?', matched: false } } as never,
          { type: 'faqLog', fields: { text: 'opening hours', matched: true } } as never,
        ],
      }),
    });
    expect(events).toEqual([
      { kind: 'unprocessed', text: 'where is my parcel' },
      { kind: 'faqMissed', text: 'Do you deliver?' },
      { kind: 'faqAnswered' },
    ]);
  });

  it('when a page event, a trigger, a timer or a failed call wakes the conversation, then the first event names it', () => {
    const first = (input: Parameters<typeof turnEvents>[0]['input'], trigger?: { id: string }) =>
      turnEvents({ input, userWrote: false, result: result(), ...(trigger ? { trigger } : {}) })[0];
    expect(first({ kind: 'pageEvent', name: 'cart', payload: {} })).toEqual({ kind: 'pageEvent', name: 'cart' });
    expect(first({ kind: 'start', dialogId: 'promo' }, { id: 't1' })).toEqual({ kind: 'trigger', name: 'promo' });
    expect(first({ kind: 'start', dialogId: 'promo' })).toBeUndefined();
    expect(first({ kind: 'timer', timerId: 'remind' })).toEqual({ kind: 'timer', name: 'remind' });
    expect(
      first({
        kind: 'integrationResult',
        dialogId: 'd',
        stepId: 's',
        ok: false,
        error: { kind: 'timeout', message: 'late' },
      }),
    ).toEqual({ kind: 'integrationFailed' });
  });
});
