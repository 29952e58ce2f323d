import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';

export interface HostPage {
  /** The port the page is served on, under whatever name the browser maps to loopback. */
  readonly port: number;
  close(): Promise<void>;
}

export interface HostPageOptions {
  /** What the page passes to `ChatWidget('init', …)`; default `{ user: { email: 'ada@example.com' } }`. A request's `?init=<JSON>` wins. */
  readonly init?: Readonly<Record<string, unknown>>;
  /**
   * A Content-Security-Policy header for the page, given the nonce of this response (a fresh one
   * each time, on the page's own inline script only, as a site with a strict policy does).
   */
  readonly csp?: (nonce: string) => string;
}

/**
 * A customer's page on its own origin: the embed snippet from the README and one script
 * tag loading widget.js from the bot's address (read per request: the bot may start after
 * the page, when its settings name the page's port). Any path serves the same page.
 */
export async function serveHostPage(widgetUrl: () => string, options: HostPageOptions = {}): Promise<HostPage> {
  const html = (nonce: string, init: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Shop</title>${options.csp ? '' : '<link rel="icon" href="data:,">'}
<script${options.csp ? ` nonce="${nonce}"` : ''}>
  window.ChatWidget = window.ChatWidget || function () { (window.ChatWidget.q = window.ChatWidget.q || []).push(arguments); };
  ChatWidget('init', ${init});
</script>
<script src="${widgetUrl()}" async></script>
</head><body><h1>A shop on another origin</h1></body></html>`;
  const server: Server = createServer((req, res) => {
    // A page without an icon link (under a policy, where data: would need img-src data:): no icon, no error.
    if (req.url === '/favicon.ico') return void res.writeHead(204).end();
    const nonce = randomBytes(16).toString('base64');
    const asked = new URL(req.url ?? '/', 'http://shop').searchParams.get('init');
    const init = JSON.stringify(
      asked ? (JSON.parse(asked) as unknown) : (options.init ?? { user: { email: 'ada@example.com' } }),
    );
    res.writeHead(200, {
      'Content-Type': 'text/html; charset=utf-8',
      ...(options.csp ? { 'Content-Security-Policy': options.csp(nonce) } : {}),
    });
    res.end(html(nonce, init));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
