/** The bot the REST channel tests talk to: a dialog with text, buttons and an event, a sync integration step, trigger dialogs. */
export function restBot(upstreamUrl: string) {
  return {
    settings: { id: 'rest-bot', name: 'REST channel test bot', startDialog: 'home' },
    userDataFields: ['name', 'plan'],
    integrations: { services: { crm: { baseUrl: `${upstreamUrl}/crm/` } } },
    pageEvents: [{ name: 'showEvents', dialog: 'events' }],
    dialogs: [
      {
        id: 'home',
        steps: [
          { id: 'hello', type: 'message', text: 'Welcome.' },
          { id: 'ask', type: 'input', prompt: 'Your name?', saveTo: { userData: 'name' } },
          {
            id: 'pick',
            type: 'input',
            prompt: 'Hi {{name}}, pick a plan.',
            inputType: 'choice',
            choices: [
              { label: 'Basic', value: 'basic' },
              { label: 'Pro', value: 'pro' },
            ],
            saveTo: { userData: 'plan' },
          },
          { id: 'chosen', type: 'message', text: 'You chose {{plan}}.' },
          { id: 'tell', type: 'event', name: 'planChosen', payload: { plan: '{{plan}}' } },
          { id: 'end', type: 'end' },
        ],
      },
      {
        id: 'events',
        steps: [
          {
            id: 'call',
            type: 'integration',
            integration: 'listUserEvents',
            service: 'crm',
            params: { userId: '{{userId}}' },
            output: 'events',
          },
          { id: 'show', type: 'message', text: 'Next event: {{events.0.name}}.' },
          { id: 'end', type: 'end' },
        ],
      },
      {
        id: 'remind',
        steps: [
          { id: 'say', type: 'message', text: 'Wait for it.' },
          { id: 'wait', type: 'wait', duration: '200ms', then: 'ding' },
          { id: 'ding', type: 'message', text: 'Ding.' },
          { id: 'end', type: 'end' },
        ],
      },
      {
        id: 'first',
        steps: [
          { id: 'say', type: 'message', text: 'First.' },
          { id: 'end', type: 'end' },
        ],
      },
      {
        id: 'second',
        steps: [
          { id: 'say', type: 'message', text: 'Second.' },
          { id: 'end', type: 'end' },
        ],
      },
      {
        id: 'noted',
        steps: [
          { id: 'say', type: 'message', text: 'Noted.' },
          { id: 'tell', type: 'event', name: 'orderNoted', payload: { order: 'A-1' } },
          { id: 'wait', type: 'wait', duration: '200ms', then: 'later' },
          { id: 'later', type: 'message', text: 'Still noted.' },
          { id: 'end', type: 'end' },
        ],
      },
    ],
  };
}
