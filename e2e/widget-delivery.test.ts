import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerProcess, type ServerProcess } from './server-process.ts';

let server: ServerProcess;

beforeAll(async () => {
  server = await startServerProcess();
});
afterAll(async () => {
  await server?.stop();
});

interface RawResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: Buffer;
}

/** A GET that hands back the bytes as sent: fetch would decompress them behind our back. */
function get(pathname: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}${pathname}`, { headers, timeout: 10_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`GET ${pathname} timed out`)));
    req.on('error', reject);
    req.end();
  });
}

/** The rest of the widget, under the hashed name the loader at /widget.js names. */
async function hashedScriptPath(): Promise<string> {
  const loader = await get('/widget.js');
  const name = /widget\.[0-9a-f]{12}\.js/.exec(loader.body.toString('utf8'))?.[0];
  if (!name) throw new Error('widget.js names no hashed script');
  return `/${name}`;
}

describe('delivery of widget.js', () => {
  it('when a browser accepts Brotli or gzip, then the loader and the rest arrive compressed and unpack to the same scripts', async () => {
    for (const script of ['/widget.js', await hashedScriptPath()]) {
      const plain = await get(script, { 'Accept-Encoding': 'identity' });
      const br = await get(script, { 'Accept-Encoding': 'gzip, deflate, br' });
      const gzip = await get(script, { 'Accept-Encoding': 'gzip' });

      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(br.headers['content-encoding']).toBe('br');
      expect(gzip.headers['content-encoding']).toBe('gzip');
      expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
      expect(gunzipSync(gzip.body).equals(plain.body)).toBe(true);
      expect(br.body.length).toBeLessThan(plain.body.length);
      for (const res of [plain, br, gzip]) expect(res.headers.vary).toMatch(/Accept-Encoding/i);
    }
  });

  it('when a browser refuses Brotli with q=0, then it gets gzip', async () => {
    const res = await get('/widget.js', { 'Accept-Encoding': 'br;q=0, gzip;q=0.5' });
    expect(res.headers['content-encoding']).toBe('gzip');
  });

  it('when a page on another origin loads the script, then CORS and CORP let it', async () => {
    const res = await get('/widget.js', { Origin: 'https://shop.example' });
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(res.headers['content-type']).toMatch(/^text\/javascript/);
  });

  it('when the stable name is asked for, then it may be cached briefly only; the hashed script it loads is cached for good', async () => {
    const stable = await get('/widget.js');
    const hashedPath = await hashedScriptPath();
    const hashed = await get(hashedPath, { 'Accept-Encoding': 'br' });

    expect(stable.headers['cache-control']).toBe('public, max-age=300');
    expect(hashed.status).toBe(200);
    expect(hashed.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(hashed.headers['content-encoding']).toBe('br');
    expect(hashed.headers['access-control-allow-origin']).toBe('*');
    expect(hashed.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(brotliDecompressSync(hashed.body).toString('utf8')).toContain('chat-widget');
  });

  it('when the rest imports a chunk (a renderer loaded when a message first needs it), then the chunk is served as the rest is: compressed, cached for good, readable from any origin, with its map', async () => {
    const rest = brotliDecompressSync((await get(await hashedScriptPath(), { 'Accept-Encoding': 'br' })).body).toString(
      'utf8',
    );
    const chunks = [...new Set(rest.match(/widget\.[a-z][a-z0-9-]*\.[0-9a-f]{12}\.js(?![a-z])/g) ?? [])];
    expect(chunks.map((name) => name.split('.')[1]).sort()).toEqual(['carousel', 'markdown']);
    for (const chunk of chunks) {
      const res = await get(`/${chunk}`, { 'Accept-Encoding': 'br', Origin: 'https://shop.example' });
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe('br');
      expect(res.headers['content-type']).toMatch(/^text\/javascript/);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers['access-control-allow-origin']).toBe('*');
      const code = brotliDecompressSync(res.body).toString('utf8');
      expect(/\/\/# sourceMappingURL=(\S+)\s*$/.exec(code)?.[1]).toBe(`${chunk}.map`);
      expect((await get(`/${chunk}.map`)).status).toBe(200);
    }
    expect((await get('/widget.carousel.000000000000.js')).status).toBe(404);
  });

  it('when a hashed name of another build is asked for, then the answer is 404', async () => {
    const res = await get('/widget.000000000000.js');
    expect(res.status).toBe(404);
  });

  it('when the browser revalidates with the ETag it holds, then the answer is 304 without a body; a stale ETag gets the script', async () => {
    const first = await get('/widget.js', { 'Accept-Encoding': 'br' });
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[^"]+"$/);

    const again = await get('/widget.js', { 'Accept-Encoding': 'br', 'If-None-Match': etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.etag).toBe(etag);

    const stale = await get('/widget.js', { 'Accept-Encoding': 'br', 'If-None-Match': '"0123456789ab-br"' });
    expect(stale.status).toBe(200);
    expect(stale.body.length).toBe(first.body.length);

    // Brotli and gzip bytes differ, so they must not share one tag.
    const gzip = await get('/widget.js', { 'Accept-Encoding': 'gzip', 'If-None-Match': etag });
    expect(gzip.status).toBe(200);
    expect(gzip.headers.etag).not.toBe(etag);
  });

  it("when developer tools follow a script's source map link, then the map is served and names no path of the server", async () => {
    const hashedPath = await hashedScriptPath();
    for (const [script, cacheControl, source] of [
      [hashedPath, 'public, max-age=31536000, immutable', 'widget/embed.ts'],
      ['/widget.js', 'public, max-age=300', 'widget/loader.ts'],
    ] as const) {
      const code = (await get(script)).body.toString('utf8');
      const link = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(code)?.[1];
      expect(link).toBe(`${script.slice(1)}.map`);
      const res = await get(`/${link}`, { 'Accept-Encoding': 'gzip' });
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe(cacheControl);
      const map = JSON.parse(gunzipSync(res.body).toString('utf8')) as {
        version: number;
        file: string;
        sources: string[];
      };
      expect(map.version).toBe(3);
      expect(`/${map.file}`).toBe(script);
      expect(map.sources).toContain(source);
      for (const name of map.sources) expect(name).toMatch(/^(widget|shared|node_modules)\//);
      expect(JSON.stringify(map)).not.toContain(process.cwd());
    }
  });
});
