// What the widget costs a host page, in Chromium, with the host page on another origin than
// the bot's server (as on a customer's site): the page's own load and first paint with and
// without the widget, the time to the launcher, and the time from a click on the launcher to
// the first bot message on screen, once clicked at once (the rest of the widget not loaded
// yet) and once after the page went idle; beside it, the whole widget loaded by one script
// tag (the hashed file), as before the loader. Every run is a fresh profile (cold cache).
// Prints figures; asserts nothing (a benchmark, not a test).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../e2e/browser.ts';
import { startServerProcess } from '../e2e/server-process.ts';

const RUNS = Number(process.env.BENCH_WIDGET_RUNS ?? 15);

if (!existsSync('dist/server/main.js') || !existsSync('dist/widget-manifest.json'))
  spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
// The built server in its own process, as deployed; it also keeps its CPU off this process's clock.
const bot = await startServerProcess({ LOG_LEVEL: 'silent' });

// For reference, the same page loading the whole widget in one script (an ES module), as before the loader existed.
const whole = (JSON.parse(readFileSync('dist/widget-manifest.json', 'utf8')) as { script: string }).script;
const SCRIPTS: Readonly<Record<string, string>> = { '/with-widget': 'widget.js', '/with-whole-widget': whole };

/** A plain article page; with a script, also the embed snippet and the script tag. */
function hostPage(script: string | undefined): string {
  const widget = script
    ? `<script>window.ChatWidget=window.ChatWidget||function(){(window.ChatWidget.q=window.ChatWidget.q||[]).push(arguments)};ChatWidget('init',{user:{page:'/article'}});</script>
<script src="${bot.url}/${script}"${script === 'widget.js' ? '' : ' type="module"'} async></script>`
    : '';
  const text =
    '<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore.</p>'.repeat(
      40,
    );
  return `<!doctype html><html><head><meta charset="utf-8"><title>Host article</title>${widget}</head><body><h1>Host article</h1>${text}</body></html>`;
}
const host = createServer((req, res) => {
  res
    .writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' })
    .end(hostPage(SCRIPTS[req.url ?? '']));
});
await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
const address = host.address();
// Another port is another origin: the host page is not served by the bot's server.
const hostUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

// Runs in the page before anything else: the first frame with a launcher (the loader's or the
// element's) of non-zero size, and the first frame with a bot message in an open panel.
const probe = `(() => {
  const launcher = () =>
    document.querySelector('chat-widget-launcher')?.shadowRoot?.querySelector('button') ??
    document.querySelector('chat-widget')?.shadowRoot?.querySelector('.launcher');
  window.__clickLauncher = () => { window.__clickedAt = performance.now(); launcher().click(); };
  const tick = () => {
    const box = launcher()?.getBoundingClientRect();
    if (window.__launcherAt === undefined && box && box.width > 0) {
      window.__launcherAt = performance.now();
      // In the same frame, as a visitor's quickest click: the rest of the widget is not loaded yet.
      if (window.__openAtOnce) window.__clickLauncher();
    }
    const widget = document.querySelector('chat-widget');
    if (window.__clickedAt !== undefined && widget?.open && widget.shadowRoot?.querySelector('.panel:not([hidden]) .msg.bot')) {
      window.__botMessageAt = performance.now();
      return;
    }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})();`;

interface Sample {
  load: number;
  firstPaint: number;
  launcher?: number;
  openToBotMessage?: number;
  botMessage?: number;
}

type Probe = {
  __launcherAt?: number;
  __clickedAt?: number;
  __botMessageAt?: number;
  __clickLauncher: () => void;
  ChatWidget?: unknown;
};

async function pageTimings(page: Page): Promise<{ load: number; firstPaint: number }> {
  await page.waitForFunction(() => performance.getEntriesByType('navigation')[0]?.toJSON().loadEventEnd > 0);
  return page.evaluate(() => ({
    load: (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).loadEventEnd,
    firstPaint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
  }));
}

/** One cold load. `open`: never, at once when the launcher shows, or once the rest has loaded. */
async function run(browser: Browser, pagePath: string, open: 'never' | 'at-once' | 'after-idle'): Promise<Sample> {
  const withWidget = pagePath !== '/without-widget';
  const context = await browser.newContext();
  const page = await context.newPage();
  if (open === 'at-once') await page.addInitScript('window.__openAtOnce = true;');
  await page.addInitScript(probe);
  await page.goto(`${hostUrl}${pagePath}`);
  const sample: Sample = await pageTimings(page);
  if (withWidget) {
    await page.waitForFunction(() => (window as unknown as Probe).__launcherAt !== undefined);
    if (open === 'after-idle') await page.waitForFunction(() => document.querySelector('chat-widget') !== null);
    if (open === 'after-idle') await page.evaluate(() => (window as unknown as Probe).__clickLauncher());
    if (open !== 'never') {
      await page.waitForFunction(() => (window as unknown as Probe).__botMessageAt !== undefined, undefined, {
        timeout: 15_000,
      });
    }
    const marks = await page.evaluate(() => {
      const w = window as unknown as Probe;
      return {
        launcher: w.__launcherAt,
        botMessage: w.__botMessageAt,
        open:
          w.__botMessageAt !== undefined && w.__clickedAt !== undefined ? w.__botMessageAt - w.__clickedAt : undefined,
      };
    });
    sample.launcher = marks.launcher;
    sample.openToBotMessage = marks.open;
    sample.botMessage = marks.botMessage;
  }
  await context.close();
  return sample;
}

function stats(values: readonly (number | undefined)[]): string {
  const sorted = values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return 'n/a';
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return `median ${at(0.5).toFixed(1).padStart(6)} ms, p95 ${at(0.95).toFixed(1).padStart(6)} ms`;
}

const browser = await launchBrowser();
const without: Sample[] = [];
const idle: Sample[] = [];
const atOnce: Sample[] = [];
const afterIdle: Sample[] = [];
const wholeIdle: Sample[] = [];
const wholeAtOnce: Sample[] = [];
try {
  // Interleaved, so a slow moment of the machine hits every variant alike.
  for (let i = 0; i < RUNS; i++) {
    without.push(await run(browser, '/without-widget', 'never'));
    idle.push(await run(browser, '/with-widget', 'never'));
    atOnce.push(await run(browser, '/with-widget', 'at-once'));
    afterIdle.push(await run(browser, '/with-widget', 'after-idle'));
    wholeIdle.push(await run(browser, '/with-whole-widget', 'never'));
    wholeAtOnce.push(await run(browser, '/with-whole-widget', 'at-once'));
  }
} finally {
  await browser.close();
  host.close();
  await bot.stop();
}

const out = (label: string, value: string) => process.stdout.write(`  ${label.padEnd(48)} ${value}\n`);
process.stdout.write(
  `widget on a host page of another origin (${RUNS} cold loads each, Chromium headless, loopback):\n`,
);
out('host page load event', '');
out('  without the widget', stats(without.map((s) => s.load)));
out('  with the loader (widget.js)', stats(idle.map((s) => s.load)));
out('  with the whole widget in one script', stats(wholeIdle.map((s) => s.load)));
out('host page first contentful paint', '');
out('  without the widget', stats(without.map((s) => s.firstPaint)));
out('  with the loader', stats(idle.map((s) => s.firstPaint)));
out('  with the whole widget in one script', stats(wholeIdle.map((s) => s.firstPaint)));
out('navigation to launcher visible', '');
out('  with the loader', stats(idle.map((s) => s.launcher)));
out('  with the whole widget in one script', stats(wholeIdle.map((s) => s.launcher)));
out('click to first bot message on screen', '');
out('  loader, clicked as the launcher shows', stats(atOnce.map((s) => s.openToBotMessage)));
out('  loader, clicked once the rest loaded', stats(afterIdle.map((s) => s.openToBotMessage)));
out('  whole widget, clicked as the launcher shows', stats(wholeAtOnce.map((s) => s.openToBotMessage)));
out('navigation to first bot message on screen', '');
out('  loader, clicked as the launcher shows', stats(atOnce.map((s) => s.botMessage)));
out('  whole widget, clicked as the launcher shows', stats(wholeAtOnce.map((s) => s.botMessage)));
