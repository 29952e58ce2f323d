import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../../shared/json-bounds.ts';
import { TEST_FUNCTION_KEY, startTestServer, storeLegs, type TestServer } from '../../test/start-test-server.ts';

const BOT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'bot.json');
const BOT_ID = 'hostile-input';

/** `levels` arrays nested in one another: `nested(2, '0')` is `[[0]]`. */
const nested = (levels: number, inner = '') => '['.repeat(levels) + inner + ']'.repeat(levels);
const wide = (values: number) => `[${new Array<string>(values).fill('0').join(',')}]`;

const address = (user: string) =>
  Buffer.from(JSON.stringify({ bot: BOT_ID, user, channelId: 'webchat' })).toString('base64url');

interface Endpoint {
  readonly name: string;
  readonly method: string;
  readonly path: (n: number) => string;
  /** The body as this endpoint expects it, with `inner` somewhere inside it; `inner` itself starts at depth `innerDepth`. */
  readonly wrap: (inner: string) => string;
  readonly innerDepth: number;
  readonly accepted: number;
  /** Values the endpoint accepts; one more is refused. */
  readonly maxValues: number;
}

const ENDPOINTS: Endpoint[] = [
  {
    name: 'the long trigger',
    method: 'POST',
    path: (n) => `/api/management/trigger/${address(`long-${n}`)}/operationFailed`,
    wrap: (inner) => `{"data":${inner}}`,
    innerDepth: 1,
    accepted: 202,
    maxValues: 10_000,
  },
  {
    name: 'the long trigger with mode',
    method: 'POST',
    path: (n) => `/api/management/trigger/${address(`mode-${n}`)}/operationFailed/clear`,
    wrap: (inner) => `{"data":${inner}}`,
    innerDepth: 1,
    accepted: 202,
    maxValues: 10_000,
  },
  {
    name: 'the short trigger',
    method: 'POST',
    path: (n) => `/api/trigger/${BOT_ID}/operationFailed?userId=short-${n}`,
    wrap: (inner) => `{"data":${inner}}`,
    innerDepth: 1,
    accepted: 202,
    maxValues: 10_000,
  },
  {
    name: 'a dataset replace',
    method: 'PUT',
    path: () => '/api/management/datasets/pushed',
    wrap: (inner) => `[{"placeId":"p1","extra":${inner}}]`,
    innerDepth: 2,
    accepted: 200,
    maxValues: 1_000_000,
  },
  {
    name: 'a dataset replace with rows',
    method: 'PUT',
    path: () => '/api/management/datasets/pushed',
    wrap: (inner) => `{"rows":[{"placeId":"p1","extra":${inner}}]}`,
    innerDepth: 3,
    accepted: 200,
    maxValues: 1_000_000,
  },
  {
    name: 'a dataset update',
    method: 'PATCH',
    path: () => '/api/management/datasets/pushed',
    wrap: (inner) => `{"upsert":[{"placeId":"p1","extra":${inner}}]}`,
    innerDepth: 3,
    accepted: 200,
    maxValues: 1_000_000,
  },
];

for (const leg of storeLegs()) {
  describe.skipIf(leg.skip)(`bounded JSON bodies (${leg.name})`, () => {
    let server: TestServer;
    let requests = 0;
    const send = (endpoint: Endpoint, body: string) =>
      fetch(`${server.url}${endpoint.path(++requests)}`, {
        method: endpoint.method,
        headers: { 'x-functions-key': TEST_FUNCTION_KEY, 'content-type': 'application/json' },
        body,
      });

    beforeAll(async () => {
      server = await startTestServer({
        ...leg.env(),
        BOT_DEFINITION: BOT,
        LOG_LEVEL: 'trace',
        MANAGEMENT_RATE_LIMIT: '100000',
      });
    });
    afterAll(async () => {
      await server?.stop();
    });

    const expectRefused = async (res: Response, limit: 'depth' | 'nodes') => {
      const body = (await res.json()) as {
        error: { code: string; message: string; details: { limit: string; max: number } };
      };
      expect(res.status).toBe(400);
      expect(body.error.code).toBe('invalid_body');
      expect(body.error.details.limit).toBe(limit);
      expect(body.error.message).toContain(
        limit === 'depth' ? `${MAX_JSON_DEPTH} levels` : `${body.error.details.max} values`,
      );
    };

    for (const endpoint of ENDPOINTS) {
      for (const depth of [5_000, 30_000]) {
        it(`when ${endpoint.name} gets a body nested ${depth} deep, then 400 invalid_body names the depth limit`, async () => {
          await expectRefused(await send(endpoint, endpoint.wrap(nested(depth - endpoint.innerDepth))), 'depth');
        });
      }

      it(`when ${endpoint.name} gets a body nested exactly ${MAX_JSON_DEPTH} deep, then it is accepted, and one level more is refused`, async () => {
        const atLimit = endpoint.wrap(nested(MAX_JSON_DEPTH - endpoint.innerDepth, '1'));
        const res = await send(endpoint, atLimit);
        expect(res.status, await res.clone().text()).toBe(endpoint.accepted);
        await expectRefused(
          await send(endpoint, endpoint.wrap(nested(MAX_JSON_DEPTH - endpoint.innerDepth + 1, '1'))),
          'depth',
        );
      });

      it(`when ${endpoint.name} gets a body one value wider than its limit, then 400 invalid_body names the value limit`, async () => {
        // The wrapper holds 2 to 5 values of its own; the array then tips the total over.
        await expectRefused(await send(endpoint, endpoint.wrap(wide(endpoint.maxValues))), 'nodes');
      });
    }

    it('when a dataset push carries a row nested 20,000 deep, then 400 invalid_body and the dataset keeps its rows', async () => {
      const dataset = ENDPOINTS[3]!;
      expect((await send(dataset, '[{"placeId":"kept"}]')).status).toBe(200);
      await expectRefused(await send(dataset, `[{"placeId":"a"},{"placeId":"b","deep":${nested(20_000)}}]`), 'depth');
      const info = await fetch(`${server.url}/api/management/datasets/pushed`, {
        headers: { 'x-functions-key': TEST_FUNCTION_KEY },
      });
      expect(((await info.json()) as { rowCount: number }).rowCount).toBe(1);
    });

    it('when a trigger address decodes to JSON nested 5,000 deep, then 400 invalid_address', async () => {
      const deepAddress = Buffer.from(
        `{"bot":"${BOT_ID}","user":"u","channelId":"webchat","conversation":{"a":${nested(5_000)}}}`,
      ).toString('base64url');
      const res = await fetch(`${server.url}/api/management/trigger/${deepAddress}/operationFailed`, {
        method: 'POST',
        headers: { 'x-functions-key': TEST_FUNCTION_KEY },
      });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('invalid_address');
    });

    it('when a dataset body is sent gzip-declared but is not gzip, then 400 invalid_body with a sentence, not a library message', async () => {
      const res = await fetch(`${server.url}/api/management/datasets/pushed`, {
        method: 'PUT',
        headers: {
          'x-functions-key': TEST_FUNCTION_KEY,
          'content-type': 'application/json',
          'content-encoding': 'gzip',
        },
        body: 'not gzip at all',
      });
      expect(res.status).toBe(400);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('invalid_body');
      expect(body.error.message).not.toMatch(/header check/);
    });

    it('when every hostile body has been answered, then no log line holds a stack or a RangeError', () => {
      const text = server.logText();
      expect(text).not.toMatch(/RangeError|Maximum call stack|"stack"|\n\s+at /);
      expect(server.logs.filter((line) => (line.level as number) >= 50)).toEqual([]);
    });
  });
}
