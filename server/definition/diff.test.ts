import { describe, expect, it } from 'vitest';
import { diffDefinitions } from './diff.ts';

const live = {
  settings: { id: 'shop', name: 'Shop', startDialog: 'main' },
  dialogs: [
    {
      id: 'main',
      steps: [
        { id: 'hello', type: 'message', text: 'Hi' },
        { id: 'ask', type: 'input', prompt: 'Name?' },
        { id: 'bye', type: 'message', text: 'Bye' },
      ],
    },
    {
      id: 'old',
      steps: [
        { id: 'x', type: 'end' },
        { id: 'y', type: 'end' },
      ],
    },
  ],
  intents: [{ id: 'greet', dialog: 'main', utterances: ['hi'] }],
};

describe('the diff in words between the live version and the one to publish', () => {
  it('when dialogs and steps are added, removed and changed, then each change is named with its path, ids and fields', () => {
    const next = {
      settings: { id: 'shop', name: 'Shop 2', startDialog: 'main' },
      dialogs: [
        {
          id: 'main',
          steps: [
            { id: 'hello', type: 'message', text: 'Hello' },
            { id: 'question', type: 'input', prompt: 'Name?' },
            { id: 'bye', type: 'message', text: 'Bye' },
          ],
        },
        { id: 'help', steps: [{ id: 'offer', type: 'input', prompt: 'How can I help?' }] },
      ],
      intents: [{ id: 'greet', dialog: 'main', utterances: ['hi', 'hello'] }],
      faq: [{ id: 'hours', questions: ['When?'], answer: '9-5' }],
    };
    expect(diffDefinitions(live, next)).toEqual([
      { kind: 'changed', what: 'settings', path: 'settings', fields: ['name'], words: 'Settings changed: name.' },
      {
        kind: 'changed',
        what: 'step',
        path: 'dialogs[0].steps[0]',
        dialogId: 'main',
        stepId: 'hello',
        fields: ['text'],
        words: 'Step "hello" in dialog "main" changed: text.',
      },
      {
        kind: 'added',
        what: 'step',
        path: 'dialogs[0].steps[1]',
        dialogId: 'main',
        stepId: 'question',
        words: 'Step "question" added to dialog "main".',
      },
      {
        kind: 'removed',
        what: 'step',
        path: 'dialogs[0].steps[1]',
        dialogId: 'main',
        stepId: 'ask',
        words: 'Step "ask" removed from dialog "main".',
      },
      { kind: 'added', what: 'dialog', path: 'dialogs[1]', dialogId: 'help', words: 'Dialog "help" added (1 step).' },
      {
        kind: 'removed',
        what: 'dialog',
        path: 'dialogs[1]',
        dialogId: 'old',
        words: 'Dialog "old" removed (2 steps).',
      },
      {
        kind: 'changed',
        what: 'intent',
        path: 'intents[0]',
        id: 'greet',
        fields: ['utterances'],
        words: 'Intent "greet" changed: utterances.',
      },
      { kind: 'added', what: 'faq', path: 'faq[0]', id: 'hours', words: 'FAQ pair "hours" added.' },
    ]);
  });

  it('when steps only change places, then the dialog is named as reordered and no step as removed', () => {
    const next = {
      ...live,
      dialogs: [
        { id: 'main', steps: [live.dialogs[0]!.steps[1], live.dialogs[0]!.steps[0], live.dialogs[0]!.steps[2]] },
        live.dialogs[1],
      ],
    };
    expect(diffDefinitions(live, next)).toEqual([
      {
        kind: 'changed',
        what: 'dialog',
        path: 'dialogs[0]',
        dialogId: 'main',
        fields: ['order'],
        words: 'Steps of dialog "main" reordered.',
      },
    ]);
  });

  it('when nothing changed, or only the key order, then the diff is empty', () => {
    expect(diffDefinitions(live, structuredClone(live))).toEqual([]);
    const reordered = {
      intents: live.intents,
      dialogs: live.dialogs,
      settings: { startDialog: 'main', name: 'Shop', id: 'shop' },
    };
    expect(diffDefinitions(live, reordered)).toEqual([]);
  });

  it('when a file as written is compared with its stored form, whose keys are in order at every level, then nothing is named as changed', () => {
    const written = {
      settings: { id: 'shop' },
      integrations: { services: { crm: { baseUrlEnv: 'CRM_URL', baseUrl: 'https://crm.example.com/' } } },
      dialogs: [
        { id: 'd', steps: [{ id: 's', type: 'event', name: 'x', payload: { reason: 'r', name: '{{name}}' } }] },
      ],
    };
    const stored = {
      settings: { id: 'shop' },
      integrations: { services: { crm: { baseUrl: 'https://crm.example.com/', baseUrlEnv: 'CRM_URL' } } },
      dialogs: [
        { id: 'd', steps: [{ id: 's', type: 'event', name: 'x', payload: { name: '{{name}}', reason: 'r' } }] },
      ],
    };
    expect(diffDefinitions(written, stored)).toEqual([]);
    const changed = structuredClone(stored);
    changed.dialogs[0]!.steps[0]!.payload.reason = 'other';
    expect(diffDefinitions(written, changed).map((c) => c.words)).toEqual(['Step "s" in dialog "d" changed: payload.']);
  });

  it('when the other parts change, or a definition is not the expected shape, then the whole part is named and nothing throws', () => {
    expect(diffDefinitions(live, { ...live, integrations: { services: {} }, pageEvents: [] })).toEqual([
      { kind: 'added', what: 'part', path: 'integrations', id: 'integrations', words: 'integrations added.' },
      { kind: 'added', what: 'part', path: 'pageEvents', id: 'pageEvents', words: 'pageEvents added.' },
    ]);
    expect(diffDefinitions(null, [1, 2])).toEqual([]);
    expect(diffDefinitions({ dialogs: 'nope' }, { dialogs: [{ id: 'a', steps: 'x' }, 7] })).toEqual([
      { kind: 'added', what: 'dialog', path: 'dialogs[0]', dialogId: 'a', words: 'Dialog "a" added (0 steps).' },
    ]);
  });
});
