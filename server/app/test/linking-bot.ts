/**
 * The bot the linking tests talk to: it asks a name and a city, then offers to go on in the web
 * chat with a one-time code, and greets the person by name wherever the code arrived.
 */
export function linkingBot() {
  return {
    settings: { id: 'linking-bot', name: 'Linking test bot', startDialog: 'home' },
    userDataFields: ['name', 'city', 'phoneNumber', 'whatsappName'],
    dialogs: [
      {
        id: 'home',
        steps: [
          { id: 'name', type: 'input', prompt: 'Your name?', inputType: 'text', saveTo: { userData: 'name' } },
          { id: 'city', type: 'input', prompt: 'Your city?', inputType: 'text', saveTo: { userData: 'city' } },
          {
            id: 'link',
            type: 'linkChannels',
            text: 'To go on in our web chat, type {{linkCode}} there.',
            minutes: 10,
            onOtherText: 'unlinked',
          },
          { id: 'welcome', type: 'message', text: 'Welcome back, {{name}} from {{city}}.' },
          { id: 'done', type: 'end' },
          { id: 'unlinked', type: 'message', text: 'Fine, we stay here.' },
        ],
      },
      { id: 'news', steps: [{ id: 'say', type: 'message', text: 'News for {{name}}.' }] },
    ],
  };
}
