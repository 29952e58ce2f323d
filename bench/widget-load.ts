// Time from widget.js arriving until the launcher is visible, in Chromium, on the demo
// page served by the real server. Prints figures; asserts nothing (a benchmark, not a test).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { launchBrowser } from '../e2e/browser.ts';
import { readConfig } from '../server/config.ts';
import { startServer } from '../server/main.ts';

const RUNS = Number(process.env.BENCH_WIDGET_RUNS ?? 20);

if (!existsSync('dist/widget.js')) spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { stdio: 'inherit' });
const dir = await mkdtemp(path.join(tmpdir(), 'bench-widget-'));
const server = await startServer(readConfig({ PORT: '0', DATA_DIR: dir, LOG_LEVEL: 'silent', BOT_FUNCTION_KEY: 'bench-function-key-0123456789' }));
const browser = await launchBrowser();

// Runs in the page before anything else: note the first frame in which the launcher has a size.
const probe = `(() => {
  const tick = () => {
    const launcher = document.querySelector('chat-widget')?.shadowRoot?.querySelector('.launcher');
    const box = launcher?.getBoundingClientRect();
    if (box && box.width > 0 && box.height > 0) window.__launcherVisibleAt = performance.now();
    else requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})();`;

const fromScript: number[] = [];
const fromNavigation: number[] = [];
try {
  for (let run = 0; run < RUNS; run++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.addInitScript(probe);
    await page.goto(server.url);
    await page.waitForFunction(() => (window as unknown as { __launcherVisibleAt?: number }).__launcherVisibleAt !== undefined);
    const timing = await page.evaluate(() => {
      const script = performance.getEntriesByType('resource').find((e) => e.name.endsWith('/widget.js')) as PerformanceResourceTiming | undefined;
      return { visible: (window as unknown as { __launcherVisibleAt: number }).__launcherVisibleAt, scriptLoaded: script?.responseEnd ?? 0 };
    });
    fromScript.push(timing.visible - timing.scriptLoaded);
    fromNavigation.push(timing.visible);
    await context.close();
  }
} finally {
  await browser.close();
  await server.close();
  await rm(dir, { recursive: true, force: true });
}

function stats(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return `median ${at(0.5).toFixed(1)} ms, p95 ${at(0.95).toFixed(1)} ms, min ${at(0).toFixed(1)} ms`;
}
process.stdout.write(`widget launcher visible (${RUNS} cold page loads, Chromium headless):\n`);
process.stdout.write(`  from widget.js loaded:   ${stats(fromScript)}\n`);
process.stdout.write(`  from navigation start:   ${stats(fromNavigation)}\n`);
