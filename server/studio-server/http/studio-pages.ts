import express, { Router } from 'express';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { HttpError } from '../../ports/http-error.ts';

/**
 * The studio's policy: scripts, styles and connections from its own origin only, no inline
 * script, no framing, and Trusted Types so no string ever reaches an HTML sink (Lit creates its
 * templates through its own `lit-html` policy).
 */
export const STUDIO_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  // The preview shows the bot's own pictures (cards, avatars) from wherever its author keeps them; a
  // picture cannot run code, and no-referrer keeps the studio's addresses from its host.
  "img-src 'self' data: https:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "require-trusted-types-for 'script'",
  'trusted-types lit-html',
].join('; ');

/** Headers on every studio page: no caching of a signed-in screen, no sniffing, no referrer, no framing. */
export const STUDIO_PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': STUDIO_CSP,
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=()',
};

/** The encoding to send of a precompressed file, from the request's Accept-Encoding (the widget's rule, wired in by start/). */
export type EncodingChoice = (acceptEncoding: string | undefined) => 'br' | 'gzip' | 'identity';

const SUFFIX = { br: '.br', gzip: '.gz' } as const;
const TYPES: Readonly<Record<string, string>> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  map: 'application/json; charset=utf-8',
};
const ASSET_HEADERS = {
  'x-content-type-options': 'nosniff',
  'cross-origin-resource-policy': 'same-origin',
  vary: 'Accept-Encoding',
};

/**
 * Serves the built web app (dist/studio) at /studio: content-hashed assets cached for a year,
 * sent precompressed (Brotli or gzip, written at build) when the browser accepts it, every other
 * address under /studio/ the app's page (it routes in the browser). /studio/api is not answered here.
 */
export function studioPages(appDir: string, encodingFor: EncodingChoice = () => 'identity'): Router {
  // Strict: /studio and /studio/ differ (the first redirects to the second).
  const router = Router({ strict: true });
  const indexFile = path.join(appDir, 'index.html');
  let page: string | undefined;
  router.get('/studio', (_req, res) => res.redirect(308, '/studio/'));
  const assetsDir = path.join(appDir, 'assets');
  router.get(/^\/studio\/assets\/([\w.-]+)\.(js|css|map)$/, (req, res, next) => {
    const encoding = encodingFor(req.headers['accept-encoding']);
    if (encoding === 'identity') return next();
    const name = path.basename(req.path);
    const file = path.join(assetsDir, name + SUFFIX[encoding]);
    if (!existsSync(file)) return next();
    res.set({
      ...ASSET_HEADERS,
      'content-type': TYPES[name.slice(name.lastIndexOf('.') + 1)]!,
      'content-encoding': encoding,
    });
    res.sendFile(file, { immutable: true, maxAge: '365d' }, (error) => error && next(error));
  });
  router.use(
    '/studio/assets',
    express.static(assetsDir, {
      immutable: true,
      maxAge: '365d',
      index: false,
      fallthrough: true,
      setHeaders: (res) => {
        for (const [name, value] of Object.entries(ASSET_HEADERS)) res.setHeader(name, value);
      },
    }),
  );
  router.get(/^\/studio\/(?!api(\/|$)|assets\/).*/, (_req, res, next) => {
    if (page === undefined && existsSync(indexFile)) page = readFileSync(indexFile, 'utf8');
    if (page === undefined) {
      // The app's error handler gives it the catalogue's body, like every other route.
      next(
        new HttpError(
          503,
          'studio_not_built',
          'The studio has not been built on this server: run `npm run build`, then start the server again.',
        ),
      );
      return;
    }
    res.set(STUDIO_PAGE_HEADERS).type('html').send(page);
  });
  return router;
}
