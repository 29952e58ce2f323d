import type { Session } from '../../../shared/protocol.ts';
import { botTexts, connectClient, eventually, type TestClient } from '../../test/start-test-server.ts';

/**
 * A shop bot that waits for free text, with intents for ordering, refunds and tracking, and one
 * FAQ pair; and visitors who write what it does not understand: the misses API and screen tests.
 */
export function missesBot() {
  return {
    settings: { id: 'misses', name: 'Misses bot', startDialog: 'main', fallbackText: 'Sorry, I did not get that.' },
    dialogs: [
      { id: 'main', steps: [{ id: 'listen', type: 'nlp', prompt: 'What can I do for you?' }] },
      {
        id: 'order',
        steps: [
          { id: 'say', type: 'message', text: 'Let us order.' },
          { id: 'again', type: 'goto', dialog: 'main' },
        ],
      },
      {
        id: 'refund',
        steps: [
          { id: 'say', type: 'message', text: 'Refunds take five days.' },
          { id: 'again', type: 'goto', dialog: 'main' },
        ],
      },
      {
        id: 'track',
        steps: [
          { id: 'say', type: 'message', text: 'Your parcel is on its way.' },
          { id: 'again', type: 'goto', dialog: 'main' },
        ],
      },
      {
        id: 'ask',
        steps: [
          { id: 'question', type: 'faq', prompt: 'Ask me a question.', noMatchText: 'I have no answer to that.' },
          { id: 'end', type: 'end' },
        ],
      },
    ],
    intents: [
      {
        id: 'order',
        dialog: 'order',
        utterances: ['I want to order', 'buy something', 'place an order', 'I would like to buy', 'order a pizza'],
      },
      {
        id: 'refund',
        dialog: 'refund',
        utterances: ['I want a refund', 'refund my order', 'can I get a refund', 'give me a refund', 'refund please'],
      },
      {
        id: 'track',
        dialog: 'track',
        utterances: [
          'track my order',
          'order status',
          'has my order shipped',
          'tracking number',
          'when does my order arrive',
        ],
      },
    ],
    faq: [
      {
        id: 'opening-hours',
        questions: ['When are you open?', 'What are your opening hours?'],
        answer: 'From nine to five.',
      },
    ],
  };
}

/** What the visitors of `runMisses` wrote that nothing understood, and how often. */
export const MISSED = {
  /** One group: two spellings of one input, a like one, and one that differs by a typo alone. */
  parcel: [
    { text: 'Where is my parcel', count: 2 },
    { text: 'parcel where??', count: 1 },
    { text: 'where is my parcle', count: 1 },
  ],
  gibberish: { text: 'qwxz blorp', count: 1 },
  faq: { text: 'Do you ship to Mars?', count: 1 },
} as const;

let clientIds = 0;
const say = (client: TestClient, text: string) => client.emitWithAck('message', { clientId: `m${++clientIds}`, text });

async function visitor(url: string): Promise<TestClient & { items: ReturnType<typeof connectClient>['items'] }> {
  const client = connectClient(url);
  await new Promise<Session>((resolve) => client.once('session', resolve));
  await eventually('the prompt', () => botTexts(client.items).includes('What can I do for you?'));
  return client;
}

async function miss(
  client: TestClient & { items: ReturnType<typeof connectClient>['items'] },
  text: string,
  answer: string,
): Promise<void> {
  const before = botTexts(client.items).filter((t) => t === answer).length;
  await say(client, text);
  await eventually(`the answer to ${text}`, () => botTexts(client.items).filter((t) => t === answer).length > before);
}

/** Visitors write the MISSED inputs at the bot's free-text step and its FAQ step. */
export async function runMisses(url: string): Promise<void> {
  const one = await visitor(url);
  await miss(one, 'Where is my parcel', 'Sorry, I did not get that.');
  await miss(one, 'where is my  parcel', 'Sorry, I did not get that.');
  one.disconnect();
  const two = await visitor(url);
  await miss(two, 'parcel where??', 'Sorry, I did not get that.');
  await miss(two, 'qwxz blorp', 'Sorry, I did not get that.');
  await miss(two, 'where is my parcle', 'Sorry, I did not get that.');
  await two.emitWithAck('start_dialog', { dialogId: 'ask' });
  await eventually('the FAQ prompt', () => botTexts(two.items).includes('Ask me a question.'));
  await miss(two, 'Do you ship to Mars?', 'I have no answer to that.');
  two.disconnect();
}
