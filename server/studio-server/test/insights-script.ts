import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Session } from '../../../shared/protocol.ts';
import { botTexts, connectClient, eventually, type TestClient } from '../../test/start-test-server.ts';

/**
 * A shop bot and scripted conversations with known outcomes, for the insights API and screen
 * tests: who stops where, which integration call fails, what nothing understood.
 */
export function shopBot(stockUrl: string) {
  return {
    settings: { id: 'shop', name: 'Shop bot', startDialog: 'order', fallbackText: 'Sorry?' },
    userDataFields: ['name', 'city'],
    integrations: {
      services: { stock: { baseUrl: `${stockUrl}/`, auth: { type: 'bearer', tokenEnv: 'STOCK_TOKEN' } } },
    },
    dialogs: [
      {
        id: 'order',
        steps: [
          { id: 'hello', type: 'message', text: 'Welcome to the shop.' },
          { id: 'name', type: 'input', prompt: 'Your name?', saveTo: { userData: 'name' } },
          { id: 'city', type: 'input', prompt: 'Your city?', saveTo: { userData: 'city' } },
          {
            id: 'lookup',
            type: 'integration',
            integration: 'listUserEvents',
            service: 'stock',
            params: { userId: '{{city}}' },
            onError: 'dialog:sorry',
          },
          { id: 'thanks', type: 'message', text: 'Thanks {{name}}.' },
          { id: 'finish', type: 'goto', dialog: 'done' },
        ],
      },
      {
        id: 'sorry',
        steps: [
          { id: 'say', type: 'message', text: 'The stock service failed.' },
          { id: 'end', type: 'end' },
        ],
      },
      {
        id: 'done',
        steps: [
          { id: 'bye', type: 'message', text: 'Goodbye.' },
          { id: 'end', type: 'end' },
        ],
      },
      {
        id: 'ask',
        steps: [
          { id: 'listen', type: 'nlp', prompt: 'What do you want?', onNoMatch: 'unsure' },
          { id: 'unsure', type: 'message', text: 'Unsure.' },
        ],
      },
    ],
    intents: [
      {
        id: 'order',
        dialog: 'order',
        utterances: ['I want to order', 'buy something', 'place an order', 'I would like to buy'],
      },
    ],
  };
}

/** The stock service's token: the transcript view must never show it. */
export const STOCK_TOKEN = 'stock-secret-token-5f1e2d3c4b5a';

/** The stock service: fails (500) for the city "Nowhere", answers for every other. */
export async function startStock(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const failing = (req.url ?? '').includes('Nowhere');
    res.writeHead(failing ? 500 : 200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(failing ? { error: 'stock is down' } : []));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** What the script leaves, exactly (one conversation per user, all started today). */
export const EXPECTED = {
  conversations: 5,
  /** Users who wrote: Bob, Cara, Dan, the one who mumbled. */
  activeUsers: 4,
  /** Bob 1, Cara 2, Dan 2, mumble 1. */
  messagesUser: 6,
  unprocessed: 'qwxz blorp',
  /** Everyone starts in the order dialog (the one who mumbled is taken to another at its name prompt). */
  reached: {
    'order/hello': 5,
    'order/name': 5,
    'order/city': 3,
    'order/lookup': 2,
    'order/thanks': 1,
    'order/finish': 1,
    'done/bye': 1,
    'done/end': 1,
    'sorry/say': 1,
    'sorry/end': 1,
    'ask/listen': 1,
    'ask/unsure': 1,
  },
  stopped: { 'order/name': 1, 'order/city': 1, 'done/end': 1, 'sorry/end': 1, 'ask/unsure': 1 },
  /** order: Cara's own jump on (Dan's onError way out completes nothing); done and sorry: their end steps. */
  dialogs: {
    order: { started: 5, completed: 1 },
    done: { started: 1, completed: 1 },
    sorry: { started: 1, completed: 1 },
    ask: { started: 1, completed: 1 },
  },
  integrations: { '2xx': 1, '5xx': 1 },
} as const;

function sessionOf(client: TestClient): Promise<Session> {
  return new Promise((resolve) => client.once('session', resolve));
}

let clientIds = 0;
const say = (client: TestClient, text: string) => client.emitWithAck('message', { clientId: `s${++clientIds}`, text });

async function visitor(
  url: string,
  until: string,
): Promise<{ client: TestClient & { items: ReturnType<typeof connectClient>['items'] }; userId: string }> {
  const client = connectClient(url);
  const userId = (await sessionOf(client)).userId;
  await eventually(until, () => botTexts(client.items).includes(until));
  return { client, userId };
}

/** Runs the script against a server with shopBot; answers the users by role in it. */
export async function runScript(
  url: string,
): Promise<{ ann: string; bob: string; cara: string; dan: string; mumble: string }> {
  // Ann stops at the name prompt without writing.
  const ann = await visitor(url, 'Your name?');
  ann.client.disconnect();
  // Bob gives his name, then stops at the city.
  const bob = await visitor(url, 'Your name?');
  await say(bob.client, 'Bob');
  await eventually('the city prompt', () => botTexts(bob.client.items).includes('Your city?'));
  bob.client.disconnect();
  // Cara goes all the way: the stock service answers.
  const cara = await visitor(url, 'Your name?');
  await say(cara.client, 'Cara');
  await eventually('the city prompt', () => botTexts(cara.client.items).includes('Your city?'));
  await say(cara.client, 'Oslo');
  await eventually('goodbye', () => botTexts(cara.client.items).includes('Goodbye.'));
  cara.client.disconnect();
  // Dan's city makes the stock service fail.
  const dan = await visitor(url, 'Your name?');
  await say(dan.client, 'Dan');
  await eventually('the city prompt', () => botTexts(dan.client.items).includes('Your city?'));
  await say(dan.client, 'Nowhere');
  await eventually('the failure', () => botTexts(dan.client.items).includes('The stock service failed.'));
  dan.client.disconnect();
  // Someone writes what nothing understands (the greeting's dialog is left for another first).
  const mumble = connectClient(url, {});
  const mumbleId = (await sessionOf(mumble)).userId;
  await eventually('the greeting', () => botTexts(mumble.items).includes('Your name?'));
  await mumble.emitWithAck('start_dialog', { dialogId: 'ask' });
  await eventually('the nlp prompt', () => botTexts(mumble.items).includes('What do you want?'));
  await say(mumble, 'qwxz blorp');
  await eventually('the miss', () => botTexts(mumble.items).includes('Unsure.'));
  mumble.disconnect();
  return { ann: ann.userId, bob: bob.userId, cara: cara.userId, dan: dan.userId, mumble: mumbleId };
}
