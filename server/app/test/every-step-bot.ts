import { writeFile } from 'node:fs/promises';
import path from 'node:path';

/** A bot with every step kind, for the tests that drive a real server. */
export const everyStepBot = {
  settings: { id: 'steps', name: 'Step bot', startDialog: 'main', fallbackText: 'Sorry?' },
  userDataFields: ['name', 'email'],
  dialogs: [
    {
      id: 'main',
      steps: [
        {
          id: 'hello',
          type: 'message',
          text: 'Hello *there*',
          buttons: [
            { kind: 'url', label: 'Docs', url: 'https://docs.example.com/start?x=1' },
            { kind: 'dialog', label: 'Mail', dialog: 'mail' },
            { kind: 'postback', label: 'Yes', payload: 'yes' },
          ],
          quickReplies: [{ label: 'Menu', payload: 'menu' }],
        },
        {
          id: 'pic',
          type: 'message',
          image: { url: 'https://img.example.com/a.png', alt: 'A' },
          cards: [{ title: 'Card', buttons: [{ kind: 'url', label: 'Go', url: 'https://shop.example.com/1' }] }],
        },
        { id: 'name', type: 'input', prompt: 'Your name?', saveTo: { userData: 'name' } },
        {
          id: 'age',
          type: 'input',
          prompt: 'Your age?',
          inputType: 'number',
          retryPrompt: 'A number, please.',
          saveTo: { variable: 'age' },
        },
        {
          id: 'check',
          type: 'condition',
          branches: [{ when: { variable: 'age', op: 'greater', value: 17 }, then: 'adult' }],
          else: 'minor',
        },
        { id: 'adult', type: 'set', actions: [{ op: 'set', variable: 'group', value: 'adult' }], next: 'say' },
        { id: 'minor', type: 'set', actions: [{ op: 'set', variable: 'group', template: 'minor' }] },
        { id: 'say', type: 'message', text: '{{name}} is an {{group}}.' },
        { id: 'jump', type: 'goto', dialog: 'done' },
      ],
    },
    {
      id: 'done',
      steps: [
        { id: 'bye', type: 'message', text: 'All done.' },
        { id: 'end', type: 'end' },
      ],
    },
    {
      id: 'mail',
      steps: [
        { id: 'address', type: 'input', prompt: 'Email?', inputType: 'email', saveTo: { userData: 'email' } },
        {
          id: 'send',
          type: 'email',
          to: '{{email}}',
          cc: 'audit@example.com',
          subject: 'Hello {{name}}',
          body: 'Dear {{name}},\nyour code is 42.',
          onError: 'failed',
        },
        { id: 'ok', type: 'message', text: 'Mail sent.', next: 'end' },
        { id: 'failed', type: 'message', text: 'Mail failed.' },
        { id: 'end', type: 'end' },
      ],
    },
    {
      id: 'text',
      steps: [
        {
          id: 'send',
          type: 'sms',
          to: '+4712345678',
          message: 'Hi {{name}}',
          link: 'https://example.com/t',
          onError: 'failed',
        },
        { id: 'ok', type: 'message', text: 'SMS sent.', next: 'end' },
        { id: 'failed', type: 'message', text: 'SMS failed.' },
        { id: 'end', type: 'end' },
      ],
    },
    {
      id: 'wait',
      steps: [
        { id: 'started', type: 'message', text: 'Waiting.' },
        { id: 'w', type: 'wait', duration: '10m', durationEnv: 'STEP_BOT_WAIT', then: 'late' },
        { id: 'late', type: 'message', text: 'Time is up.' },
      ],
    },
    {
      id: 'long-wait',
      steps: [
        { id: 'w', type: 'wait', duration: '1h', then: 'late' },
        { id: 'late', type: 'message', text: 'Never.' },
      ],
    },
    {
      id: 'event',
      steps: [
        { id: 'e', type: 'event', name: 'close-chat', payload: { who: '{{name}}' } },
        { id: 'said', type: 'message', text: 'Closing.' },
      ],
    },
    {
      id: 'forget',
      steps: [
        { id: 'c', type: 'clearUserData' },
        { id: 'said', type: 'message', text: 'Forgotten.' },
      ],
    },
    {
      id: 'ask',
      steps: [
        { id: 'listen', type: 'nlp', prompt: 'What do you want?', onNoMatch: 'unsure' },
        { id: 'unsure', type: 'message', text: 'Unsure.' },
      ],
    },
    { id: 'order', steps: [{ id: 'o', type: 'message', text: 'Ordering pizza.' }] },
    {
      id: 'faq',
      steps: [
        { id: 'q', type: 'faq', prompt: 'Ask me.', noMatchText: 'No idea.' },
        { id: 'again', type: 'goto', dialog: 'faq' },
      ],
    },
  ],
  intents: [
    {
      id: 'order',
      dialog: 'order',
      utterances: ['I want to order a pizza', 'order food', 'can I get a pizza', 'I would like to order'],
    },
    { id: 'faq', dialog: 'faq', utterances: ['I have a question', 'can I ask something'] },
  ],
  faq: [
    { id: 'hours', questions: ['When are you open?', 'opening hours'], answer: 'From 9 to 5.' },
    { id: 'price', questions: ['How much does delivery cost?'], answer: 'Delivery is free.' },
  ],
};

export async function writeBot(dir: string, definition: unknown = everyStepBot): Promise<string> {
  const file = path.join(dir, 'bot.json');
  await writeFile(file, JSON.stringify(definition));
  return file;
}
