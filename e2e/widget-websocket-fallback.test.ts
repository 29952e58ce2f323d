// A proxy in front of the bot that accepts the WebSocket upgrade and then drops the connection
// (closes it, or keeps it open in silence). The widget must notice within a few seconds and go
// on over long-polling through the same proxy: a behaviour bound, not a benchmark.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDroppingWebSocketProxy, type DroppingWebSocketProxy } from './fixtures/dropping-websocket-proxy.ts';
import { BOT_HOST, startTwoOrigins, type TwoOrigins } from './two-origins.ts';

/** What "a few seconds" means here: a visitor still waiting after this has given up on the chat. */
const FALLBACK_BOUND_MS = 5000;

let sites: TwoOrigins;
const proxies: Partial<Record<'close' | 'silent', DroppingWebSocketProxy>> = {};
let via: 'close' | 'silent' = 'close';

beforeAll(async () => {
  // The page loads the widget from the proxy's address: the widget then talks to the bot through it.
  sites = await startTwoOrigins({ widgetUrl: () => `http://${BOT_HOST}:${proxies[via]?.port ?? 0}/widget.js` });
  proxies.close = await startDroppingWebSocketProxy(sites.bot.port, 'close');
  proxies.silent = await startDroppingWebSocketProxy(sites.bot.port, 'silent');
});
afterAll(async () => {
  await proxies.close?.stop();
  await proxies.silent?.stop();
  await sites?.close();
});

describe('the widget behind a proxy that accepts WebSocket upgrades and drops them', () => {
  for (const drop of ['close', 'silent'] as const) {
    it(`when the proxy ${drop === 'close' ? 'closes' : 'silences'} the WebSocket after accepting it, then the bot's greeting arrives over long-polling within ${FALLBACK_BOUND_MS / 1000} s of the first attempt`, async () => {
      via = drop;
      const proxy = proxies[drop];
      if (!proxy) throw new Error('no proxy');
      const context = await sites.browser.newContext();
      const page = await context.newPage();
      const frames: string[] = [];
      page.on('websocket', (ws) => ws.on('framereceived', (frame) => frames.push(String(frame.payload))));
      await page.goto(sites.shopUrl);
      // The rest of the widget loads at the click at the latest, and its first WebSocket attempt with it:
      // the time counts from that attempt, so the download of the widget on a busy machine is not in it.
      await page.getByRole('button', { name: 'Open chat' }).click();
      const log = page.getByRole('log');
      await expect.poll(() => log.textContent(), { timeout: 30_000, interval: 100 }).toContain("Hi! I'm the demo bot.");
      const waited = Date.now() - (proxy.firstUpgradeAt() ?? Number.NaN);

      expect(proxy.upgrades(), 'WebSocket upgrades the proxy accepted').toBeGreaterThan(0);
      expect(proxy.polls(), 'long-polling requests through the proxy').toBeGreaterThan(0);
      expect(frames, 'nothing came over a WebSocket').toEqual([]);
      expect(waited, `greeting after ${waited} ms`).toBeLessThan(FALLBACK_BOUND_MS);

      // And the conversation goes on over it.
      await page.getByRole('textbox', { name: 'Message' }).fill('Ada');
      await page.getByRole('button', { name: 'Send' }).click();
      await expect.poll(() => log.textContent(), { timeout: 15_000 }).toContain('Nice to meet you, Ada!');
      await context.close();
    });
  }
});
