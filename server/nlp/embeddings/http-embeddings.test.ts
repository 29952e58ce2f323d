import { afterEach, describe, expect, it } from 'vitest';
import { SafeHttpClient } from '../../integrations/http/safe-http-client.ts';
import { EmbeddingError } from '../../ports/embeddings.ts';
import { httpEmbeddings } from './http-embeddings.ts';
import { DIMENSIONS, startEmbeddingsServer, type EmbeddingsServer } from './test/embeddings-server.ts';
import { dense } from './vectors.ts';

const KEY = 'sk-test-embeddings-key-0123456789';
let server: EmbeddingsServer;
afterEach(() => server?.close());

/** The client main.ts builds for EMBEDDINGS=http, with the loopback stand-in allowed as INTEGRATION_ALLOWED_HOSTS would allow it. */
const allowed = () => new SafeHttpClient({ allowedHosts: ['127.0.0.1'] });

async function failure(promise: Promise<unknown>): Promise<EmbeddingError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(EmbeddingError);
  return error as EmbeddingError;
}

describe('embeddings from an OpenAI-compatible endpoint', () => {
  it('when the endpoint answers, then every text gets a unit vector in order, and the request follows the reference with the bearer key', async () => {
    server = await startEmbeddingsServer({ apiKey: KEY });
    const provider = httpEmbeddings(
      { url: server.url, model: 'test-model', apiKey: KEY, queryTimeoutMs: 2000 },
      allowed(),
    );
    const [a, b, c] = await provider.embed(['track my parcel', 'where is my parcel', 'cancel the order'], 'batch');
    expect(a).toHaveLength(DIMENSIONS);
    for (const v of [a, b, c]) expect(dense(v!, v!)).toBeCloseTo(1, 5);
    // Texts sharing words are closer: the order of the answer was kept.
    expect(dense(a!, b!)).toBeGreaterThan(dense(a!, c!));
    const body = JSON.parse(server.upstream.seen[0]!.body) as Record<string, unknown>;
    expect(body).toEqual({
      model: 'test-model',
      input: ['track my parcel', 'where is my parcel', 'cancel the order'],
      encoding_format: 'float',
    });
    expect(server.upstream.seen[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(provider.modelId).toBe(`${server.host}/test-model`);
    await provider.close();
  });

  it('when there are more training texts than one request carries, then they go in several requests and come back in order', async () => {
    server = await startEmbeddingsServer();
    const provider = httpEmbeddings({ url: server.url, model: 'm', queryTimeoutMs: 2000, batchSize: 4 }, allowed());
    const texts = Array.from({ length: 10 }, (_, i) => `utterance number ${i}`);
    const vectors = await provider.embed(texts, 'batch');
    expect(server.upstream.seen).toHaveLength(3);
    expect(server.texts).toEqual(texts);
    const [single] = await provider.embed(['utterance number 7'], 'query');
    expect(dense(single!, vectors[7]!)).toBeCloseTo(1, 5);
    await provider.close();
  });

  it('when the endpoint is slower than the query deadline, then the query fails as a timeout instead of holding the turn', async () => {
    server = await startEmbeddingsServer();
    server.delay(2000);
    const provider = httpEmbeddings({ url: server.url, model: 'm', queryTimeoutMs: 150 }, allowed());
    const started = performance.now();
    const error = await failure(provider.embed(['hello'], 'query'));
    expect(error.kind).toBe('timeout');
    expect(error.message).toMatch(/did not answer within 150 ms/);
    expect(performance.now() - started).toBeLessThan(1500);
    await provider.close();
  });

  it('when the endpoint is on a loopback address that INTEGRATION_ALLOWED_HOSTS does not list, then the call is refused before anything is sent', async () => {
    server = await startEmbeddingsServer();
    const provider = httpEmbeddings({ url: server.url, model: 'm', queryTimeoutMs: 2000 }, new SafeHttpClient());
    const error = await failure(provider.embed(['hello'], 'batch'));
    expect(error.kind).toBe('refused');
    expect(error.message).toMatch(/INTEGRATION_ALLOWED_HOSTS/);
    expect(server.upstream.seen).toHaveLength(0);
    await provider.close();
  });

  it('when a name resolves to a private address, then it is refused too (the check is on the resolved address)', async () => {
    server = await startEmbeddingsServer();
    const provider = httpEmbeddings(
      { url: `http://localhost:${server.upstream.port}/v1/embeddings`, model: 'm', queryTimeoutMs: 2000 },
      new SafeHttpClient(),
    );
    expect((await failure(provider.embed(['hello'], 'query'))).kind).toBe('refused');
    expect(server.upstream.seen).toHaveLength(0);
    await provider.close();
  });

  it('when the key is wrong, then the error says which setting to check and never holds the key', async () => {
    server = await startEmbeddingsServer({ apiKey: 'the-right-key-0123456789' });
    const provider = httpEmbeddings({ url: server.url, model: 'm', apiKey: KEY, queryTimeoutMs: 2000 }, allowed());
    const error = await failure(provider.embed(['hello'], 'batch'));
    expect(error.message).toMatch(/401.*EMBEDDINGS_API_KEY/);
    expect(JSON.stringify({ message: error.message, stack: error.stack })).not.toContain(KEY);
    await provider.close();
  });

  it('when the answer is not a list of embeddings, or lacks one, then it is refused as an invalid answer', async () => {
    server = await startEmbeddingsServer();
    const provider = httpEmbeddings({ url: server.url, model: 'm', queryTimeoutMs: 2000 }, allowed());
    server.upstream.handle((_req, res) => void res.end('<html>proxy error</html>'));
    expect((await failure(provider.embed(['a'], 'query'))).kind).toBe('invalid_answer');
    server.upstream.handle((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ data: [{ index: 0, embedding: [1, 0] }] }));
    });
    const error = await failure(provider.embed(['a', 'b'], 'batch'));
    expect(error.message).toMatch(/1 embeddings for 2 texts/);
    await provider.close();
  });
});
