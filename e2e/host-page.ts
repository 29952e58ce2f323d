import { createServer, type Server } from 'node:http';

export interface HostPage {
  /** The port the page is served on, under whatever name the browser maps to loopback. */
  readonly port: number;
  close(): Promise<void>;
}

/**
 * A customer's page on its own origin: the embed snippet from the README and one script
 * tag loading widget.js from the bot's address (read per request: the bot may start after
 * the page, when its settings name the page's port). Any path serves the same page.
 */
export async function serveHostPage(widgetUrl: () => string): Promise<HostPage> {
  const html = () => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Shop</title><link rel="icon" href="data:,">
<script>
  window.ChatWidget = window.ChatWidget || function () { (window.ChatWidget.q = window.ChatWidget.q || []).push(arguments); };
  ChatWidget('init', { user: { email: 'ada@example.com' } });
</script>
<script src="${widgetUrl()}" async></script>
</head><body><h1>A shop on another origin</h1></body></html>`;
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(html());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
