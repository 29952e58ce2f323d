/**
 * The bot the connector tests talk to: a greeting, a choice of two (reply buttons on WhatsApp), a
 * choice of six (a list) and of twelve (numbered text), an echo that keeps order visible, and a
 * dialog for triggers.
 */
export function channelBot() {
  const options = (count: number) =>
    Array.from({ length: count }, (_, index) => ({ label: `Option ${index + 1}`, value: `option-${index + 1}` }));
  return {
    settings: { id: 'channel-bot', name: 'Channel test bot', startDialog: 'home' },
    userDataFields: ['plan', 'phoneNumber', 'whatsappName'],
    dialogs: [
      {
        id: 'home',
        steps: [
          { id: 'hello', type: 'message', text: 'Welcome.' },
          {
            id: 'pick',
            type: 'input',
            prompt: 'Pick a plan.',
            inputType: 'choice',
            choices: [
              { label: 'Basic', value: 'basic' },
              { label: 'Pro', value: 'pro' },
            ],
            saveTo: { userData: 'plan' },
          },
          { id: 'chosen', type: 'message', text: 'You chose {{plan}}.' },
          {
            id: 'more',
            type: 'input',
            prompt: 'Pick one of six.',
            inputType: 'choice',
            choices: options(6),
            saveTo: { variable: 'six' },
          },
          { id: 'six', type: 'message', text: 'Six: {{six}}.' },
          {
            id: 'many',
            type: 'input',
            prompt: 'Pick one of twelve.',
            inputType: 'choice',
            choices: options(12),
            saveTo: { variable: 'twelve' },
          },
          { id: 'twelve', type: 'message', text: 'Twelve: {{twelve}}.' },
          { id: 'echo', type: 'input', prompt: 'Say anything.', saveTo: { variable: 'said' } },
          { id: 'said', type: 'message', text: 'Echo: {{said}}' },
          { id: 'again', type: 'goto', dialog: 'home', step: 'echo' },
        ],
      },
      {
        id: 'reminder',
        steps: [
          { id: 'remind', type: 'message', text: 'Your order has shipped.' },
          { id: 'end', type: 'end' },
        ],
      },
    ],
  };
}
