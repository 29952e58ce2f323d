import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './browser.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';

let server: ServerProcess;
let browser: Browser;

beforeAll(async () => {
  server = await startServerProcess();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('demo page in a real browser', () => {
  it('when a person opens the chat, types and sends, then the bot greets them and answers with their name', async () => {
    const page = await browser.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(server.url);

    await page.getByRole('button', { name: 'Open chat' }).click();
    const log = page.getByRole('log');
    await expect.poll(() => log.textContent(), { timeout: 10_000 }).toContain("What's your name?");

    await page.getByRole('textbox', { name: 'Message' }).fill('Ada');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => log.textContent(), { timeout: 10_000 }).toContain('Nice to meet you, Ada!');
    expect(await log.textContent()).toContain('Ada');
    expect(pageErrors).toEqual([]);
    await page.close();
  });

  it('when the widget is asked for, then /widget.js is served as JavaScript', async () => {
    const res = await fetch(`${server.url}/widget.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/javascript/);
  });
});
