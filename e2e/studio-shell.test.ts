import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './browser.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';

describe('the studio web app in Chromium', () => {
  let browser: Browser;
  let server: ServerProcess;

  beforeAll(async () => {
    server = await startServerProcess();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('when /studio is opened, then the app draws under its own strict policy with no violation and no console error', async () => {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) =>
        console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`),
      );
    });
    const response = await page.goto(`${server.url}/studio`);
    expect(response?.headers()['content-security-policy']).toContain("require-trusted-types-for 'script'");
    await expect.poll(() => page.getByRole('heading', { level: 1 }).count()).toBeGreaterThan(0);
    expect(problems).toEqual([]);
    await page.close();
  });
});
