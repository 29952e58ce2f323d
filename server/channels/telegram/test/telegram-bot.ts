/** The bot the Telegram tests talk to: a greeting naming the user, a choice (quick replies), a button, an echo loop, a trigger dialog. */
export function telegramBot() {
  return {
    settings: { id: 'telegram-bot', name: 'Telegram test bot', startDialog: 'home' },
    userDataFields: ['telegramUsername', 'plan'],
    dialogs: [
      {
        id: 'home',
        steps: [
          { id: 'hello', type: 'message', text: 'Hello {{telegramUsername}}.' },
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
          { id: 'chosen', type: 'message', text: 'You chose {{plan}}.', buttons: [{ kind: 'postback', label: 'Tell me more', payload: 'more' }] },
          { id: 'echo', type: 'input', prompt: 'Say something.', saveTo: { variable: 'said' } },
          { id: 'said', type: 'message', text: 'You said {{said}}.' },
          { id: 'again', type: 'goto', dialog: 'home', step: 'echo' },
        ],
      },
      { id: 'news', steps: [{ id: 'say', type: 'message', text: 'News for you.' }, { id: 'end', type: 'end' }] },
    ],
  };
}
