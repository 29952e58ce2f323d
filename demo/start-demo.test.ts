import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '../shared/protocol.ts';
import { botTexts, connectClient, eventually } from '../server/test/start-test-server.ts';
import { startDemo, type RunningDemo } from './start-demo.ts';

const menu = 'What would you like to see? Each option shows one kind of step.';

describe('the demo launcher as its own process', () => {
  let child: ChildProcess;
  let output = '';
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'demo-launcher-'));
    child = spawn(process.execPath, ['--import', 'tsx', 'demo/start-demo.ts'], {
      env: {
        ...process.env,
        PORT: '0',
        DEMO_API_PORT: '0',
        DATA_DIR: dir,
        MONGODB_URL: '',
        BOT_FUNCTION_KEY: 'launcher-test-key-0123456789',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await eventually(
      'both processes to start',
      () => output.includes('Chatbot is running at') || child.exitCode !== null,
      20_000,
    );
  });
  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('when npm start runs the launcher, then it prints both addresses and a listUserEvents carousel arrives from the demo API', async () => {
    const apiUrl = /Demo external API is running at (http:\/\/\S+)/.exec(output)?.[1];
    const botUrl = /Chatbot is running at (http:\/\/\S+)/.exec(output)?.[1];
    expect(apiUrl, output).toBeDefined();
    expect(botUrl, output).toBeDefined();
    const client = connectClient(botUrl!);
    try {
      await new Promise<Session>((resolve) => client.once('session', resolve));
      await eventually('the name question', () => botTexts(client.items).includes("What's your name?"));
      await client.emitWithAck('message', { clientId: 'm1', text: 'Ada' });
      await client.emitWithAck('start_dialog', { dialogId: 'events' });
      const carousel = await eventually(
        'the events carousel',
        () => client.items.find((i) => i.message.type === 'carousel')?.message,
        10_000,
      );
      expect(carousel.type === 'carousel' && carousel.cards.length).toBeGreaterThanOrEqual(3);
    } finally {
      client.disconnect();
    }
  });

  it('when the launcher gets SIGTERM, then both servers stop and it exits cleanly', async () => {
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});

describe('the demo bot with its external API (in process)', () => {
  let demo: RunningDemo;
  let dir: string;
  let client: ReturnType<typeof connectClient>;
  let n = 0;
  const pick = (label: string, payload: string) =>
    client.emitWithAck('press', { clientId: `p${++n}`, label, action: { kind: 'postback', payload } });
  const say = (text: string) => client.emitWithAck('message', { clientId: `m${++n}`, text });
  const heard = (text: string | RegExp) =>
    eventually(
      String(text),
      () => botTexts(client.items).some((t) => (typeof text === 'string' ? t === text : text.test(t))),
      10_000,
    );

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'demo-inproc-'));
    demo = await startDemo({
      PORT: '0',
      DEMO_API_PORT: '0',
      DATA_DIR: dir,
      LOG_LEVEL: 'warn',
      BOT_FUNCTION_KEY: 'demo-test-key-0123456789',
      LONG_OPERATION_MS: '50',
      WEBCHAT_RATE_LIMIT: '10000',
    });
    client = connectClient(demo.botUrl);
    await new Promise<Session>((resolve) => client.once('session', resolve));
    await heard("What's your name?");
    await say('Ada');
    await heard('Nice to meet you, Ada!');
    await pick('Show me around', 'tour');
    await heard(menu);
  });
  afterAll(async () => {
    client?.disconnect();
    await demo?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('when the person fills the sign-up form, then createUser answers with the new id and a tracking event reaches the API in the background', async () => {
    await pick('Sign up (form)', 'signup');
    await heard("Let's create your account. What's your email address?");
    await say('ada@example.com');
    await heard('Your first name?');
    await say('Ada');
    await heard('And your surname?');
    await say('Lovelace');
    await heard('Which product interests you?');
    await pick('Gadgets', '2');
    await heard(/^All set, Ada! Your id is \*\*u-[0-9a-f]{8}\*\*\.$/);
    await eventually('the signup tracking event', () =>
      demo.api.crm.trackingEvents.some((e) => e.event === 'signup_completed'),
    );
    const [user] = [...demo.api.crm.users.values()];
    expect(user).toEqual({ email: 'ada@example.com', name: 'Ada', surname: 'Lovelace', interestedInProductIds: [2] });
  });

  it('when the person asks for nearby cafés in Kraków, then the nearest places arrive as cards', async () => {
    await heard(menu);
    await pick('Nearby places', 'places');
    await heard('Where are you?');
    await pick('Kraków', 'Kraków');
    await heard('What are you looking for?');
    await pick('Café', 'cafe');
    await heard('The nearest places in Kraków:');
    const carousel = await eventually(
      'the places carousel',
      () => client.items.filter((i) => i.message.type === 'carousel').at(-1)?.message,
    );
    expect(carousel.type === 'carousel' && carousel.cards[0]?.title).toBe('Massolit Books & Cafe');
  });

  it("when the person has seen their events, then the bot's own step type module combines the member's points and the tiers into one answer", async () => {
    await heard(menu);
    await pick('My events (carousel)', 'events');
    await heard(/^You have \d+ loyalty points: /);
    const text = botTexts(client.items).findLast((t) => t.startsWith('You have '))!;
    const [, points, tier] = /^You have (\d+) loyalty points: (\w+) tier\./.exec(text)!;
    const expected = Number(points) >= 2000 ? 'Gold' : Number(points) >= 500 ? 'Silver' : 'Bronze';
    expect(tier).toBe(expected);
  });

  it('when the person starts the long operation, then the API is called with the user id and its trigger reports success', async () => {
    await pick('Long operation (timer)', 'timer');
    await heard(/^Good news: your operation is complete\./);
  });
});
