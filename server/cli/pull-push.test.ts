import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { definitionHash } from '../definition/canonical.ts';
import { parseDefinitionText } from '../definition/read-source.ts';
import { projectRoot } from '../paths.ts';
import { invite, setUpOwner, type StudioClient } from '../studio-server/test/studio-client.ts';
import { botTexts, connectClient, eventually, startTestServer, type TestServer } from '../test/start-test-server.ts';
import { compiledEntry } from '../test/compiled-server.ts';

/** The command as a team's CI runs it: its own process, the token in the environment. */
async function chatbot(
  env: Record<string, string>,
  ...args: string[]
): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, [await compiledEntry('server/cli/main.ts'), ...args], {
    cwd: projectRoot(),
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, out, err })));
}

const bot = {
  settings: { id: 'git', name: 'Git bot', startDialog: 'main' },
  dialogs: [
    {
      id: 'main',
      steps: [
        { id: 'hello', type: 'message', text: 'Hello from the first version.' },
        { id: 'ask', type: 'input', prompt: 'Anything?' },
      ],
    },
  ],
};

describe('chatbot pull and chatbot push with an API token', () => {
  let dir: string;
  let server: TestServer;
  let editor: StudioClient;
  let viewer: StudioClient;
  let env: Record<string, string>;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'pull-push-'));
    await writeFile(path.join(dir, 'bot.json'), JSON.stringify(bot));
    server = await startTestServer({ BOT_DEFINITION: path.join(dir, 'bot.json') });
    const owner = await setUpOwner(server.url, server.studio.setupLink!);
    editor = await invite(owner, 'ci@example.com', 'editor');
    viewer = await invite(owner, 'viewer@example.com', 'viewer');
    const token = (await editor.post('/studio/api/tokens', { name: 'CI' })).body.token as string;
    env = { CHATBOT_URL: server.url, CHATBOT_TOKEN: token, INIT_CWD: dir };
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('when a YAML file is pulled, edited and pushed with --publish, then it is a new version from "push", live at once, and a pull gives back exactly the pushed content', async () => {
    const pulled = await chatbot(env, 'pull', 'bot.yaml');
    expect(pulled).toMatchObject({ code: 0, out: `Wrote version v1 (published) to ${path.join(dir, 'bot.yaml')}\n` });
    const text = await readFile(path.join(dir, 'bot.yaml'), 'utf8');
    expect(text.startsWith('settings:\n  id: git\n')).toBe(true);
    await writeFile(path.join(dir, 'bot.yaml'), text.replace('Hello from the first version.', 'Hello from git.'));

    const pushed = await chatbot(env, 'push', 'bot.yaml', '-m', 'New greeting', '--publish');
    expect(pushed.code).toBe(0);
    expect(pushed.out).toBe(
      `Saved ${path.join(dir, 'bot.yaml')} as version v2\n  Step "hello" in dialog "main" changed: text.\nPublished version v2 (was v1)\n`,
    );
    const versions = (await viewer.get('/studio/api/versions')).body;
    expect(versions).toMatchObject({
      publishedId: 'v2',
      versions: [
        { id: 'v2', source: 'push', message: 'New greeting', author: { kind: 'token', email: 'ci@example.com' } },
        { id: 'v1' },
      ],
    });
    const client = connectClient(server.url);
    try {
      await eventually('the pushed greeting', () => botTexts(client.items).includes('Hello from git.'));
    } finally {
      client.disconnect();
    }

    // Pulled again: the same bytes as pushed, so `git diff` is clean.
    expect((await chatbot(env, 'pull', 'again.yaml')).code).toBe(0);
    expect(await readFile(path.join(dir, 'again.yaml'), 'utf8')).toBe(
      text.replace('Hello from the first version.', 'Hello from git.'),
    );
    // Pushing the same file again saves nothing.
    expect((await chatbot(env, 'push', 'bot.yaml')).out).toContain("The studio's newest version v2 already holds");
    // And a JSON pull of an earlier version reads back to it.
    expect((await chatbot(env, 'pull', 'old.json', '--version', 'v1')).code).toBe(0);
    const old = parseDefinitionText(await readFile(path.join(dir, 'old.json'), 'utf8'), 'json');
    expect('value' in old && definitionHash(old.value)).toBe(definitionHash(bot));
  }, 180_000);

  it('when a pushed file has errors, then they are printed with their paths, the push exits 1 and nothing is published', async () => {
    await writeFile(
      path.join(dir, 'broken.json'),
      JSON.stringify({ ...bot, settings: { ...bot.settings, startDialog: 'nope' } }),
    );
    const pushed = await chatbot(env, 'push', 'broken.json', '--publish');
    expect(pushed.code).toBe(1);
    expect(pushed.out).toContain('  settings.startDialog: no dialog "nope"');
    expect(pushed.err).toContain('Not published');
    expect((await viewer.get('/studio/api/versions')).body.publishedId).toBe('v2');
  }, 60_000);

  it('when the token is missing, wrong, or of a role that may not push, then the command says so and exits non-zero', async () => {
    const missing = await chatbot({ ...env, CHATBOT_TOKEN: '' }, 'pull', 'x.json');
    expect(missing).toMatchObject({
      code: 2,
      err: expect.stringContaining('no API token: set CHATBOT_TOKEN or pass --token'),
    });
    const wrong = await chatbot(env, 'pull', 'x.json', '--token', 'not-a-token');
    expect(wrong).toMatchObject({ code: 1, err: expect.stringContaining('The API token is not valid') });
    const viewerToken = (await viewer.post('/studio/api/tokens', { name: 'read only' })).body.token as string;
    const refused = await chatbot({ ...env, CHATBOT_TOKEN: viewerToken }, 'push', 'bot.yaml');
    expect(refused).toMatchObject({ code: 1, err: expect.stringContaining('you are signed in as viewer') });
    // The token never reaches the output.
    expect(JSON.stringify([missing, wrong, refused])).not.toContain(viewerToken);
    const unreachable = await chatbot({ ...env, CHATBOT_URL: 'http://127.0.0.1:9' }, 'pull', 'x.json');
    expect(unreachable).toMatchObject({ code: 1, err: expect.stringContaining('cannot reach http://127.0.0.1:9') });
  }, 120_000);
});
