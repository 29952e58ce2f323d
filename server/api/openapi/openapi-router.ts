import express, { Router } from 'express';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { BotDefinition } from '../../definition/schema.ts';
import { methodNotAllowed } from '../management/method-not-allowed.ts';
import { openApiDocument } from './document.ts';

const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Management API</title>
  <link rel="stylesheet" href="/api/management/docs/assets/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/api/management/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/api/management/docs/init.js"></script>
</body>
</html>
`;

// A file of its own rather than an inline script, so a strict Content-Security-Policy can stay strict.
const INIT_SCRIPT = `window.ui = SwaggerUIBundle({ url: '/api/management/openapi.json', dom_id: '#swagger-ui', deepLinking: true });\n`;

/**
 * GET /api/management/openapi.json and the rendered page at /api/management/docs/.
 * Both are public: the document holds no secrets, and the page asks for the key
 * (Authorize) before it tries a call.
 */
export function openApiRouter(definition: BotDefinition): Router {
  const document = JSON.stringify(openApiDocument(definition));
  const assets = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  const router = Router();
  const onlyGet = methodNotAllowed('GET, HEAD');
  router
    .route('/api/management/openapi.json')
    .get((_req, res) => {
      res.type('application/json').send(document);
    })
    .all(onlyGet);
  // Absolute URLs in the page, so /docs and /docs/ (one route to Express) both work.
  router
    .route('/api/management/docs')
    .get((_req, res) => {
      res.type('html').send(DOCS_PAGE);
    })
    .all(onlyGet);
  router
    .route('/api/management/docs/init.js')
    .get((_req, res) => {
      res.type('application/javascript').send(INIT_SCRIPT);
    })
    .all(onlyGet);
  router.use('/api/management/docs/assets', express.static(assets, { index: false, maxAge: '1h' }));
  return router;
}
