import { Router } from 'express';

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/**
 * `GET /` of a server running a customer's own bot: a short page saying what this server
 * is and where the widget comes from. The demo shop page belongs to the demo bot only;
 * served for every bot, it would put a fake shop on each customer's chat address.
 */
export function homePage(botName: string): Router {
  const name = escapeHtml(botName);
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${name}</title><link rel="icon" href="data:,"></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.5">
<h1>${name}</h1>
<p>This server runs the chat bot ${name}. Its web chat widget is served at <a href="/widget.js"><code>/widget.js</code></a>: add it to a page with one script tag.</p>
<p>The management API is described at <a href="/api/management/docs">/api/management/docs</a>.</p>
</body>
</html>
`;
  const router = Router();
  router.get('/', (_req, res) => {
    res.type('html').set('Cache-Control', 'no-cache').send(html);
  });
  return router;
}
