import { Router, type Request, type Response } from 'express';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { errorBody } from './errors.ts';

/**
 * Serves the widget's built files from dist/ as listed in widget-manifest.json
 * (written by scripts/widget-assets.ts): `/widget.js` (stable name, short cache),
 * `/widget.<hash>.js` and its source map, the chunks it imports when first needed
 * (`/widget.<name>.<hash>.js`, with maps), `/widget.<lang>.<hash>.json` (the widget's strings
 * in one language; all immutable). Any page of any origin may load
 * them, so they carry CORS and CORP headers; bodies are precompressed Brotli or gzip,
 * chosen by Accept-Encoding.
 */

type Encoding = 'br' | 'gzip' | 'identity';

interface Asset {
  readonly contentType: string;
  readonly cacheControl: string;
  readonly hash: string;
  readonly bodies: Readonly<Record<Encoding, Buffer>>;
}

interface ManifestFile {
  readonly contentType: string;
  readonly cache: 'immutable' | 'short';
  readonly hash: string;
}

const CACHE_CONTROL = {
  immutable: 'public, max-age=31536000, immutable',
  // Pages link the stable name: a new release reaches them within five minutes.
  short: 'public, max-age=300',
} as const;

const SUFFIX: Record<Encoding, string> = { br: '.br', gzip: '.gz', identity: '' };

function load(dir: string): Map<string, Asset> | undefined {
  let files: Record<string, ManifestFile>;
  try {
    files = (
      JSON.parse(readFileSync(path.join(dir, 'widget-manifest.json'), 'utf8')) as {
        files: Record<string, ManifestFile>;
      }
    ).files;
  } catch {
    return undefined;
  }
  const assets = new Map<string, Asset>();
  for (const [name, file] of Object.entries(files)) {
    const read = (encoding: Encoding) => readFileSync(path.join(dir, name + SUFFIX[encoding]));
    assets.set(`/${name}`, {
      contentType: file.contentType,
      cacheControl: CACHE_CONTROL[file.cache],
      hash: file.hash,
      bodies: { br: read('br'), gzip: read('gzip'), identity: read('identity') },
    });
  }
  return assets;
}

/** The best encoding the client accepts: Brotli, then gzip, else none (q=0 refuses one). */
export function chooseEncoding(acceptEncoding: string | undefined): Encoding {
  const accepted = new Map<string, number>();
  for (const part of (acceptEncoding ?? '').split(',')) {
    const [token = '', ...params] = part.trim().toLowerCase().split(';');
    if (!token) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const weight = q ? Number(q.slice(2)) : 1;
    accepted.set(token, Number.isFinite(weight) ? weight : 0);
  }
  const weightOf = (token: string) => accepted.get(token) ?? accepted.get('*') ?? 0;
  if (weightOf('br') > 0) return 'br';
  if (weightOf('gzip') > 0) return 'gzip';
  return 'identity';
}

/** One strong ETag per representation: the bytes differ per encoding, so the tags must too. */
function etagOf(asset: Asset, encoding: Encoding): string {
  return encoding === 'identity' ? `"${asset.hash}"` : `"${asset.hash}-${encoding}"`;
}

function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

function send(req: Request, res: Response, asset: Asset): void {
  const encoding = chooseEncoding(req.headers['accept-encoding']);
  const etag = etagOf(asset, encoding);
  res.set({
    'Content-Type': asset.contentType,
    'Cache-Control': asset.cacheControl,
    ETag: etag,
    Vary: 'Accept-Encoding',
    'Access-Control-Allow-Origin': '*',
    'Cross-Origin-Resource-Policy': 'cross-origin',
    'X-Content-Type-Options': 'nosniff',
  });
  if (matches(req.headers['if-none-match'], etag)) {
    res.status(304).end();
    return;
  }
  const body = asset.bodies[encoding];
  if (encoding !== 'identity') res.set('Content-Encoding', encoding);
  res.set('Content-Length', String(body.length));
  if (req.method === 'HEAD') res.end();
  else res.end(body);
}

export function widgetAssetsRouter(widgetDir: string): Router {
  const router = Router();
  // Read once; while nothing is built yet, look again on the next request.
  let assets: Map<string, Asset> | undefined;
  router.get(
    /^\/widget(?:(\.[a-z][a-z0-9-]*)?(\.[0-9a-f]{12})?\.js(\.map)?|\.[a-z]{2,3}\.[0-9a-f]{12}\.json)$/,
    (req, res, next) => {
      assets ??= load(widgetDir);
      const asset = assets?.get(req.path);
      if (asset) return send(req, res, asset);
      if (!assets && req.path === '/widget.js') {
        res.status(404).json(errorBody('not_found', 'widget.js is not built yet: run `npm run build`.'));
        return;
      }
      next();
    },
  );
  return router;
}
