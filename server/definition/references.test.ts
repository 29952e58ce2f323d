import { describe, expect, it } from 'vitest';
import { validateDefinition } from './load.ts';

const settings = { id: 'shop', name: 'Shop bot', startDialog: 'main' };

function problems(parts: Record<string, unknown>, env?: Record<string, string>): string[] {
  const result = validateDefinition({ settings, ...parts }, env ? { env } : {});
  return result.ok ? [] : result.problems;
}

describe('bot definition references and rules', () => {
  it('when targets of every step kind are broken, then each is listed with its path', () => {
    expect(
      problems({
        userDataFields: ['name'],
        dialogs: [
          {
            id: 'main',
            steps: [
              {
                id: 'c',
                type: 'condition',
                branches: [{ when: { variable: 'x', op: 'equals', value: 1 }, then: 'nowhere' }],
                else: { dialog: 'ghost' },
              },
              { id: 'w', type: 'wait', duration: '1m', then: { dialog: 'main', step: 'nope' } },
              {
                id: 'i',
                type: 'input',
                prompt: 'p',
                inputType: 'choice',
                choices: [{ label: 'A', then: 'zzz' }],
                onMaxRetries: 'yyy',
              },
              { id: 'e', type: 'email', to: 'a@b.c', subject: 's', body: 'b', onError: 'oops' },
              { id: 'm', type: 'message', text: 't', buttons: [{ kind: 'dialog', label: 'x', dialog: 'ghost' }] },
              { id: 'x', type: 'clearUserData', fields: ['email'] },
            ],
          },
        ],
        intents: [{ id: 'buy', dialog: 'ghost', utterances: ['buy'] }],
        pageEvents: [{ name: 'cart', dialog: 'ghost' }],
      }),
    ).toEqual([
      'dialogs[0].steps[0].branches[0].then: no step "nowhere" in dialog "main"',
      'dialogs[0].steps[0].else.dialog: no dialog "ghost"',
      'dialogs[0].steps[1].then.step: no step "nope" in dialog "main"',
      'dialogs[0].steps[2].choices[0].then: no step "zzz" in dialog "main"',
      'dialogs[0].steps[2].onMaxRetries: no step "yyy" in dialog "main"',
      'dialogs[0].steps[3].onError: no step "oops" in dialog "main"',
      'dialogs[0].steps[4].buttons[0].dialog: no dialog "ghost"',
      'dialogs[0].steps[5].fields[0]: "email" is not in userDataFields',
      'intents[0].dialog: no dialog "ghost"',
      'pageEvents[0].dialog: no dialog "ghost"',
    ]);
  });

  it('when the integrations block is not services and datasets, then the path is named (the server checks the rest at start-up)', () => {
    expect(
      problems(
        {
          dialogs: [{ id: 'main', steps: [{ id: 'a', type: 'end' }] }],
          integrations: { services: { crm: 'https://crm' }, queues: [] },
        },
        {},
      ),
    ).toEqual([
      'integrations.services.crm: must be an object (got string "https://crm")',
      'integrations.queues: unknown key "queues". Known keys: "services", "datasets"',
    ]);
  });

  it('when rules between fields are broken, then each is explained', () => {
    expect(
      problems({
        dialogs: [
          {
            id: 'main',
            steps: [
              { id: 'r', type: 'input', prompt: 'p', inputType: 'regex', pattern: '(' },
              {
                id: 's',
                type: 'set',
                actions: [
                  { op: 'set', variable: 'a', userData: 'b' },
                  { op: 'unset', variable: 'a', value: 1 },
                ],
              },
              { id: 'n', type: 'nlp' },
              { id: 'm', type: 'message', buttons: [] },
              { id: 'c', type: 'condition', branches: [{ when: { variable: 'x', op: 'in', value: 'a' }, then: 'r' }] },
            ],
          },
        ],
      }).map((p) => p.replace(/\(.*\)$/, '(…)')),
    ).toEqual([
      'dialogs[0].steps[0].pattern: not a valid regular expression (…)',
      'dialogs[0].steps[1].actions[0]: name exactly one of "variable" or "userData"',
      'dialogs[0].steps[1].actions[0].userData: "b" is not in userDataFields',
      'dialogs[0].steps[1].actions[0]: "set" needs a value or a template',
      'dialogs[0].steps[1].actions[1]: "unset" takes no value or template',
      'dialogs[0].steps[2]: an nlp step needs intents; the definition has none',
      'dialogs[0].steps[3]: a message needs text, an image, cards or cardsFrom',
      'dialogs[0].steps[3].text: buttons and quick replies belong to a text; add one',
      'dialogs[0].steps[4].branches[0].when.value: "in" needs a list',
    ]);
  });

  it('when a wait step names a duration variable, then a set value replaces the duration and a bad one is refused', () => {
    const parts = {
      dialogs: [
        {
          id: 'main',
          steps: [{ id: 'w', type: 'wait', duration: '10m', durationEnv: 'NO_ANSWER_TIMEOUT', then: 'w' }],
        },
      ],
    };
    const set = validateDefinition({ settings, ...parts }, { env: { NO_ANSWER_TIMEOUT: '2s' } });
    expect(set.ok && set.definition.dialogs[0]?.steps[0]).toMatchObject({ duration: '2s' });
    const unset = validateDefinition({ settings, ...parts }, { env: {} });
    expect(unset.ok && unset.definition.dialogs[0]?.steps[0]).toMatchObject({ duration: '10m' });
    expect(problems(parts, { NO_ANSWER_TIMEOUT: 'soon' })).toEqual([
      'dialogs[0].steps[0].durationEnv: NO_ANSWER_TIMEOUT must be a duration such as "30s" or "10m" (got "soon")',
    ]);
  });
});
