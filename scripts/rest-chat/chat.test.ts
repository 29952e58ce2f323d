import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestServer, type TestServer } from '../../server/test/start-test-server.ts';

const KEY = 'terminal-channel-key-0123456789abcdef';
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** A greeting with a button, then a question: the buttons belong to the greeting. */
const BOT = {
  settings: { id: 'chat-bot', name: 'Terminal bot', startDialog: 'hello' },
  userDataFields: ['name'],
  dialogs: [
    {
      id: 'hello',
      steps: [
        {
          id: 'menu',
          type: 'message',
          text: 'Pick a topic.',
          buttons: [{ kind: 'postback', label: 'Pricing', payload: 'pricing' }],
        },
        { id: 'ask', type: 'input', prompt: 'Your name?', saveTo: { userData: 'name' } },
        { id: 'thanks', type: 'message', text: 'Thanks, {{name}}.' },
        { id: 'end', type: 'end' },
      ],
    },
  ],
};

describe('npm run chat', () => {
  let dir: string;
  let server: TestServer;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'rest-chat-'));
    const file = path.join(dir, 'bot.json');
    await writeFile(file, JSON.stringify(BOT));
    server = await startTestServer({
      BOT_DEFINITION: file,
      REST_CHANNELS: JSON.stringify([{ name: 'term', key: KEY }]),
    });
  });
  afterAll(async () => {
    await server?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it("when the bot's greeting has buttons and then asks a question, then the buttons are printed under the greeting, not under the question or the reply, and their number presses them", async () => {
    const chat = spawn(
      process.execPath,
      ['--import', 'tsx', 'scripts/rest-chat/main.ts', server.url, 'term', KEY, 'ada'],
      { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] },
    );
    let out = '';
    chat.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => chat.once('exit', resolve));
    try {
      await eventually('the banner', () => out.includes('Talking to'), 15_000);
      chat.stdin.write('Ada\n');
      await eventually('the reply', () => out.includes('Thanks, Ada.'), 15_000);
      const lines = out.split('\n').filter((line) => line.startsWith('bot:') || line.startsWith('  ['));
      expect(lines).toEqual(['bot: Pick a topic.', '  [1] Pricing', 'bot: Your name?', 'bot: Thanks, Ada.']);
      chat.stdin.write('1\n');
      const pressed = await eventually('the pressed button', async () =>
        (await server.store.readTranscript('ada', 0, 20)).find((entry) => entry.message.type === 'postback'),
      );
      expect(pressed.message).toEqual({ type: 'postback', label: 'Pricing', payload: 'pricing' });
      chat.stdin.write('/quit\n');
      expect(await exited).toBe(0);
    } finally {
      chat.kill();
    }
  });
});
