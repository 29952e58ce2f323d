import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Session } from '../shared/protocol.ts';
import { projectRoot } from './paths.ts';
import { botTexts, connectClient, eventually, type TestClient } from './test/start-test-server.ts';
import { compiledEntry } from './test/compiled-server.ts';

/** The bot before the redeploy: the user is asked their name, then rests on "more". */
const v1 = {
  settings: { id: 'reload', name: 'Reload bot', startDialog: 'greeting' },
  userDataFields: ['name'],
  dialogs: [
    {
      id: 'greeting',
      steps: [
        { id: 'hello', type: 'message', text: 'Hi!' },
        { id: 'ask', type: 'input', prompt: "What's your name?", saveTo: { userData: 'name' } },
        { id: 'more', type: 'input', prompt: 'Thanks, {{name}}! Anything else?' },
        { id: 'bye', type: 'message', text: 'Bye.' },
      ],
    },
  ],
};

/** The redeploy: "more" is renamed "question" and the greeting says something new. */
const v2 = {
  ...v1,
  dialogs: [
    {
      id: 'greeting',
      steps: [
        { id: 'hello', type: 'message', text: 'Welcome back!' },
        { id: 'ask', type: 'input', prompt: "What's your name?", saveTo: { userData: 'name' } },
        { id: 'question', type: 'input', prompt: 'Thanks, {{name}}! Anything else?' },
        { id: 'bye', type: 'message', text: 'Bye.' },
      ],
    },
  ],
};

/** Broken twice: a user-data field that is not camelCase, and a negative retry count. */
const broken = {
  ...v1,
  dialogs: [
    {
      id: 'greeting',
      steps: [
        { id: 'hello', type: 'message', text: 'Broken!' },
        { id: 'ask', type: 'input', prompt: "What's your name?", saveTo: { userData: 'name' }, maxRetries: -1 },
        { id: 'more', type: 'input', prompt: 'Anything else?' },
      ],
    },
  ],
  userDataFields: ['name', 'Not A Field'],
};

interface Child {
  readonly process: ChildProcess;
  readonly url: string;
  /** The JSON log lines written so far. */
  logs(): Record<string, unknown>[];
  output(): string;
}

/** The server as `npm run dev` (with --watch) or `node server/main.js` runs it: its own process, a free port. */
async function startChild(definition: string, dataDir: string, args: string[] = []): Promise<Child> {
  const child = spawn(process.execPath, [await compiledEntry('server/main.ts'), ...args], {
    cwd: projectRoot(),
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      MONGODB_URL: '',
      BOT_DEFINITION: definition,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = await eventually(
    'the server to start',
    () => {
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}:\n${output}`);
      return /Chatbot is running at (\S+)/.exec(output)?.[1];
    },
    30_000,
  );
  const logs = () =>
    output
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { process: child, url, logs, output: () => output };
}

describe('reloading the bot definition in a running server', () => {
  let dir: string;
  let file: string;
  let child: Child | undefined;
  let client: (TestClient & { items: ReturnType<typeof connectClient>['items'] }) | undefined;
  let n = 0;
  const say = (text: string) => client!.emitWithAck('message', { clientId: `m${++n}`, text });
  const heard = (text: string) =>
    eventually(JSON.stringify(text), () => botTexts(client!.items).includes(text), 15_000);
  const logged = (event: string, count = 1) =>
    eventually(`${count} × ${event}`, () => child!.logs().filter((l) => l.event === event).length >= count, 30_000);

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'reload-'));
    file = path.join(dir, 'bot.json');
    await writeFile(file, JSON.stringify(v1));
  });
  afterEach(async () => {
    client?.disconnect();
    if (child && child.process.exitCode === null) {
      const exited = new Promise((resolve) => child!.process.once('exit', resolve));
      child.process.kill('SIGTERM');
      await exited;
    }
    child = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  it('when SIGHUP brings a broken file, then every problem is logged and the running definition keeps answering; a fixed file that renames a resting step moves the user as logged', async () => {
    child = await startChild(file, path.join(dir, 'data'));
    client = connectClient(child.url);
    await new Promise<Session>((resolve) => client!.once('session', resolve));
    await heard("What's your name?");

    await writeFile(file, JSON.stringify(broken));
    child.process.kill('SIGHUP');
    await logged('definition_reload_failed');
    const problems = child
      .logs()
      .filter((l) => l.event === 'definition_reload_problem')
      .map((l) => l.problem);
    expect(problems).toEqual([
      expect.stringMatching(/^userDataFields\[1\]: must be camelCase/),
      expect.stringMatching(/^dialogs\[0\]\.steps\[1\]\.maxRetries: /),
    ]);
    // The same connection, the running definition: the answer goes on as before.
    expect((await say('Ada')).ok).toBe(true);
    await heard('Thanks, Ada! Anything else?');

    await writeFile(file, JSON.stringify(v2));
    child.process.kill('SIGHUP');
    await logged('definition_reloaded');
    expect((await say('one more thing')).ok).toBe(true);
    await heard('Welcome back!');
    expect(botTexts(client.items).slice(-2)).toEqual(['Welcome back!', "What's your name?"]);
    expect(botTexts(client.items)).not.toContain('Broken!');
    // Logged once the answer is out (the user does not wait for the bookkeeping).
    const moved = await eventually(
      'the move logged',
      () => child!.logs().find((l) => l.code === 'stale_position'),
      15_000,
    );
    expect(moved).toMatchObject({
      level: 40,
      fromDialogId: 'greeting',
      fromStepId: 'more',
      toDialogId: 'greeting',
      toStepId: 'hello',
    });
    expect(moved.userId).toEqual(expect.any(String));
  }, 90_000);

  it('when a step type module of the bot changes and SIGHUP comes, then the changed module answers from then on', async () => {
    const module = (text: string) =>
      `export default { name: 'motto', level: 'action', service: 'optional', params: { type: 'object', additionalProperties: false },
        output: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] }, call: () => ({ text: ${JSON.stringify(text)} }) };\n`;
    await mkdir(path.join(dir, 'steps'));
    await writeFile(path.join(dir, 'steps', 'motto.mjs'), module('Measure twice.'));
    await writeFile(
      file,
      JSON.stringify({
        ...v1,
        stepTypes: ['./steps/motto.mjs'],
        dialogs: [
          {
            id: 'greeting',
            steps: [
              { id: 'call', type: 'integration', integration: 'motto', params: {}, output: 'motto' },
              { id: 'say', type: 'input', prompt: 'Motto: {{motto.text}}' },
            ],
          },
        ],
      }),
    );
    child = await startChild(file, path.join(dir, 'data'));
    client = connectClient(child.url);
    await heard('Motto: Measure twice.');
    await writeFile(path.join(dir, 'steps', 'motto.mjs'), module('Cut once.'));
    child.process.kill('SIGHUP');
    await logged('definition_reloaded');
    const other = connectClient(child.url);
    try {
      await eventually('the changed module', () => botTexts(other.items).includes('Motto: Cut once.'), 15_000);
    } finally {
      other.disconnect();
    }
  }, 90_000);

  it('when the server runs with --watch (npm run dev), then saving the definition reloads it without a signal', async () => {
    child = await startChild(file, path.join(dir, 'data'), ['--watch']);
    client = connectClient(child.url);
    await heard("What's your name?");
    await writeFile(file, JSON.stringify(v2));
    await logged('definition_reloaded');
    // A new visitor meets the saved definition at once.
    const other = connectClient(child.url);
    try {
      await eventually('the new greeting', () => botTexts(other.items).includes('Welcome back!'), 15_000);
    } finally {
      other.disconnect();
    }
  }, 90_000);
});
