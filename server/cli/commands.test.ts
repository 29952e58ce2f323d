import { spawn } from 'node:child_process';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../paths.ts';
import { compiledEntry } from '../test/compiled-server.ts';

/** Runs the bot author's command as they would (`npm run test:bot -- …` runs the same entry through tsx). */
async function chatbot(...args: string[]): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, [await compiledEntry('server/cli/main.ts'), ...args], {
    cwd: projectRoot(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, out })));
}

const demo = path.join(projectRoot(), 'demo');

describe('chatbot test: conversation tests for bot authors', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'bot-tests-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const withDemo = async (name: string, tests: unknown) => {
    const file = path.join(dir, name);
    await writeFile(
      file,
      JSON.stringify({ definition: path.join(demo, 'bot.json'), env: { DEMO_OPERATION_TIMEOUT: '10m' }, tests }),
    );
    return file;
  };

  it("when the demo bot's own tests run, then every one passes and the command exits 0", async () => {
    const { code, out } = await chatbot('test', 'demo/bot.tests.json');
    const count = (JSON.parse(await readFile(path.join(demo, 'bot.tests.json'), 'utf8')) as { tests: unknown[] }).tests
      .length;
    expect(out).toContain(`\n${count} passed, 0 failed\n`);
    expect(out).toContain('  ✓ the long operation times out when no trigger comes within ten minutes\n');
    expect(code).toBe(0);
  });

  it('when an expectation is wrong, then the test fails with a diff of what the bot said and the command exits 1', async () => {
    const file = await withDemo('wrong.tests.json', [
      {
        name: 'greets by name',
        steps: [
          { user: 'Ada', bot: ['Nice to meet you, Ada'], userData: { name: 'Ada' } },
          { user: 'Grace', userData: { name: 'Grace' } },
        ],
      },
      { name: 'asks the name first', steps: [{ bot: ["Hi! I'm the demo bot.", "What's your name?"] }] },
    ]);
    const { code, out } = await chatbot('test', file);
    expect(out).toContain(
      [
        '  ✗ greets by name',
        '      step 1, user: "Ada"',
        '      bot said (- expected, + actual):',
        '        - "Nice to meet you, Ada"',
        '        + "Nice to meet you, Ada!"',
        '  ✓ asks the name first',
        '',
        '1 passed, 1 failed',
      ].join('\n'),
    );
    expect(code).toBe(1);
  });

  it('when user data, buttons, events or the position differ, then each names expected and actual', async () => {
    const file = await withDemo('more.tests.json', [
      {
        name: 'says goodbye',
        steps: [{ user: 'Ada', buttons: ['Show me around', 'Ask a question', 'Help'], userData: { name: 'Bob' } }],
      },
      {
        name: 'closes the chat',
        steps: [
          { user: 'Ada' },
          { user: 'bye', events: [{ name: 'closeChat', payload: { reason: 'timeout' } }], at: 'goodbye.bye' },
        ],
      },
    ]);
    const { code, out } = await chatbot('test', file);
    expect(out).toContain(
      [
        '      buttons (- expected, + actual):',
        '          "Show me around"',
        '          "Ask a question"',
        '        - "Help"',
        '      userData (- expected, + actual):',
        '        - name: "Bob"',
        '        + name: "Ada"',
      ].join('\n'),
    );
    expect(out).toContain(
      [
        '      events to the page (- expected, + actual):',
        '        - "closeChat {\\"reason\\":\\"timeout\\"}"',
        '        + "closeChat {\\"reason\\":\\"goodbye\\",\\"name\\":\\"Ada\\"}"',
        '      rests at (- expected, + actual):',
        '        - goodbye.bye',
        '        + (conversation ended)',
      ].join('\n'),
    );
    expect(code).toBe(1);
  });

  it('when the tests file is YAML, then its comments are allowed and it runs the same', async () => {
    const file = path.join(dir, 'bot.tests.yaml');
    await writeFile(
      file,
      [
        `definition: ${JSON.stringify(path.join(demo, 'bot.json'))}`,
        'tests:',
        '  # The opening and the name.',
        '  - name: greets by name',
        '    steps:',
        '      - user: Ada',
        '        bot: ["Nice to meet you, Ada!"]',
        '      - user: show me the menu',
        '        at: menu.ask',
        '',
      ].join('\n'),
    );
    const { code, out } = await chatbot('test', file);
    expect(out).toContain(
      ['      rests at (- expected, + actual):', '        - menu.ask', '        + menu.pick'].join('\n'),
    );
    expect(code).toBe(1);
  });

  it('when a synchronous integration step has no stub, then the failure says which stub to add', async () => {
    const file = await withDemo('unstubbed.tests.json', [
      { name: 'events', steps: [{ user: 'Ada' }, { press: 'Show me around' }, { press: 'My events (carousel)' }] },
    ]);
    const { code, out } = await chatbot('test', file);
    expect(out).toContain(
      'integration step events.load was reached and no stub answers it: add "stubs": { "events.load": { "output": … } }',
    );
    expect(code).toBe(1);
  });

  it('when a press names a label that was not shown, then the failure lists the labels that were', async () => {
    const file = await withDemo('press.tests.json', [
      { name: 'press', steps: [{ user: 'Ada' }, { press: 'Show me' }] },
    ]);
    const { out } = await chatbot('test', file);
    expect(out).toContain(
      '        no button or quick reply "Show me" was shown; shown: "Show me around", "Ask a question"',
    );
  });

  it('when the tests file is broken, then its problems are named with line and column or path, and the command exits 1', async () => {
    const syntax = path.join(dir, 'syntax.tests.json');
    await writeFile(syntax, '{\n  "definition": "bot.json",\n  "tests": [,]\n}\n');
    const bad = await withDemo('bad.tests.json', [
      { name: 'two actions', steps: [{ user: 'a', press: 'b' }, { wait: 'soon' }] },
    ]);
    const broken = await chatbot('test', syntax, bad);
    expect(broken.out).toMatch(/is not valid JSON: .* \(line 3, column 13\)/);
    expect(broken.out).toContain(
      '  - tests[0].steps[0]: a step takes at most one action: user, press, event, startDialog, trigger or wait',
    );
    expect(broken.out).toContain('  - tests[0].steps[1].wait: must be a duration such as "30s" or "10m"');
    expect(broken.out).toContain('0 passed, 0 failed, 2 files could not run');
    expect(broken.code).toBe(1);
    expect((await chatbot('test')).code).toBe(2);
  });

  it('when a stub names no integration step, or the definition is broken, then the file does not run and the line says why', async () => {
    const stale = await withDemo('stale.tests.json', [
      { name: 'x', stubs: { 'signup.make': { output: 1 } }, steps: [{ user: 'a' }] },
    ]);
    const broken = path.join(dir, 'broken.json');
    await writeFile(
      broken,
      JSON.stringify({
        settings: { id: 'b', name: 'B', startDialog: 'gone' },
        dialogs: [{ id: 'a', steps: [{ id: 's', type: 'message', text: 'x' }] }],
      }),
    );
    const onBroken = path.join(dir, 'on-broken.tests.json');
    await writeFile(
      onBroken,
      JSON.stringify({ definition: 'broken.json', tests: [{ name: 'x', steps: [{ user: 'a' }] }] }),
    );
    const { code, out } = await chatbot('test', stale, onBroken);
    expect(out).toContain(
      '  - tests[0].stubs["signup.make"]: the definition has no integration step signup.make; stubs are keyed "dialogId.stepId"',
    );
    expect(out).toContain(`  Bot definition ${broken} is invalid:`);
    expect(out).toMatch(/settings\.startDialog: .*"gone"/);
    expect(code).toBe(1);
  });
});

describe('chatbot compare: positions a redeploy would strand', () => {
  it('when a step users rest on is renamed, then it is listed with where recovery moves them, and the command exits 1', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'bot-compare-'));
    try {
      const renamed = path.join(dir, 'bot.json');
      const text = await readFile(path.join(demo, 'bot.json'), 'utf8');
      await writeFile(
        renamed,
        text
          .replace('"id": "ask-name"', '"id": "question"')
          .replace('"id": "faq",\n      "steps"', '"id": "questions",\n      "steps"')
          .replace(/"dialog": "faq"/g, '"dialog": "questions"')
          .replace('"dialog": "faq"', '"dialog": "questions"'),
      );
      const { code, out } = await chatbot('compare', 'demo/bot.json', renamed);
      expect(out).toContain(
        '2 positions would be stranded; a user resting there is moved by their next message (settings.recovery "dialogStart"):\n',
      );
      expect(out).toContain('  greeting.ask-name → greeting.hello\n');
      expect(out).toContain('  faq.ask → greeting.hello\n');
      expect(code).toBe(1);
      await copyFile(path.join(demo, 'bot.json'), renamed);
      expect((await chatbot('compare', 'demo/bot.json', renamed)).code).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
