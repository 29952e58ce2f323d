import type { DefinitionDoc } from '../types.ts';

/** A small bot that names dialogs and steps in every place a reference can stand. */
export function everyReference(): DefinitionDoc {
  return {
    settings: { id: 'shop', name: 'Shop', startDialog: 'order', recoveryDialog: 'order' },
    userDataFields: ['email', 'plan'],
    dialogs: [
      {
        id: 'order',
        steps: [
          {
            id: 'hello',
            type: 'message',
            text: 'Hi {{email}}',
            next: 'ask',
            buttons: [{ kind: 'dialog', label: 'Help', dialog: 'help' }],
            cards: [{ title: 'Card', buttons: [{ kind: 'dialog', label: 'Again', dialog: 'order' }] }],
          },
          {
            id: 'ask',
            type: 'input',
            prompt: 'Plan?',
            inputType: 'choice',
            choices: [
              { label: 'Pro', then: 'confirm' },
              { label: 'Help', then: { dialog: 'help', step: 'faq' } },
            ],
            onMaxRetries: { dialog: 'help' },
            saveTo: { userData: 'plan' },
          },
          {
            id: 'branch',
            type: 'condition',
            branches: [
              { when: { variable: 'plan', op: 'equals', value: 'pro' }, then: 'confirm' },
              { when: [{ variable: 'email', op: 'notEmpty' }], then: { dialog: 'order', step: 'ask' } },
            ],
            else: { dialog: 'help', step: 'faq' },
          },
          {
            id: 'call',
            type: 'integration',
            integration: 'http',
            params: { endpoint: 'https://api.example.com/{{plan}}' },
            output: 'result',
            onError: 'dialog:help',
          },
          { id: 'mail', type: 'email', to: '{{email}}', subject: 'Order', body: 'Thanks', onError: 'confirm' },
          { id: 'pause', type: 'wait', duration: '10m', then: { dialog: 'help' } },
          { id: 'confirm', type: 'message', text: 'Done: {{result}}' },
          { id: 'away', type: 'goto', dialog: 'help', step: 'faq' },
        ],
      },
      {
        id: 'help',
        steps: [
          { id: 'faq', type: 'faq', prompt: 'Ask', onNoMatch: { dialog: 'order', step: 'confirm' } },
          { id: 'words', type: 'nlp', prompt: 'Say', onNoMatch: 'faq' },
          { id: 'sms', type: 'sms', to: '+4915100000000', message: 'Hi', onError: { dialog: 'order' } },
          { id: 'done', type: 'end' },
        ],
      },
    ],
    intents: [{ id: 'buy', dialog: 'order', utterances: ['I want to buy'] }],
    faq: [{ id: 'hours', questions: ['When are you open?'], answer: 'Nine to five, {{email}}.' }],
    pageEvents: [{ name: 'checkout', dialog: 'order' }],
  };
}
