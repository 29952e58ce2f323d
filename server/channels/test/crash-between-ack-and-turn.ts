/**
 * One proof for every connector: a webhook answered 200, then the process killed (SIGKILL) before its
 * turn has run → after the restart the turn runs once, and the user gets each answer exactly once, in
 * order, on the vendor stand-in's log.
 *
 * What holds a turn is no vendor's business: the bot understands each text with the intent classifier,
 * whose sentence embeddings come from an HTTP endpoint (EMBEDDINGS=http), and the test holds that
 * endpoint's answer. A turn asks for its text's embedding before the engine runs and before anything is
 * committed. So when the process dies, one acknowledged event's turn is taken and held with nothing
 * committed, and the next acknowledged event's turn has not begun (one user's turns run in order). Both
 * must run after the restart, once each; the vendor delivering either again changes nothing.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { startEmbeddingsServer } from '../../nlp/embeddings/test/embeddings-server.ts';
import { startServerChild, type ServerChild } from '../../test/server-child.ts';
import { eventually } from '../../test/start-test-server.ts';

/** What the proof needs of one vendor: its settings, its webhook posts, and what its stand-in delivered. */
export interface CrashVendor {
  /** The channel's environment (its credentials and the stand-in's URL). */
  readonly env: Readonly<Record<string, string>>;
  /** The connector's name: its webhook is `/api/webhooks/{channel}`. */
  readonly channel: string;
  /** One user's text message as the vendor posts it; calling the result again posts the same event again (a redelivery). */
  message(text: string): (webhookUrl: string) => Promise<Response>;
  /** The texts the stand-in accepted for that user, in arrival order: what the user received. */
  said(): readonly string[];
}

const WORDS = ['one', 'two', 'three', 'four'];

/** Free text routed by intent: each of four words has its dialog, which answers and listens again. */
function intentBot() {
  return {
    settings: { id: 'crash-bot', name: 'Crash test bot', startDialog: 'home', nlpThreshold: 0.2 },
    dialogs: [
      { id: 'home', steps: [{ id: 'listen', type: 'nlp', prompt: 'Say something.' }] },
      ...WORDS.map((word) => ({
        id: word,
        steps: [
          { id: 'said', type: 'message', text: `You said ${word}.` },
          { id: 'again', type: 'goto', dialog: 'home', step: 'listen' },
        ],
      })),
    ],
    intents: WORDS.map((word) => ({ id: word, dialog: word, utterances: [word, `number ${word}`] })),
  };
}

export async function proveCrashBetweenAckAndTurn(
  storeEnv: Readonly<Record<string, string>>,
  vendor: CrashVendor,
): Promise<void> {
  const embeddings = await startEmbeddingsServer();
  // The texts differ from every utterance, so no cached training embedding answers for them.
  const [one, two, three, four] = WORDS.map((word) => vendor.message(`say ${word}`));
  const dir = await mkdtemp(path.join(tmpdir(), `${vendor.channel}-crash-`));
  const file = path.join(dir, 'bot.json');
  await writeFile(file, JSON.stringify(intentBot()));
  const env: Record<string, string> = {
    ...storeEnv,
    ...vendor.env,
    DATA_DIR: dir,
    BOT_DEFINITION: file,
    EMBEDDINGS: 'http',
    EMBEDDINGS_URL: embeddings.url,
    EMBEDDINGS_MODEL: 'test-model',
    EMBEDDINGS_TIMEOUT: '30s',
    INTEGRATION_ALLOWED_HOSTS: '127.0.0.1',
    JOB_LEASE_SECONDS: '2',
    LOG_LEVEL: 'warn',
  };
  const webhook = (server: ServerChild) => `${server.url}/api/webhooks/${vendor.channel}`;
  let server: ServerChild | undefined = await startServerChild(env);
  /** What the killed process wrote, for a failure's message. */
  let killed = '';
  try {
    expect((await one!(webhook(server))).status).toBe(200);
    await eventually("the first turn's answers", () => vendor.said().length === 3, 20_000);
    // This proof is about the inbound side: a send the vendor took but the store has not yet marked done
    // goes out again after a crash (no vendor here takes an idempotency key), so none is left in flight.
    await new Promise((resolve) => setTimeout(resolve, 1000));

    // Answers from now on come after the process is gone.
    embeddings.delay(20_000);
    const asked = embeddings.upstream.seen.length;
    expect((await two!(webhook(server))).status).toBe(200);
    await eventually('the second turn to be under way', () => embeddings.upstream.seen.length > asked, 20_000);
    // Acknowledged, its turn queued behind the held one: it has not begun when the process dies.
    expect((await three!(webhook(server))).status).toBe(200);
    await server.kill();
    killed = server.output();
    embeddings.delay(0);
    expect(vendor.said()).not.toContain('You said two.');

    server = await startServerChild(env);
    await eventually('the turns after the restart', () => vendor.said().includes('You said three.'), 30_000);
    // The vendor delivering them again (it had its 200s, but may still) changes nothing.
    expect((await two!(webhook(server))).status).toBe(200);
    expect((await three!(webhook(server))).status).toBe(200);
    expect((await four!(webhook(server))).status).toBe(200);
    const expected = [
      'Say something.',
      'You said one.',
      'Say something.',
      'You said two.',
      'Say something.',
      'You said three.',
      'Say something.',
      'You said four.',
      'Say something.',
    ];
    await eventually('a later answer', () => vendor.said().length >= expected.length, 20_000);
    // A doubled answer would follow the last one closely: a second for it to show.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(vendor.said()).toEqual(expected);
  } catch (error) {
    throw new Error(
      `${String(error)}\nthe user received: ${JSON.stringify(vendor.said())}\nthe embeddings endpoint was asked ${embeddings.upstream.seen.length} times\nthe server said:\n${killed}${server?.output() ?? ''}`,
      { cause: error },
    );
  } finally {
    await server?.stop();
    await embeddings.close();
    await rm(dir, { recursive: true, force: true });
  }
}
