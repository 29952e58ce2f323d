import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../../api/create-app.ts';
import { systemClock } from '../../ports/clock.ts';
import type { Store } from '../../ports/store.ts';
import { openSqliteStore } from '../../stores/sqlite/sqlite-store.ts';
import { eventually } from '../../test/start-test-server.ts';
import { IntegrationRuntime } from '../run-integration.ts';
import { captureLogger, json, readAll, startUpstream, tempDir, type Upstream } from '../test/upstream.ts';

const KEY = 'dataset-function-key-0123456789';
const PUSH_SECRET = 'source-api-token-8c7b6a';

const place = (id: string, lat: number, lon: number, tags: string[], name = id) => ({
  placeId: id,
  name,
  location: { lat, lon },
  kinds: tags,
});

describe('background datasets', () => {
  let source: Upstream;
  let store: Store;
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let runtime: IntegrationRuntime;
  let http: Server;
  let base: string;
  const logger = captureLogger();
  let served: unknown = { places: [place('p1', 52.2297, 21.0122, ['cafe']), place('p2', 52.25, 21.0, ['museum'])] };

  const build = () =>
    IntegrationRuntime.create(
      {
        services: { places: { baseUrl: `${source.url}/feeds`, auth: { type: 'bearer', tokenEnv: 'PLACES_TOKEN' } } },
        datasets: [
          {
            name: 'places',
            source: { service: 'places', url: 'places.json', rows: 'places' },
            refreshIntervalSec: 3600,
            fields: { id: 'placeId', tags: 'kinds', lat: 'location.lat', lon: 'location.lon' },
          },
          { name: 'pushed', fields: { id: 'placeId', tags: 'kinds', lat: 'location.lat', lon: 'location.lon' } },
        ],
      },
      { store, clock: systemClock, logger, env: { PLACES_TOKEN: PUSH_SECRET }, allowedHosts: ['127.0.0.1'] },
    );

  const call = (method: string, path: string, body?: unknown, key: string | null = KEY) =>
    fetch(`${base}${path}`, {
      method,
      headers: {
        ...(key ? { 'x-functions-key': key } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  beforeAll(async () => {
    dir = await tempDir();
    store = openSqliteStore({ file: dir.file('d.sqlite') });
    source = await startUpstream((req, res) =>
      req.headers.authorization === `Bearer ${PUSH_SECRET}` ? json(res, 200, served) : json(res, 401, {}),
    );
  });
  beforeEach(async () => {
    runtime = build();
    http = createServer(
      createApp({
        store,
        logger,
        widgetDir: dir.file('none'),
        datasets: { target: runtime.datasets, functionKey: KEY },
      }),
    );
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  });
  afterEach(async () => {
    await runtime.close();
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  });
  afterAll(async () => {
    await source.close();
    await store.close();
    await dir.dispose();
  });

  it('when the server starts with a never-pulled dataset, then it pulls, maps the fields and answers queries', async () => {
    await runtime.start();
    await eventually('the first pull', async () => (await store.datasetInfo('places'))?.rowCount === 2);
    const near = await runtime.run(
      { type: 'queryDataset', params: { dataset: 'places', lat: 52.23, lon: 21.01, radiusKm: 1 } },
      { userId: 'u', variables: {}, userData: {} },
    );
    expect(near).toMatchObject({ ok: true, output: [{ id: 'p1', name: 'p1', distanceKm: expect.any(Number) }] });
    const byTag = await runtime.run(
      { type: 'queryDataset', params: { dataset: 'places', tags: ['museum'] } },
      { userId: 'u', variables: {}, userData: {} },
    );
    expect(byTag).toMatchObject({ ok: true, output: [{ id: 'p2' }] });
  });

  it('when the source fails, then the last good rows stay and the failure is logged', async () => {
    await runtime.start();
    expect(await runtime.datasets.pull('places')).toMatchObject({ ok: true, rowCount: 2 });
    source.handle((_req, res) => json(res, 500, { error: 'down' }));
    expect(await runtime.datasets.pull('places')).toMatchObject({ ok: false, error: { kind: 'status' } });
    source.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"places": [garbage');
    });
    expect(await runtime.datasets.pull('places')).toMatchObject({ ok: false, error: { kind: 'invalid_body' } });
    expect(runtime.datasets.query('places', {}).map((h) => h.row.id)).toEqual(['p1', 'p2']);
    expect((await store.readDataset('places')).map((r) => r.id)).toEqual(['p1', 'p2']);
    expect(
      logger.lines.some((line) => line.includes('dataset_pull_failed') && line.includes('"dataset":"places"')),
    ).toBe(true);
    const rows = await readAll(store);
    expect(rows.some((r) => r.userId === '(background)' && r.data.responseStatus === 500)).toBe(true);
    expect(JSON.stringify(rows)).not.toContain(PUSH_SECRET);
    source.handle((req, res) =>
      req.headers.authorization === `Bearer ${PUSH_SECRET}` ? json(res, 200, served) : json(res, 401, {}),
    );
  });

  it('when the external server pushes a full replace, then the dataset holds exactly the pushed rows', async () => {
    await runtime.start();
    const response = await call('PUT', '/api/management/datasets/pushed', [
      place('a', 1, 1, ['x']),
      place('b', 2, 2, ['y']),
    ]);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ rowCount: 2 });
    expect((await call('PUT', '/api/management/datasets/pushed', { rows: [place('c', 3, 3, ['z'])] })).status).toBe(
      200,
    );
    expect(runtime.datasets.query('pushed', {}).map((h) => h.row.id)).toEqual(['c']);
    expect((await store.readDataset('pushed')).map((r) => r.id)).toEqual(['c']);
  });

  it('when the external server pushes an incremental change, then rows are upserted and deleted by id', async () => {
    await runtime.start();
    await call('PUT', '/api/management/datasets/pushed', [place('a', 1, 1, ['x']), place('b', 2, 2, ['y'])]);
    const response = await call('PATCH', '/api/management/datasets/pushed', {
      upsert: [place('b', 2, 2, ['y'], 'B renamed'), place('d', 4, 4, [])],
      delete: ['a'],
    });
    expect(await response.json()).toEqual({ rowCount: 2 });
    const rows = runtime.datasets.query('pushed', {}).map((h) => ({ id: h.row.id, name: h.row.data.name }));
    expect(rows).toEqual([
      { id: 'b', name: 'B renamed' },
      { id: 'd', name: 'd' },
    ]);
    expect((await store.readDataset('pushed')).map((r) => r.id)).toEqual(['b', 'd']);
    const info = await (await call('GET', '/api/management/datasets/pushed')).json();
    expect(info).toMatchObject({ name: 'pushed', rowCount: 2, updatedAt: expect.stringMatching(/Z$/) });
  });

  it('when a push lacks the key, names an unknown dataset or sends bad rows, then it is refused with the catalogue body and nothing changes', async () => {
    await runtime.start();
    await call('PUT', '/api/management/datasets/pushed', [place('a', 1, 1, [])]);
    const noKey = await call('PUT', '/api/management/datasets/pushed', [], null);
    expect(noKey.status).toBe(401);
    expect(await noKey.json()).toMatchObject({ error: { code: 'unauthorized' } });
    expect((await call('PUT', '/api/management/datasets/pushed', [], 'wrong-key-wrong-key-wrong')).status).toBe(401);
    const unknown = await call('PUT', '/api/management/datasets/ghost', []);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({
      error: { code: 'not_found', message: expect.stringContaining('pushed') },
    });
    const bad = await call('PUT', '/api/management/datasets/pushed', [{ name: 'no id' }]);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({
      error: { code: 'invalid_body', message: expect.stringContaining('row 0 has no placeId') },
    });
    expect((await call('PATCH', '/api/management/datasets/pushed', {})).status).toBe(400);
    expect(runtime.datasets.query('pushed', {}).map((h) => h.row.id)).toEqual(['a']);
  });

  it('when the external server signals a change, then the bot pulls the source', async () => {
    await runtime.start();
    await eventually('the first pull', async () => (await store.datasetInfo('places'))?.rowCount === 2);
    served = { places: [place('p9', 10, 10, ['new'])] };
    const response = await call('POST', '/api/management/datasets/places/refresh');
    expect(response.status).toBe(202);
    await eventually(
      'the signalled pull',
      () =>
        runtime.datasets
          .query('places', {})
          .map((h) => h.row.id)
          .join() === 'p9',
    );
  });

  it('when the server restarts, then the stored rows are loaded back without a pull', async () => {
    await runtime.start();
    await call('PUT', '/api/management/datasets/pushed', [place('kept', 5, 5, ['t'])]);
    await runtime.close();
    runtime = build();
    await runtime.start();
    expect(runtime.datasets.query('pushed', { tags: ['t'] }).map((h) => h.row.id)).toEqual(['kept']);
  });

  it('when the point of a radius query is templated and the variables lack it, then the call fails naming what is missing instead of ignoring the radius', async () => {
    await runtime.start();
    served = { places: [place('near', 10, 10, ['x']), place('far', 12, 12, ['x'])] };
    expect((await call('POST', '/api/management/datasets/places/refresh')).status).toBe(202);
    await eventually('the pull', () => runtime.datasets.query('places', {}).length === 2);
    const step = { type: 'queryDataset', params: { dataset: 'places', lat: '{{lat}}', lon: '{{lon}}', radiusKm: 1 } };
    const within = await runtime.run(step, { userId: 'u', variables: { lat: 10, lon: 10 }, userData: {} });
    expect(within).toMatchObject({ ok: true, output: [{ id: 'near' }] });
    expect((within as { output: unknown[] }).output).toHaveLength(1);
    const without = await runtime.run(step, { userId: 'u', variables: {}, userData: {} });
    expect(without).toMatchObject({
      ok: false,
      error: { kind: 'invalid_params', message: expect.stringContaining('"radiusKm" needs "lat" as well') },
    });
  });
});
