import { expect } from 'vitest';
import type { Session } from '../../../../shared/protocol.ts';
import { botTexts, connectClient, eventually } from '../../../test/start-test-server.ts';

/** Steps of the demo bot's greeting, for tests that need a conversation that visibly works. */

export type ChatClient = ReturnType<typeof connectClient>;

export function sessionOf(client: ChatClient): Promise<Session> {
  return new Promise((resolve) => client.once('session', resolve));
}

/** A new visitor who has been greeted and is asked for a name. */
export async function greeted(url: string): Promise<ChatClient> {
  const client = connectClient(url);
  await sessionOf(client);
  await eventually('the greeting', () => botTexts(client.items).includes("What's your name?"));
  return client;
}

/** The visitor answers the bot's question and gets the bot's reply. */
export async function answersName(client: ChatClient, name: string): Promise<void> {
  const ack = await client.emitWithAck('message', { clientId: `name-${name}`, text: name });
  expect(ack).toMatchObject({ ok: true });
  await eventually(`the reply to ${name}`, () => botTexts(client.items).includes(`Nice to meet you, ${name}!`));
}
