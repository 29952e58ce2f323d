import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Session } from '../../shared/protocol.ts';
import { botTexts, connectClient, eventually, startTestServer, type TestServer } from '../test/start-test-server.ts';
import { writeBot } from './test/every-step-bot.ts';

describe('durable wait-step timers', () => {
  let dir: string;
  let server: TestServer | undefined;
  afterAll(async () => {
    await server?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('when the server restarts while a wait step is pending, then the timer still fires afterwards and the user gets the message', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'timer-restart-'));
    // Long enough that a restart on a busy machine still finds the timer pending, short enough for a test.
    process.env.STEP_BOT_WAIT = '6s';
    const env = { BOT_DEFINITION: await writeBot(dir) };
    server = await startTestServer(env, dir);
    const client = connectClient(server.url);
    const session = await new Promise<Session>((resolve) => client.once('session', resolve));
    await eventually('the greeting', () => botTexts(client.items).includes('Your name?'));
    await client.emitWithAck('start_dialog', { dialogId: 'wait' });
    await eventually('the wait step', () => botTexts(client.items).includes('Waiting.'));
    const jobId = `timer:${session.userId}:wait.w`;
    expect(await server.store.getJob(jobId)).toMatchObject({ status: 'pending' });
    client.disconnect();
    await server.stop();
    server = undefined;

    // A new process would do the same: same data folder, same store, new job runner.
    server = await startTestServer(env, dir);
    const restarted = server;
    expect(await restarted.store.getJob(jobId)).toMatchObject({ status: 'pending' });
    const again = connectClient(restarted.url, { ...session, lastSeq: 0 });
    await eventually('the timeout after the restart', () => botTexts(again.items).includes('Time is up.'), 20_000);
    expect(await restarted.store.getJob(jobId)).toMatchObject({ status: 'done' });
    const transcript = await restarted.store.readTranscript(session.userId, 0, 100);
    expect(transcript.filter((e) => (e.message as { text?: string }).text === 'Time is up.')).toHaveLength(1);
    again.disconnect();
  }, 60_000);
});
