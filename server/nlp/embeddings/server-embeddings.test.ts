import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Session } from '../../../shared/protocol.ts';
import {
  botTexts,
  connectClient,
  eventually,
  startTestServer,
  TEST_FUNCTION_KEY,
  type TestServer,
} from '../../test/start-test-server.ts';
import { BACKGROUND_EN } from '../background-en.ts';
import { startEmbeddingsServer, type EmbeddingsServer } from './test/embeddings-server.ts';

const KEY = 'sk-server-test-key-0123456789abcdef';

function bot(trackUtterances: string[]) {
  return {
    settings: { id: 'shop', name: 'Shop', startDialog: 'ask' },
    dialogs: [
      {
        id: 'ask',
        steps: [
          { id: 'listen', type: 'nlp', prompt: 'How can I help?', onNoMatch: 'unsure' },
          { id: 'unsure', type: 'message', text: 'Unsure.' },
        ],
      },
      { id: 'track', steps: [{ id: 't', type: 'message', text: 'Tracking.' }] },
      { id: 'cancel', steps: [{ id: 'c', type: 'message', text: 'Cancelling.' }] },
      {
        id: 'faq',
        steps: [
          { id: 'q', type: 'faq', prompt: 'Ask me.', noMatchText: 'No idea.' },
          { id: 'again', type: 'goto', dialog: 'faq' },
        ],
      },
    ],
    intents: [
      { id: 'track', dialog: 'track', utterances: trackUtterances },
      {
        id: 'cancel',
        dialog: 'cancel',
        utterances: ['cancel my order', 'I want to cancel the purchase', 'stop my order please', 'undo my order'],
      },
    ],
    faq: [
      { id: 'hours', questions: ['When are you open?', 'opening hours'], answer: 'From 9 to 5.' },
      { id: 'price', questions: ['How much does delivery cost?'], answer: 'Delivery is free.' },
    ],
  };
}
const TRACK = ['where is my order', 'track my parcel', 'has my package shipped', 'status of my delivery'];
/** The definition's utterances and FAQ phrasings, and the off-topic sentences calibration reads at load. */
const TRAINING_TEXTS = [
  ...TRACK,
  'cancel my order',
  'I want to cancel the purchase',
  'stop my order please',
  'undo my order',
  'When are you open?',
  'opening hours',
  'How much does delivery cost?',
  ...BACKGROUND_EN,
];

let dir: string;
let definition: string;
let embeddings: EmbeddingsServer;
let server: TestServer | undefined;
let clientIds = 0;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'embeddings-server-'));
  definition = path.join(dir, 'bot.json');
  await writeFile(definition, JSON.stringify(bot(TRACK)));
  embeddings = await startEmbeddingsServer({ apiKey: KEY });
});
afterEach(async () => {
  await server?.stop();
  server = undefined;
  await embeddings.close();
  await rm(dir, { recursive: true, force: true });
});

const start = () =>
  startTestServer(
    {
      BOT_DEFINITION: definition,
      EMBEDDINGS: 'http',
      EMBEDDINGS_URL: embeddings.url,
      EMBEDDINGS_MODEL: 'test-model',
      EMBEDDINGS_API_KEY: KEY,
      EMBEDDINGS_TIMEOUT: '500ms',
      INTEGRATION_ALLOWED_HOSTS: '127.0.0.1',
    },
    path.join(dir, 'data'),
  );

async function exported(kind: 'nlpLog' | 'fuzzyQuestionAnswerLog', userId: string): Promise<Record<string, unknown>[]> {
  const res = await fetch(`${server!.url}/api/management/export/${kind}`, {
    headers: { 'x-functions-key': TEST_FUNCTION_KEY },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as Record<string, unknown>[]).filter((row) => row.userId === userId);
}

async function chat(): Promise<{
  client: ReturnType<typeof connectClient>;
  session: Session;
  say(text: string, expected: string): Promise<void>;
}> {
  const client = connectClient(server!.url);
  const session = await new Promise<Session>((resolve) => client.once('session', resolve));
  await eventually('the prompt', () => botTexts(client.items).includes('How can I help?'));
  return {
    client,
    session,
    async say(text, expected) {
      const before = botTexts(client.items).length;
      await client.emitWithAck('message', { clientId: `e${++clientIds}`, text });
      await eventually(`"${expected}"`, () => botTexts(client.items).slice(before).includes(expected));
    },
  };
}

// Each case starts the real server (twice in the first): on a loaded machine that takes longer than the default 20 s.
describe('sentence embeddings through the running server (EMBEDDINGS=http)', { timeout: 90_000 }, () => {
  it('when the server starts twice on one data folder, then the second start embeds nothing; a reload embeds only the utterance that changed', async () => {
    server = await start();
    expect(new Set(embeddings.texts)).toEqual(new Set(TRAINING_TEXTS));
    expect(server.logs.find((l) => l.event === 'embeddings')).toMatchObject({
      model: `${embeddings.host}/test-model`,
      encoded: TRAINING_TEXTS.length,
    });
    await server.stop();

    const sent = embeddings.texts.length;
    server = await start();
    expect(embeddings.texts.length).toBe(sent);
    expect(server.logs.find((l) => l.event === 'embeddings')).toMatchObject({ encoded: 0 });

    await writeFile(definition, JSON.stringify(bot([...TRACK.slice(0, 3), 'where has my shipment got to'])));
    expect(await server.reload()).toEqual({ ok: true });
    expect(embeddings.texts.slice(sent)).toEqual(['where has my shipment got to']);
    expect(server.logs.find((l) => l.event === 'definition_reloaded')).toMatchObject({ encoded: 1 });
  });

  it('when free text is routed and a question answered, then the NLP and FAQ log rows carry every spec field, the combined model id and the new scores', async () => {
    server = await start();
    const { client, session, say } = await chat();
    await say('where is my parcel', 'Tracking.');
    await client.emitWithAck('start_dialog', { dialogId: 'faq' });
    await eventually('the faq prompt', () => botTexts(client.items).includes('Ask me.'));
    await say('what are your opening hours', 'From 9 to 5.');
    client.disconnect();

    const [nlp] = await exported('nlpLog', session.userId);
    expect(Object.keys(nlp!).sort()).toEqual([
      'dialogId',
      'intent',
      'modelId',
      'processed',
      'query',
      'result',
      'stepId',
      'stepType',
      'timestamp',
      'userId',
    ]);
    expect(nlp).toMatchObject({
      dialogId: 'ask',
      stepId: 'listen',
      stepType: 'nlp',
      query: 'where is my parcel',
      intent: 'track',
      processed: true,
    });
    expect(nlp!.modelId).toMatch(
      new RegExp(`^tfidf\\+${embeddings.host.replace(/\./g, '\\.')}/test-model-[0-9a-f]{12}$`),
    );
    const result = nlp!.result as {
      score: number;
      threshold: number;
      dialog: string;
      classifications: { intent: string; score: number }[];
    };
    // The definition sets no nlpThreshold: the row carries the one the classifier calibrated at load.
    expect(result).toMatchObject({ threshold: expect.any(Number), dialog: 'track' });
    expect(result.score).toBeGreaterThanOrEqual(result.threshold);
    expect(result.classifications[0]).toEqual({ intent: 'track', score: result.score });
    expect(new Date(nlp!.timestamp as string).toISOString()).toBe(nlp!.timestamp);

    const [faq] = await exported('fuzzyQuestionAnswerLog', session.userId);
    expect(Object.keys(faq!).sort()).toEqual([
      'dialogId',
      'intent',
      'matched',
      'otherClassifications',
      'score',
      'stepId',
      'text',
      'timestamp',
      'userId',
    ]);
    expect(faq).toMatchObject({
      intent: 'hours',
      text: 'what are your opening hours',
      stepId: 'q',
      dialogId: 'faq',
      matched: true,
    });
    expect(faq!.score).toBeGreaterThanOrEqual(0.6);
    // The turn's texts went to the endpoint once each, as queries, after the training texts.
    expect(embeddings.texts.slice(TRAINING_TEXTS.length)).toEqual([
      'where is my parcel',
      'what are your opening hours',
    ]);
  });

  it('when the endpoint fails during a turn, then the turn is still answered on words alone, logged under the word model, and operators are warned without the key', async () => {
    server = await start();
    const { client, session, say } = await chat();
    embeddings.fail(503);
    await say('track my parcel please', 'Tracking.');
    await client.emitWithAck('start_dialog', { dialogId: 'ask' });
    await eventually(
      'the prompt again',
      () => botTexts(client.items).filter((t) => t === 'How can I help?').length === 2,
    );
    await say('cancel my order now', 'Cancelling.');
    client.disconnect();
    const rows = await exported('nlpLog', session.userId);
    expect(rows.map((r) => [r.intent, r.processed])).toEqual([
      ['track', true],
      ['cancel', true],
    ]);
    for (const row of rows) expect(row.modelId).toMatch(/^tfidf-[0-9a-f]{12}$/);
    const warnings = server.logs.filter((l) => l.event === 'embeddings_unavailable');
    expect(warnings).toHaveLength(1);
    expect(String(warnings[0]!.msg)).toMatch(/classified on words alone.*answered 503/);
    expect(server.logText()).not.toContain(KEY);
  });

  it('when the endpoint is on loopback and not allowed, then start-up stops with a sentence naming the setting', async () => {
    const error = await startTestServer(
      {
        BOT_DEFINITION: definition,
        EMBEDDINGS: 'http',
        EMBEDDINGS_URL: embeddings.url,
        EMBEDDINGS_MODEL: 'test-model',
      },
      path.join(dir, 'data'),
    ).catch((e: unknown) => e as Error);
    expect((error as Error).message).toMatch(/EMBEDDINGS_URL is refused.*INTEGRATION_ALLOWED_HOSTS/);
    expect(embeddings.upstream.seen).toHaveLength(0);
  });
});
