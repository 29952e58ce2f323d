import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { PASSWORD, setUpOwner, StudioClient, linkToken } from '../studio-server/test/studio-client.ts';
import { startTestServer, TEST_FUNCTION_KEY } from '../test/start-test-server.ts';
import { runCli } from './main.ts';

async function cli(args: string[], env: Record<string, string>): Promise<{ code: number; out: string; err: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const code = await runCli(args, { stdout, stderr, env });
  return { code, out, err };
}

describe('chatbot users', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('when the owner lost their password, then `users reset-password` prints a one-time link that sets a new one, and a restart with an owner prints no link', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'users-cli-'));
    dirs.push(dir);
    const env = { DATA_DIR: dir, BOT_FUNCTION_KEY: TEST_FUNCTION_KEY, PUBLIC_URL: 'https://bot.example.com' };
    let server = await startTestServer({}, dir);
    await setUpOwner(server.url, server.studio.setupLink!);
    await server.close();

    const listed = await cli(['users', 'list'], env);
    expect(listed).toMatchObject({ code: 0 });
    expect(listed.out).toContain('owner    owner@example.com');
    const reset = await cli(['users', 'reset-password', '--email', 'OWNER@example.com'], env);
    expect(reset.code).toBe(0);
    const link = /(https:\/\/bot\.example\.com\/studio\/setup#[A-Za-z0-9_-]+)/.exec(reset.out)![1]!;

    server = await startTestServer({}, dir);
    expect(server.studio.setupLink).toBeUndefined();
    const person = new StudioClient(server.url);
    expect((await person.get(`/studio/api/setup?token=${linkToken(link)}`)).body).toEqual({
      role: 'owner',
      email: 'owner@example.com',
      existing: true,
    });
    expect(
      (
        await person.post('/studio/api/setup', {
          token: linkToken(link),
          name: 'ignored',
          password: 'a brand new passphrase',
        })
      ).status,
    ).toBe(201);
    expect((await new StudioClient(server.url).login('owner@example.com', PASSWORD)).status).toBe(401);
    expect((await new StudioClient(server.url).login('owner@example.com', 'a brand new passphrase')).status).toBe(200);
    await server.close();
  }, 60_000);

  it('when `users add --role owner` runs, then it prints a setup link that creates another owner; bad arguments get the usage', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'users-cli-'));
    dirs.push(dir);
    const env = { DATA_DIR: dir, BOT_FUNCTION_KEY: TEST_FUNCTION_KEY, PORT: '4321' };
    const added = await cli(['users', 'add', '--role', 'owner', '--email', 'second@example.com'], env);
    expect(added.code).toBe(0);
    expect(added.out).toMatch(/http:\/\/127\.0\.0\.1:4321\/studio\/setup#[A-Za-z0-9_-]{43}/);
    expect((await cli(['users', 'add', '--role', 'king'], env)).code).toBe(2);
    expect((await cli(['users', 'reset-password', '--email', 'nobody@example.com'], env)).err).toContain(
      'no studio account',
    );
  });
});
