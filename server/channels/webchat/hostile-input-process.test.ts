import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../paths.ts';
import { TEST_FUNCTION_KEY } from '../../test/start-test-server.ts';
import { answersName, greeted } from './test/demo-conversation.ts';
import { deepArrayJson, emitRaw, handshakeRaw } from './test/hostile-frames.ts';
import { compiledEntry } from '../../test/compiled-server.ts';

/**
 * The server as its own process (`node --import tsx server/main.ts`), because an
 * unhandled rejection only shows its real effect there: Node stops the process.
 */
describe('web chat server process against hostile input', () => {
  let child: ChildProcess;
  let output = '';
  let url = '';
  let dataDir = '';
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'chatbot-hostile-'));
    child = spawn(process.execPath, [await compiledEntry('server/main.ts')], {
      cwd: projectRoot(),
      env: {
        ...process.env,
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        MONGODB_URL: '',
        BOT_FUNCTION_KEY: TEST_FUNCTION_KEY,
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    url = await new Promise<string>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`the server exited with ${code}:\n${output}`)));
      const check = () => {
        const running = /Chatbot is running at (\S+)/.exec(output);
        if (running?.[1]) resolve(running[1]);
        else setTimeout(check, 25);
      };
      check();
    });
  });
  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await rm(dataDir, { recursive: true, force: true });
  });

  it('when an anonymous visitor sends the reported 12,000-deep page_event and handshake, then the process stays up and every conversation goes on', async () => {
    const bystander = await greeted(url);
    const attacker = await greeted(url);

    const deep = deepArrayJson(12_000);
    const frames = [
      ['page_event', `{"name":"clicked","payload":{"x":${deep}}}`],
      ['set_user_data', `{"fields":{"x":${deep}}}`],
      ['start_dialog', `{"dialogId":"greeting","data":{"x":${deep}}}`],
    ] as const;
    for (const [event, payload] of frames) {
      expect(await emitRaw(attacker, event, payload)).toMatchObject({ ok: false, error: { code: 'invalid_payload' } });
    }
    expect(await handshakeRaw(url, `{"user":{"x":${deepArrayJson(12_000)}}}`)).toMatchObject({
      code: 'invalid_payload',
    });

    await answersName(attacker, 'Ada');
    await answersName(bystander, 'Grace');
    expect(child.exitCode).toBe(null);
    expect(output).not.toMatch(/RangeError|Unhandled/);
    attacker.disconnect();
    bystander.disconnect();
  });
});
