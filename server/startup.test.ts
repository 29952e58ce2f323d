import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runEntry } from './cli/test/run-process.ts';

/** Runs the server's command-line entry (compiled, as production runs it) and collects how it ended. */
function start(env: Record<string, string>): Promise<{ code: number | null; stderr: string; stdout: string }> {
  return runEntry('server/main.ts', [], { PORT: '0', ...env }, (stdout) => stdout.includes('Chatbot is running at'));
}

// Each case starts the server as its own process.
describe('start-up', { timeout: 60_000 }, () => {
  it('when a variable is invalid, then the server stops with exit code 1 and one line naming it', async () => {
    const { code, stderr } = await start({ PORT: 'eighty' });
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toEqual([
      'Configuration error: PORT: must be a whole number from 0 to 65535 (got "eighty")',
    ]);
  });

  it('when the bot definition is malformed, then start-up stops listing each problem with its path', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'bad-bot-'));
    const file = path.join(dir, 'bot.json');
    await writeFile(
      file,
      JSON.stringify({
        settings: { id: 'x', name: 'X', startDialog: 'nope' },
        dialogs: [{ id: 'main', steps: [{ id: 'a', type: 'message', text: 'hi', next: 'gone' }] }],
      }),
    );
    const { code, stderr } = await start({ BOT_DEFINITION: file, DATA_DIR: dir });
    expect(code).toBe(1);
    expect(stderr).toContain(`Bot definition ${file} is invalid:`);
    expect(stderr).toContain('settings.startDialog: no dialog "nope"');
    expect(stderr).toContain('dialogs[0].steps[0].next: no step "gone" in dialog "main"');
  });

  it('when the integrations block names a secret that is not set, then start-up stops with exit code 1 and says which', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'bad-integrations-'));
    const file = path.join(dir, 'bot.json');
    const services = {
      crm: { baseUrl: 'https://crm.example.com/', auth: { type: 'bearer', tokenEnv: 'CRM_TOKEN_NOT_SET' } },
    };
    await writeFile(
      file,
      JSON.stringify({
        settings: { id: 'x', name: 'X', startDialog: 'main' },
        integrations: { services },
        dialogs: [{ id: 'main', steps: [{ id: 'a', type: 'message', text: 'hi' }] }],
      }),
    );
    const { code, stderr } = await start({ BOT_DEFINITION: file, DATA_DIR: dir });
    expect(code).toBe(1);
    expect(stderr).toContain('CRM_TOKEN_NOT_SET');
  });

  const validType = "{ name: 'crmLookup', level: 'action', params: { type: 'object' }, output: {}, call: () => 1 }";
  it.each([
    ['has a syntax error', 'export default { name: ', /failed to load: SyntaxError/],
    ['has no default export', `export const type = ${validType};`, /has no default export/],
    [
      'exports an invalid type',
      "export default { name: 'crmLookup', level: 'action', params: { type: 'object' }, output: {} };",
      /"call" must be a function/,
    ],
    [
      'clashes with a built-in name',
      `export default { ...${validType}, name: 'createUser' };`,
      /"createUser" clashes with a built-in step type/,
    ],
  ])(
    'when a step type module %s, then start-up stops with exit code 1 and a line naming the entry and the file',
    async (_case, source, problem) => {
      const dir = await mkdtemp(path.join(tmpdir(), 'bad-step-type-'));
      const file = path.join(dir, 'bot.json');
      await writeFile(path.join(dir, 'crm.mjs'), source);
      await writeFile(
        file,
        JSON.stringify({
          settings: { id: 'x', name: 'X', startDialog: 'main' },
          stepTypes: ['./crm.mjs'],
          dialogs: [{ id: 'main', steps: [{ id: 'a', type: 'message', text: 'hi' }] }],
        }),
      );
      const { code, stderr } = await start({ BOT_DEFINITION: file, DATA_DIR: dir });
      expect(code).toBe(1);
      const lines = stderr.trim().split('\n');
      expect(lines).toHaveLength(2);
      expect(lines[0]).toBe(`Bot definition ${file} is invalid:`);
      expect(lines[1]).toContain(`  - stepTypes[0]: ${path.join(dir, 'crm.mjs')}: `);
      expect(lines[1]).toMatch(problem);
    },
  );

  it('when a stepTypes entry is a folder, then start-up stops saying to name the module file', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'bad-step-type-'));
    const file = path.join(dir, 'bot.json');
    await writeFile(
      file,
      JSON.stringify({
        settings: { id: 'x', name: 'X', startDialog: 'main' },
        stepTypes: ['.'],
        dialogs: [{ id: 'main', steps: [{ id: 'a', type: 'message', text: 'hi' }] }],
      }),
    );
    const { code, stderr } = await start({ BOT_DEFINITION: file, DATA_DIR: dir });
    expect(code).toBe(1);
    expect(stderr.trim()).toBe(
      `Bot definition ${file} is invalid:\n  - stepTypes[0]: ${dir}: is not a file; name the module file itself, e.g. "./steps/crm.mjs"`,
    );
  });

  it('when MONGODB_URL points at nothing, then start-up fails with a clear error instead of falling back', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'no-mongo-'));
    const { code, stderr, stdout } = await start({
      MONGODB_URL: 'mongodb://user:pw-secret@127.0.0.1:1/chatbot',
      DATA_DIR: dir,
    });
    expect(code).toBe(1);
    expect(stdout).not.toContain('Chatbot is running');
    expect(stderr).toMatch(/^Cannot start: .*MongoDB.*127\.0\.0\.1:1/im);
    expect(stderr).not.toContain('pw-secret');
  }, 30_000);

  it('when the configuration is good and DATA_DIR does not exist yet, then the server makes it and says where it runs', async () => {
    const dir = path.join(await mkdtemp(path.join(tmpdir(), 'good-')), 'not', 'there', 'yet');
    const { stdout } = await start({ DATA_DIR: dir, BOT_FUNCTION_KEY: 'a-test-key-of-enough-length' });
    expect(stdout).toMatch(/Chatbot is running at http:\/\/127\.0\.0\.1:\d+/);
  });
});
