/** The bot the Teams tests talk to: a welcome, a choice (quick replies), a button, an echo loop, a trigger dialog. */
export function teamsBot() {
  return {
    settings: { id: 'teams-bot', name: 'Teams test bot', startDialog: 'home' },
    userDataFields: ['teamsName', 'plan'],
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
          { id: 'chosen', type: 'message', text: 'You chose {{plan}}, {{teamsName}}.', buttons: [{ kind: 'postback', label: 'Tell me more', payload: 'more' }] },
          { id: 'echo', type: 'input', prompt: 'Say something.', saveTo: { variable: 'said' } },
          { id: 'said', type: 'message', text: 'You said {{said}}.' },
          { id: 'again', type: 'goto', dialog: 'home', step: 'echo' },
        ],
      },
      { id: 'news', steps: [{ id: 'say', type: 'message', text: 'News for you.' }, { id: 'end', type: 'end' }] },
    ],
  };
}
