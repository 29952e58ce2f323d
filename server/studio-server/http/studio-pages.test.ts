import express from 'express';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { errorHandler } from '../../api/errors.ts';
import { chooseEncoding } from '../../api/widget-assets.ts';
import { createLogger } from '../../logger.ts';
import { studioPages } from './studio-pages.ts';

async function serve(appDir: string): Promise<{ url: string; server: Server }> {
  const app = express();
  app.use(studioPages(appDir, chooseEncoding));
  app.use(errorHandler(createLogger('silent')));
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return { url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`, server };
}

describe('studio pages', () => {
  let dir: string;
  let built: { url: string; server: Server };
  let unbuilt: { url: string; server: Server };

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'studio-pages-'));
    await mkdir(path.join(dir, 'app', 'assets'), { recursive: true });
    await writeFile(
      path.join(dir, 'app', 'index.html'),
      '<!doctype html><title>Studio</title><script type="module" src="/studio/assets/index-abc.js"></script>',
    );
    await writeFile(path.join(dir, 'app', 'assets', 'index-abc.js'), 'export {};');
    await writeFile(path.join(dir, 'app', 'assets', 'index-abc.js.br'), brotliCompressSync('export {};'));
    await writeFile(path.join(dir, 'app', 'assets', 'index-abc.js.gz'), gzipSync('export {};'));
    built = await serve(path.join(dir, 'app'));
    unbuilt = await serve(path.join(dir, 'missing'));
  });
  afterAll(async () => {
    built.server.close();
    unbuilt.server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('when a browser accepts Brotli or gzip, then a script comes precompressed in the best one, cached for good; else as it is; Vary says so either way', async () => {
    const get = (acceptEncoding: string) =>
      fetch(`${built.url}/studio/assets/index-abc.js`, { headers: { 'accept-encoding': acceptEncoding } });
    // fetch decodes the body as the header says: the right text proves the bytes were the encoding named.
    const br = await get('gzip, deflate, br');
    expect([
      br.status,
      br.headers.get('content-encoding'),
      br.headers.get('content-type'),
      br.headers.get('vary'),
    ]).toEqual([200, 'br', 'text/javascript; charset=utf-8', 'Accept-Encoding']);
    expect(br.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await br.text()).toBe('export {};');
    const gzip = await get('gzip;q=1, br;q=0');
    expect(gzip.headers.get('content-encoding')).toBe('gzip');
    expect(await gzip.text()).toBe('export {};');
    const plain = await get('identity');
    expect([plain.headers.get('content-encoding'), plain.headers.get('vary'), await plain.text()]).toEqual([
      null,
      'Accept-Encoding',
      'export {};',
    ]);
  });

  it('when a page under /studio/ is asked for, then the app page comes with the strict policy and is never cached', async () => {
    for (const address of ['/studio/', '/studio/versions', '/studio/designer/main']) {
      const response = await fetch(built.url + address);
      expect(response.status).toBe(200);
      const policy = response.headers.get('content-security-policy') ?? '';
      expect(policy).toContain("script-src 'self'");
      expect(policy).not.toContain('unsafe-inline');
      expect(policy).toContain("frame-ancestors 'none'");
      expect(policy).toContain("require-trusted-types-for 'script'");
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(await response.text()).toContain('<title>Studio</title>');
    }
  });

  it('when /studio is asked for without the slash, then it redirects to /studio/', async () => {
    const response = await fetch(`${built.url}/studio`, { redirect: 'manual' });
    expect(response.status).toBe(308);
    expect(response.headers.get('location')).toBe('/studio/');
  });

  it('when a hashed asset is asked for, then it is cached for a year; /studio/api is left to the API', async () => {
    const asset = await fetch(`${built.url}/studio/assets/index-abc.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toContain('immutable');
    expect((await fetch(`${built.url}/studio/api/session`)).status).toBe(404);
  });

  it('when the studio was not built, then the page says so in the catalogue body', async () => {
    const response = await fetch(`${unbuilt.url}/studio/`);
    expect(response.status).toBe(503);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('studio_not_built');
    expect(body.error.message).toContain('npm run build');
  });
});
