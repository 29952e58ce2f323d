import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeLegs, type TestServer } from '../../../test/start-test-server.ts';
import { Contract } from './contract.ts';
import { BOT_ID, KEY, encodeAddress, seedUser, startManagementServer } from './helpers.ts';

type Obj = Record<string, unknown>;

/** Runs per store leg: enough to reach every operation and error path, bounded so the suite stays quick. */
const RUNS = 250;

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  schema?: Obj;
}

const weird = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.constantFrom(
    '',
    '-1',
    '1.5',
    '0',
    '99999999999999',
    'NaN',
    '%',
    '..',
    'clear',
    'json',
    'csv',
    'ndjson',
    '10000',
    '10001',
    '=cmd',
    'null',
    '[]',
    '{}',
  ),
  fc.integer({ min: -10, max: 2_000_000_000 }).map(String),
);

function valueFor(param: Parameter): fc.Arbitrary<string> {
  if (param.name === 'address_base64') {
    const address = fc.record(
      {
        bot: fc.oneof(fc.constant(BOT_ID), fc.string({ maxLength: 8 })),
        user: fc.string({ minLength: 1, maxLength: 12 }),
        channelId: fc.constant('webchat'),
      },
      { requiredKeys: [] },
    );
    return fc.oneof(
      address.map((a) => encodeAddress(a)),
      address.map((a) => encodeAddress(a, 'base64url')),
      fc.json().map((j) => Buffer.from(j).toString('base64')),
      weird,
    );
  }
  if (param.name === 'dialog_id')
    return fc.oneof(fc.constantFrom('operationSucceeded', 'operationFailed', 'greeting'), weird);
  if (param.name === 'bot_id') return fc.oneof(fc.constant(BOT_ID), weird);
  const schema = param.schema ?? {};
  if (Array.isArray(schema.enum)) return fc.oneof(fc.constantFrom(...(schema.enum as string[])), weird);
  if (schema.type === 'integer')
    return fc.oneof(
      fc
        .integer({ min: (schema.minimum as number) ?? 0, max: Math.min((schema.maximum as number) ?? 2e9, 2e9) })
        .map(String),
      weird,
    );
  return fc.oneof(fc.constantFrom('a@example.com', 'email,name', 'score', 'Two'), weird);
}

for (const leg of storeLegs()) {
  describe.skipIf(leg.skip)(`fuzzing from the OpenAPI document (${leg.name})`, () => {
    let server: TestServer;
    let document: Obj;

    beforeAll(async () => {
      server = await startManagementServer({ ...leg.env(), MANAGEMENT_RATE_LIMIT: '1000000' });
      document = (await (await fetch(`${server.url}/api/management/openapi.json`)).json()) as Obj;
      await seedUser(server.store, 'f-1', Date.UTC(2026, 0, 1), { email: 'a@example.com', score: 1 });
    });
    afterAll(async () => {
      await server?.stop();
    });

    it('when random requests are built from the document, then none gets a 5xx or breaks the contract', async () => {
      const contract = new Contract(document);
      const resolve = (p: unknown): Parameter => {
        const ref = (p as Obj).$ref;
        return (
          typeof ref === 'string'
            ? (document.components as Obj).parameters &&
              ((document.components as Obj).parameters as Obj)[ref.split('/').pop()!]
            : p
        ) as Parameter;
      };
      const operations = Object.entries(document.paths as Obj).flatMap(([template, item]) =>
        Object.entries(item as Obj).map(([method, op]) => ({
          template,
          method: method.toUpperCase(),
          parameters: (((op as Obj).parameters ?? []) as unknown[]).map(resolve),
        })),
      );

      const request = fc.constantFrom(...operations).chain((op) =>
        fc.record({
          op: fc.constant(op),
          // A ".." path segment is resolved by the client before sending: the request reaches another path, not this operation.
          path: fc.tuple(
            ...op.parameters
              .filter((p) => p.in === 'path')
              .map((p) =>
                valueFor(p)
                  .filter((v) => v !== '' && v !== '..')
                  .map((v) => [p.name, v] as const),
              ),
            fc.constant(['', ''] as const),
          ),
          query: fc
            .subarray(op.parameters.filter((p) => p.in === 'query'))
            .chain((ps) => fc.tuple(fc.constant(null), ...ps.map((p) => valueFor(p).map((v) => [p.name, v] as const)))),
          extraQuery: fc.option(
            fc.tuple(fc.constantFrom('whereEmail', 'whereshoe', 'foo', 'notEmpty', 'cursor'), weird),
            { nil: undefined },
          ),
          key: fc.constantFrom<'header' | 'query' | 'none' | 'wrong'>('header', 'header', 'query', 'none', 'wrong'),
          body: fc.oneof(
            fc.constant(undefined),
            fc
              .dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 })
              .map((o) => ({ type: 'application/json', text: JSON.stringify(o) })),
            fc.json({ maxDepth: 2 }).map((text) => ({ type: 'application/json', text })),
            fc.string({ maxLength: 40 }).map((text) => ({ type: 'text/plain', text })),
            fc.string({ maxLength: 40 }).map((text) => ({ type: 'application/json', text })),
          ),
        }),
      );

      const failures: string[] = [];
      await fc
        .assert(
          fc.asyncProperty(request, async ({ op, path, query, extraQuery, key, body }) => {
            let url = op.template;
            for (const [name, value] of path) if (name) url = url.replace(`{${name}}`, encodeURIComponent(value));
            const params = new URLSearchParams();
            for (const entry of query) if (entry) params.append(entry[0], entry[1]);
            if (extraQuery) params.append(extraQuery[0], extraQuery[1]);
            if (key === 'query') params.append('code', KEY);
            if (key === 'wrong') params.append('code', 'wrong');
            const full = `${server.url}${url}${params.size ? `?${params}` : ''}`;
            const headers: Record<string, string> = key === 'header' ? { 'x-functions-key': KEY } : {};
            const init: RequestInit = { method: op.method, headers };
            if (body && op.method === 'POST') {
              headers['content-type'] = body.type;
              init.body = body.text;
            }
            const res = await fetch(full, init);
            const status = res.status;
            const check = await contract.check(op.method, full, res);
            if (status >= 500 || !check.ok)
              failures.push(`${op.method} ${full} → ${status}: ${check.problems.join('; ')}`);
            return status < 500 && check.ok;
          }),
          { numRuns: RUNS, seed: 20260521 },
        )
        .catch((error: unknown) => {
          throw new Error(
            `${(error as Error).message.split('\n').slice(0, 3).join('\n').slice(0, 1500)}\nfirst failures:\n${failures.slice(0, 5).join('\n')}`,
          );
        });
      expect(failures).toEqual([]);
    }, 120_000);
  });
}
