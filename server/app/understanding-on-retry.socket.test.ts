import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startUpstream, type Upstream } from '../integrations/test/upstream.ts';
import type { StoreCommand } from '../stores/mongo/mongo-store.ts';
import {
  botTexts,
  connectClient,
  eventually,
  startTestServer,
  storeLegs,
  type TestServer,
} from '../test/start-test-server.ts';

const mongo = storeLegs().find((leg) => leg.name === 'mongo')!;

/*
 * A turn that starts from a copy of the user older than the store's (the connection's last commit,
 * with a synchronous integration's turn committed after it) conflicts and runs again from a fresh
 * read. The question must then be understood for the step the user really rests on: the first try,
 * resting on the integration step, needed no FAQ match, and the retry must not reuse that.
 */
function shopBot(upstreamUrl: string) {
  return {
    settings: { id: 'shop', name: 'Shop bot', locale: 'en', startDialog: 'shop' },
    integrations: { services: { shop: { baseUrl: `${upstreamUrl}/` } } },
    faq: [{ id: 'hours', questions: ['When are you open?'], answer: 'From nine to six, Monday to Saturday.' }],
    dialogs: [
      {
        id: 'shop',
        steps: [
          { id: 'plan', type: 'input', prompt: 'Which plan do you use?', saveTo: { variable: 'plan' } },
          {
            id: 'call',
            type: 'integration',
            integration: 'listUserEvents',
            service: 'shop',
            params: { userId: '{{userId}}' },
            output: 'events',
          },
          { id: 'told', type: 'message', text: 'Your plan: {{plan}}; next: {{events.0.name}}.' },
          { id: 'ask', type: 'faq', prompt: 'Ask me anything about the shop.' },
          { id: 'end', type: 'end' },
        ],
      },
    ],
  };
}

const EVENTS = [{ id: 1, name: 'Pro plan review', date: '2030-05-01T18:00:00Z' }];

describe('a question asked right after a synchronous integration step', () => {
  let upstream: Upstream;
  let server: TestServer;
  let dir: string;

  beforeAll(async () => {
    upstream = await startUpstream((_req, res) => json(res, 200, EVENTS));
    dir = await mkdtemp(path.join(tmpdir(), 'understanding-on-retry-'));
    const bot = shopBot(upstream.url);
    await writeFile(path.join(dir, 'bot.json'), JSON.stringify(bot));
    server = await startTestServer(
      { BOT_DEFINITION: path.join(dir, 'bot.json'), INTEGRATION_ALLOWED_HOSTS: '127.0.0.1' },
      dir,
    );
  });

  afterAll(async () => {
    await server?.stop();
    await upstream?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('when the visitor asks the FAQ step at once, then the question is answered from the FAQ', async () => {
    const client = connectClient(server.url);
    try {
      await eventually('the first question', () => botTexts(client.items).includes('Which plan do you use?'));
      expect(await client.emitWithAck('message', { clientId: 'm1', text: 'pro' })).toMatchObject({ ok: true });
      await eventually('the FAQ prompt', () => botTexts(client.items).includes('Ask me anything about the shop.'));
      expect(await client.emitWithAck('message', { clientId: 'm2', text: 'When are you open?' })).toMatchObject({
        ok: true,
      });
      await eventually('the answer', () => botTexts(client.items).includes('From nine to six, Monday to Saturday.'));
      expect(botTexts(client.items)).toStrictEqual([
        'Which plan do you use?',
        'Your plan: pro; next: Pro plan review.',
        'Ask me anything about the shop.',
        'From nine to six, Monday to Saturday.',
      ]);
    } finally {
      client.disconnect();
    }
  });
});

/*
 * The connection keeps the user as its last turn committed them, so a quick next message needs no
 * read. The integration's answer, stored by a turn of its own after that, shows the copy is behind:
 * the next message reads the user afresh instead of starting from the copy, which costs a second read
 * on MongoDB (the store finds its cached document newer) and a failed commit and second run elsewhere.
 * Counted with the driver's command monitoring.
 */
describe.skipIf(mongo.skip)("the connection's copy of the user after a synchronous integration step (mongo)", () => {
  it("when the visitor writes right after the integration's answer, then the turn reads the user once and commits once", async () => {
    const upstream = await startUpstream((_req, res) => json(res, 200, EVENTS));
    const dir = await mkdtemp(path.join(tmpdir(), 'understanding-on-retry-mongo-'));
    const commands: StoreCommand[] = [];
    let counting = false;
    await writeFile(path.join(dir, 'bot.json'), JSON.stringify(shopBot(upstream.url)));
    const server = await startTestServer(
      {
        ...mongo.env(),
        BOT_DEFINITION: path.join(dir, 'bot.json'),
        INTEGRATION_ALLOWED_HOSTS: '127.0.0.1',
        SESSION_SECRET: 'understanding-retry-session-secret-0123',
      },
      dir,
      { onStoreCommand: (command) => counting && commands.push(command) },
    );
    const client = connectClient(server.url);
    try {
      await eventually('the first question', () => botTexts(client.items).includes('Which plan do you use?'));
      expect(await client.emitWithAck('message', { clientId: 'm1', text: 'pro' })).toMatchObject({ ok: true });
      await eventually('the FAQ prompt', () => botTexts(client.items).includes('Ask me anything about the shop.'));
      counting = true;
      expect(await client.emitWithAck('message', { clientId: 'm2', text: 'When are you open?' })).toMatchObject({
        ok: true,
      });
      await eventually('the answer', () => botTexts(client.items).includes('From nine to six, Monday to Saturday.'));
      counting = false;
      // A turn's commit is a conditional update of the user that sets the entries it adds (`unsent`);
      // the outbox's own write after it does not.
      type Update = { q: Record<string, unknown>; u: { $set?: Record<string, unknown> } };
      const commits = commands.filter(
        (c) =>
          c.name === 'update' &&
          c.collection === 'users' &&
          (c.command.updates as Update[]).some((u) => u.u.$set && 'unsent' in u.u.$set),
      );
      expect(commits).toHaveLength(1);
      // One read of the user: with the copy kept, the store found it behind and read them twice.
      expect(commands.filter((c) => c.name === 'find' && c.collection === 'users')).toHaveLength(1);
    } finally {
      client.disconnect();
      await server.stop();
      await upstream.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

/*
 * A turn that starts from a copy of the user older than the store's conflicts and runs again from a
 * fresh read (here another writer moves the user on without a word to this widget, as a silent
 * timer's turn on another node may). The retry must understand the text for the step the user now
 * rests on: the first try, at an input step, needed no FAQ match, and the retry must not reuse that.
 */
describe('a question asked just after the user was moved on elsewhere', () => {
  it('when the turn runs again from a fresh read, then the question is answered from the FAQ of the step the user rests on', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'understanding-moved-'));
    const bot = {
      settings: { id: 'moved', name: 'Moved bot', locale: 'en', startDialog: 'talk' },
      faq: [{ id: 'hours', questions: ['When are you open?'], answer: 'From nine to six, Monday to Saturday.' }],
      dialogs: [
        {
          id: 'talk',
          steps: [
            { id: 'word', type: 'input', prompt: 'Say a word.', saveTo: { variable: 'word' } },
            { id: 'noted', type: 'message', text: 'Noted: {{word}}.' },
            { id: 'again', type: 'goto', dialog: 'talk' },
          ],
        },
        {
          id: 'help',
          steps: [
            { id: 'ask', type: 'faq' },
            { id: 'end', type: 'end' },
          ],
        },
      ],
    };
    await writeFile(path.join(dir, 'bot.json'), JSON.stringify(bot));
    const server = await startTestServer({ BOT_DEFINITION: path.join(dir, 'bot.json') }, dir);
    const client = connectClient(server.url);
    try {
      const session = await new Promise<{ userId: string }>((resolve) => client.once('session', resolve));
      await eventually('the prompt', () => botTexts(client.items).includes('Say a word.'));
      expect(await client.emitWithAck('message', { clientId: 'm1', text: 'tea' })).toMatchObject({ ok: true });
      await eventually('the answer', () => botTexts(client.items).includes('Noted: tea.'));
      // Another writer moves the user to the FAQ step, saying nothing: this connection's copy is now behind.
      const user = (await server.store.getUser(session.userId))!;
      const moved = await server.store.commitTurn({
        userId: user.userId,
        expectedVersion: user.version,
        patch: { position: { dialogId: 'help', stepId: 'ask', awaiting: true, retries: 0 } },
        now: Date.now(),
        botEntries: [],
      });
      expect(moved.status).toBe('committed');
      expect(await client.emitWithAck('message', { clientId: 'm2', text: 'When are you open?' })).toMatchObject({
        ok: true,
      });
      await eventually('the FAQ answer', () =>
        botTexts(client.items).includes('From nine to six, Monday to Saturday.'),
      );
    } finally {
      client.disconnect();
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
