import { describe, expect, it } from 'vitest';
import { validateDefinition } from '../definition/load.ts';
import type { BotDefinition } from '../definition/schema.ts';
import { runTurn, understandingNeeded } from './engine.ts';
import type { ConversationState, EngineInput, NlpResult, TurnResult } from './turn/types.ts';

function bot(parts: Record<string, unknown>): BotDefinition {
  const result = validateDefinition({
    settings: { id: 'test', name: 'Test bot', startDialog: 'main', fallbackText: 'Say again?' },
    userDataFields: ['name', 'email', 'city'],
    ...parts,
  });
  if (!result.ok) throw new Error(result.problems.join('\n'));
  return result.definition;
}

const fresh: ConversationState = { position: null, variables: {}, userData: {} };

/** Runs inputs one after the other, like the app does, and keeps every turn. */
function converse(
  definition: BotDefinition,
  inputs: EngineInput[],
  state: ConversationState = fresh,
): { state: ConversationState; turns: TurnResult[] } {
  const turns: TurnResult[] = [];
  for (const input of inputs) {
    const turn = runTurn(definition, state, input);
    turns.push(turn);
    state = turn.state;
  }
  return { state, turns };
}

const texts = (turn: TurnResult | undefined) =>
  (turn?.outputs ?? []).map((o) => (o.type === 'text' ? o.text : `<${o.type}>`));
const start: EngineInput = { kind: 'start', dialogId: 'main' };
const say = (text: string, nlp?: NlpResult): EngineInput => ({
  kind: 'text',
  text,
  ...(nlp ? { understanding: { nlp } } : {}),
});
const nlp = (intent: string | null, score: number): NlpResult => ({
  modelId: 'm1',
  intent,
  score,
  classifications: intent ? [{ intent, score }] : [],
});

/** A fake clock and scheduler: timers the engine asks for fire when the clock passes them. */
class FakeTimers {
  now = 0;
  private due = new Map<string, number>();
  record(turn: TurnResult): void {
    for (const effect of turn.effects) {
      if (effect.type === 'scheduleTimer') this.due.set(effect.timerId, this.now + effect.delayMs);
      if (effect.type === 'cancelTimer') this.due.delete(effect.timerId);
    }
  }
  /** Moves the clock; returns the timer inputs that came due, in order. */
  advance(ms: number): EngineInput[] {
    this.now += ms;
    const fired = [...this.due].filter(([, at]) => at <= this.now).sort((a, b) => a[1] - b[1]);
    for (const [id] of fired) this.due.delete(id);
    return fired.map(([timerId]) => ({ kind: 'timer', timerId }));
  }
  get pending(): number {
    return this.due.size;
  }
}

describe('step kinds in the pure engine', () => {
  it('when a message step runs, then text (escaped values), buttons, quick replies, image and carousel come out in order', () => {
    const definition = bot({
      dialogs: [
        {
          id: 'main',
          steps: [
            { id: 'ask', type: 'input', prompt: 'Name?', saveTo: { userData: 'name' } },
            {
              id: 'm',
              type: 'message',
              text: 'Hi **{{name}}**',
              buttons: [
                { kind: 'postback', label: 'P', payload: 'p' },
                { kind: 'url', label: 'U', url: 'https://example.com/?n={{name}}' },
                { kind: 'dialog', label: 'D', dialog: 'main' },
              ],
              quickReplies: [{ label: 'Q', payload: 'q' }],
              image: { url: 'https://example.com/i.png', alt: 'pic' },
              cards: [
                { title: 'T {{name}}', subtitle: 'S', buttons: [{ kind: 'postback', label: 'B', payload: 'b' }] },
              ],
            },
          ],
        },
      ],
    });
    const { turns } = converse(definition, [start, say('[x](y)')]);
    expect(turns[1]?.outputs).toEqual([
      {
        type: 'text',
        text: 'Hi **\\[x\\]\\(y\\)**',
        buttons: [
          { kind: 'postback', label: 'P', payload: 'p' },
          { kind: 'url', label: 'U', url: 'https://example.com/?n=[x](y)' },
          { kind: 'dialog', label: 'D', dialogId: 'main' },
        ],
        quickReplies: [{ label: 'Q', payload: 'q' }],
      },
      { type: 'image', url: 'https://example.com/i.png', alt: 'pic' },
      {
        type: 'carousel',
        cards: [{ title: 'T [x](y)', subtitle: 'S', buttons: [{ kind: 'postback', label: 'B', payload: 'b' }] }],
      },
    ]);
  });

  it('when an input answer fails validation, then the retry prompt is said, and past maxRetries the step gives up to onMaxRetries', () => {
    const definition = bot({
      dialogs: [
        {
          id: 'main',
          steps: [
            {
              id: 'n',
              type: 'input',
              prompt: 'Number?',
              inputType: 'number',
              min: 1,
              max: 5,
              retryPrompt: '1 to 5, please.',
              maxRetries: 1,
              onMaxRetries: 'gave-up',
              saveTo: { variable: 'n' },
            },
            { id: 'ok', type: 'message', text: 'Got {{n}}.', next: 'end' },
            { id: 'gave-up', type: 'message', text: 'Never mind.' },
            { id: 'end', type: 'end' },
          ],
        },
      ],
    });
    const good = converse(definition, [start, say('abc'), say('4')]);
    expect(texts(good.turns[1])).toEqual(['1 to 5, please.']);
    expect(good.turns[1]?.state.position).toMatchObject({ stepId: 'n', retries: 1 });
    expect(texts(good.turns[2])).toEqual(['Got 4.']);
    expect(good.state.variables).toMatchObject({ n: 4 });

    const bad = converse(definition, [start, say('9'), say('0')]);
    expect(texts(bad.turns[2])).toEqual(['Never mind.']);
    expect(bad.state.position).toBeNull();
  });

  it.each([
    ['email', 'ada@example.com', 'ada@', 'ada@example.com'],
    ['phone', '+44 20 7946 0958', 'call me', '+442079460958'],
    ['regex', 'AB-12', 'ab12', 'AB-12'],
    ['text', ' hello ', '   ', 'hello'],
  ])(
    'when an input of type %s gets a valid and an invalid answer, then only the valid one is saved',
    (inputType, valid, invalid, saved) => {
      const definition = bot({
        dialogs: [
          {
            id: 'main',
            steps: [
              {
                id: 'i',
                type: 'input',
                prompt: 'Go',
                inputType,
                ...(inputType === 'regex' ? { pattern: '[A-Z]{2}-\\d{2}' } : {}),
                retryPrompt: 'Again',
                saveTo: { userData: 'city' },
              },
            ],
          },
        ],
      });
      const { turns, state } = converse(definition, [start, say(invalid), say(valid)]);
      expect(texts(turns[1])).toEqual(['Again']);
      expect(state.userData).toEqual({ city: saved });
    },
  );

  it('when a choice is picked by label or value, then its target runs; other text goes to NLP, then the retry prompt', () => {
    const definition = bot({
      dialogs: [
        {
          id: 'main',
          steps: [
            {
              id: 'c',
              type: 'input',
              prompt: 'Pick',
              inputType: 'choice',
              retryPrompt: 'Pick one',
              choices: [{ label: 'Red', value: 'r', then: { dialog: 'red' } }, { label: 'Blue' }],
              saveTo: { variable: 'colour' },
            },
            { id: 'blue', type: 'message', text: 'Blue it is.' },
          ],
        },
        { id: 'red', steps: [{ id: 'r', type: 'message', text: 'Red it is.' }] },
        { id: 'help', steps: [{ id: 'h', type: 'message', text: 'Help!' }] },
      ],
      intents: [{ id: 'help', dialog: 'help', utterances: ['help'] }],
    });
    const first = runTurn(definition, fresh, start);
    expect(first.outputs[0]).toEqual({
      type: 'text',
      text: 'Pick',
      quickReplies: [
        { label: 'Red', payload: 'r' },
        { label: 'Blue', payload: 'Blue' },
      ],
    });
    expect(texts(runTurn(definition, first.state, { kind: 'postback', payload: 'r', label: 'Red' }))).toEqual([
      'Red it is.',
    ]);
    expect(texts(runTurn(definition, first.state, say('blue')))).toEqual(['Blue it is.']);
    expect(understandingNeeded(definition, first.state, say('blue'))).toEqual({ nlp: false, faq: false });
    expect(understandingNeeded(definition, first.state, say('help me'))).toEqual({ nlp: true, faq: false });
    expect(texts(runTurn(definition, first.state, say('help me', nlp('help', 0.95))))).toEqual(['Help!']);
    const unclear = runTurn(definition, first.state, say('green', nlp('help', 0.2)));
    expect(texts(unclear)).toEqual(['Pick one']);
    expect(unclear.effects).toContainEqual({
      type: 'nlpLog',
      fields: expect.objectContaining({ processed: false, stepId: 'c', stepType: 'input', query: 'green' }),
    });
  });

  it('when a condition step runs, then the first branch whose conditions all hold decides, else the else branch', () => {
    const branch = (when: unknown) => ({
      dialogs: [
        {
          id: 'main',
          steps: [
            { id: 'c', type: 'condition', branches: [{ when, then: 'yes' }], else: 'no' },
            { id: 'yes', type: 'message', text: 'yes', next: 'end' },
            { id: 'no', type: 'message', text: 'no' },
            { id: 'end', type: 'end' },
          ],
        },
      ],
    });
    const state: ConversationState = {
      position: null,
      variables: { n: 5, s: 'Hello World', list: ['a', 'b'], obj: { deep: 'x' }, blank: '' },
      userData: { city: 'Oslo' },
    };
    const cases: [unknown, string][] = [
      [{ variable: 'city', op: 'equals', value: 'Oslo' }, 'yes'],
      [{ variable: 'city', op: 'notEquals', value: 'Oslo' }, 'no'],
      [{ variable: 'blank', op: 'empty' }, 'yes'],
      [{ variable: 'missing', op: 'empty' }, 'yes'],
      [{ variable: 'obj', op: 'notEmpty' }, 'yes'],
      [{ variable: 'n', op: 'greater', value: 4 }, 'yes'],
      [{ variable: 'n', op: 'less', value: 4 }, 'no'],
      [{ variable: 's', op: 'contains', value: 'world' }, 'yes'],
      [{ variable: 'list', op: 'contains', value: 'b' }, 'yes'],
      [{ variable: 's', op: 'matches', value: '^Hel+o' }, 'yes'],
      [{ variable: 'city', op: 'in', value: ['Bergen', 'Oslo'] }, 'yes'],
      [{ variable: 'obj.deep', op: 'equals', value: 'x' }, 'yes'],
      [
        [
          { variable: 'n', op: 'greater', value: 1 },
          { variable: 'n', op: 'less', value: 3 },
        ],
        'no',
      ],
    ];
    for (const [when, expected] of cases) {
      expect([when, texts(runTurn(bot(branch(when)), state, start))]).toEqual([when, [expected]]);
    }
  });

  it('when a set step runs, then variables and user data are set, unset and appended from literals and templates', () => {
    const definition = bot({
      dialogs: [
        {
          id: 'main',
          steps: [
            {
              id: 's',
              type: 'set',
              actions: [
                { op: 'set', variable: 'count', value: 1 },
                { op: 'set', userData: 'city', template: '{{town}}!' },
                { op: 'unset', variable: 'town' },
                { op: 'append', variable: 'tags', value: 'a' },
                { op: 'append', variable: 'tags', template: 'b{{count}}' },
              ],
            },
          ],
        },
      ],
    });
    const turn = runTurn(definition, { position: null, variables: { town: 'Oslo' }, userData: {} }, start);
    expect(turn.state.variables).toEqual({ count: 1, tags: ['a', 'b1'] });
    expect(turn.state.userData).toEqual({ city: 'Oslo!' });
  });

  it('when a wait step times out on the fake clock, then the conversation goes to its target; a started dialog cancels it first', () => {
    const definition = bot({
      dialogs: [
        {
          id: 'main',
          steps: [
            { id: 'm', type: 'message', text: 'Working on it.' },
            { id: 'w', type: 'wait', duration: '10m', then: 'late' },
            { id: 'late', type: 'message', text: 'No answer in time.' },
          ],
        },
        { id: 'done', steps: [{ id: 'd', type: 'message', text: 'Done!' }] },
      ],
    });
    const clock = new FakeTimers();
    let turn = runTurn(definition, fresh, start);
    clock.record(turn);
    expect(turn.effects).toContainEqual({ type: 'scheduleTimer', timerId: 'main.w', delayMs: 600_000 });
    expect(turn.state.position).toMatchObject({ stepId: 'w', awaiting: true });
    expect(clock.advance(599_999)).toEqual([]);
    const [due] = clock.advance(1);
    expect(due).toEqual({ kind: 'timer', timerId: 'main.w' });
    turn = runTurn(definition, turn.state, due!);
    expect(texts(turn)).toEqual(['No answer in time.']);
    expect(turn.state.variables).toEqual({});

    // Again, but the success dialog (a trigger) starts before the time is up.
    const again = runTurn(definition, fresh, start);
    clock.record(again);
    const success = runTurn(definition, again.state, { kind: 'start', dialogId: 'done' });
    clock.record(success);
    expect(success.effects).toContainEqual({ type: 'cancelTimer', timerId: 'main.w' });
    expect(clock.pending).toBe(0);
    // A timer that fires anyway (it was already claimed) changes nothing.
    const late = runTurn(definition, success.state, { kind: 'timer', timerId: 'main.w' });
    expect(late.outputs).toEqual([]);
    expect(late.state).toEqual(success.state);
  });

  it('when a wait step lists user input and page events, then either cancels it; background lets the dialog go on', () => {
    const definition = bot({
      dialogs: [
        {
          id: 'main',
          steps: [
            {
              id: 'w',
              type: 'wait',
              duration: '30s',
              then: 'late',
              background: true,
              cancelOn: { dialogStart: false, userInput: true, pageEvents: ['paid'] },
            },
            { id: 'ask', type: 'input', prompt: 'Still there?', saveTo: { variable: 'x' } },
            { id: 'late', type: 'message', text: 'Too late.' },
          ],
        },
      ],
    });
    const started = runTurn(definition, fresh, start);
    expect(texts(started)).toEqual(['Still there?']);
    const answered = runTurn(definition, started.state, say('yes'));
    expect(answered.effects).toContainEqual({ type: 'cancelTimer', timerId: 'main.w' });
    const paid = runTurn(definition, started.state, { kind: 'pageEvent', name: 'paid', payload: {} });
    expect(paid.effects).toContainEqual({ type: 'cancelTimer', timerId: 'main.w' });
    const other = runTurn(definition, started.state, { kind: 'pageEvent', name: 'scrolled', payload: {} });
    expect(other.effects).toEqual([]);
  });

  it('when an event step runs, then a bot event with the templated payload is asked for', () => {
    const definition = bot({
      dialogs: [
        {
          id: 'main',
          steps: [
            { id: 'e', type: 'event', name: 'close-chat', payload: { who: '{{name}}', n: 2, list: ['{{name}}'] } },
          ],
        },
      ],
    });
    const turn = runTurn(definition, { ...fresh, userData: { name: 'Ada' } }, start);
    expect(turn.effects).toEqual([
      { type: 'botEvent', name: 'close-chat', payload: { who: 'Ada', n: 2, list: ['Ada'] } },
    ]);
  });

  it('when clearUserData runs, then a snapshot of every field is asked for and the fields are cleared', () => {
    const definition = bot({ dialogs: [{ id: 'main', steps: [{ id: 'c', type: 'clearUserData' }] }] });
    const turn = runTurn(definition, { ...fresh, userData: { name: 'Ada', email: 'a@x.io' } }, start);
    expect(turn.effects).toEqual([{ type: 'snapshotUserData', data: { name: 'Ada', email: 'a@x.io', city: null } }]);
    expect(turn.state.userData).toEqual({});
  });

  it('when email and sms steps run, then rendered sends are asked for, and a reported failure follows onError', () => {
    const definition = bot({
      dialogs: [
        {
          id: 'main',
          steps: [
            {
              id: 'mail',
              type: 'email',
              to: '{{email}}, boss@x.io',
              cc: 'cc@x.io',
              subject: 'Hi {{name}}',
              body: 'Body {{name}}',
              onError: 'oops',
            },
            { id: 'text', type: 'sms', to: '+4712345678', message: 'Hi {{name}}', link: 'https://x.io/{{name}}' },
            { id: 'ok', type: 'message', text: 'Sent.', next: 'end' },
            { id: 'oops', type: 'message', text: 'Mail failed.' },
            { id: 'end', type: 'end' },
          ],
        },
      ],
    });
    const turn = runTurn(definition, { ...fresh, userData: { name: 'Ada', email: 'ada@x.io' } }, start);
    expect(turn.effects).toEqual([
      {
        type: 'email',
        dialogId: 'main',
        stepId: 'mail',
        to: ['ada@x.io', 'boss@x.io'],
        cc: ['cc@x.io'],
        replyTo: null,
        subject: 'Hi Ada',
        body: 'Body Ada',
      },
      {
        type: 'sms',
        dialogId: 'main',
        stepId: 'text',
        to: ['+4712345678'],
        message: 'Hi Ada',
        link: 'https://x.io/Ada',
      },
    ]);
    expect(texts(turn)).toEqual(['Sent.']);
    expect(texts(runTurn(definition, turn.state, { kind: 'failed', dialogId: 'main', stepId: 'mail' }))).toEqual([
      'Mail failed.',
    ]);
    expect(runTurn(definition, turn.state, { kind: 'failed', dialogId: 'main', stepId: 'text' }).outputs).toEqual([]);
  });

  it('when an nlp step gets text, then a passing intent starts its dialog (logged processed) and a weak one says the fallback (logged unprocessed)', () => {
    const definition = bot({
      settings: { id: 'test', name: 'Test', startDialog: 'main', fallbackText: 'Say again?', nlpThreshold: 0.7 },
      dialogs: [
        { id: 'main', steps: [{ id: 'listen', type: 'nlp', prompt: 'What do you need?' }] },
        { id: 'order', steps: [{ id: 'o', type: 'message', text: 'Ordering.' }] },
      ],
      intents: [{ id: 'order', dialog: 'order', utterances: ['I want to order'] }],
    });
    const started = runTurn(definition, fresh, start);
    expect(understandingNeeded(definition, started.state, say('x'))).toEqual({ nlp: true, faq: false });
    const routed = runTurn(definition, started.state, say('buy stuff', nlp('order', 0.9)));
    expect(texts(routed)).toEqual(['Ordering.']);
    expect(routed.effects).toContainEqual({
      type: 'nlpLog',
      fields: {
        dialogId: 'main',
        stepId: 'listen',
        stepType: 'nlp',
        query: 'buy stuff',
        modelId: 'm1',
        intent: 'order',
        result: expect.objectContaining({ score: 0.9, dialog: 'order' }),
        processed: true,
      },
    });
    const weak = runTurn(definition, started.state, say('meh', nlp('order', 0.5)));
    expect(texts(weak)).toEqual(['Say again?']);
    expect(weak.state.position).toMatchObject({ stepId: 'listen', awaiting: true });
    expect(weak.effects).toContainEqual({
      type: 'nlpLog',
      fields: expect.objectContaining({ processed: false, intent: 'order' }),
    });
  });

  it('when text arrives where nothing awaits it, then NLP may route it to an intent dialog', () => {
    const definition = bot({
      dialogs: [
        { id: 'main', steps: [{ id: 'm', type: 'message', text: 'Hello.' }] },
        { id: 'help', steps: [{ id: 'h', type: 'message', text: 'Helping.' }] },
      ],
      intents: [{ id: 'help', dialog: 'help', utterances: ['help'] }],
    });
    const done = runTurn(definition, fresh, start);
    expect(understandingNeeded(definition, done.state, say('help'))).toEqual({ nlp: true, faq: false });
    expect(texts(runTurn(definition, done.state, say('help please', nlp('help', 0.99))))).toEqual(['Helping.']);
  });

  it('when a faq step gets a question, then a close match is answered, a far one is not, and both are logged', () => {
    const definition = bot({
      dialogs: [
        {
          id: 'main',
          steps: [
            { id: 'q', type: 'faq', prompt: 'Ask away.', noMatchText: 'No idea.' },
            { id: 'e', type: 'end' },
          ],
        },
      ],
      faq: [{ id: 'hours', questions: ['When are you open?'], answer: 'Always.' }],
    });
    const started = runTurn(definition, fresh, start);
    expect(understandingNeeded(definition, started.state, say('x'))).toEqual({ nlp: false, faq: true });
    const hit = runTurn(definition, started.state, {
      kind: 'text',
      text: 'when open',
      understanding: { faq: { id: 'hours', score: 0.8, others: [] } },
    });
    expect(texts(hit)).toEqual(['Always.']);
    expect(hit.effects).toEqual([
      {
        type: 'faqLog',
        fields: {
          intent: 'hours',
          score: 0.8,
          text: 'when open',
          stepId: 'q',
          dialogId: 'main',
          matched: true,
          otherClassifications: [],
        },
      },
    ]);
    const miss = runTurn(definition, started.state, {
      kind: 'text',
      text: 'weather?',
      understanding: { faq: { id: 'hours', score: 0.1, others: [{ id: 'x', score: 0.05 }] } },
    });
    expect(texts(miss)).toEqual(['No idea.']);
    expect(miss.effects[0]).toMatchObject({
      type: 'faqLog',
      fields: { matched: false, otherClassifications: [{ intent: 'x', score: 0.05 }] },
    });
  });

  it('when a page event is routed in the definition, then it starts its dialog', () => {
    const definition = bot({
      dialogs: [
        { id: 'main', steps: [{ id: 'm', type: 'message', text: 'Hi.' }] },
        {
          id: 'cart',
          steps: [
            { id: 'c', type: 'message', text: 'Need help with your cart?' },
            { id: 'e', type: 'end' },
          ],
        },
      ],
      pageEvents: [{ name: 'cart-opened', dialog: 'cart' }],
    });
    expect(texts(runTurn(definition, fresh, { kind: 'pageEvent', name: 'cart-opened', payload: {} }))).toEqual([
      'Need help with your cart?',
    ]);
  });
});
