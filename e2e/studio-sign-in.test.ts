import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './browser.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';
import { axeViolations } from './studio-axe.ts';

const SHOTS = process.env.STUDIO_SCREENSHOTS;
const shot = async (page: Page, name: string) => {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
};

/** The first owner's way in, in Chromium: the setup link printed at start, then signing out and in again. */
describe('signing in to the studio in Chromium', () => {
  let browser: Browser;
  let server: ServerProcess;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    server = await startServerProcess();
    browser = await launchBrowser();
    page = await browser.newPage();
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => {
      // 401 answers are how the page learns nobody is signed in; the browser logs them as failed loads.
      if (message.type() === 'error' && !/status of 401/.test(message.text())) problems.push(message.text());
    });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('when the owner opens the setup link printed at start, then a form by role and name creates the account and opens the studio', async () => {
    const link = /(http:\/\/\S+\/studio\/setup#[A-Za-z0-9_-]+)/.exec(server.output())?.[1];
    expect(link, server.output()).toBeDefined();
    await page.goto(link!);
    await expect.poll(() => page.getByRole('heading', { name: 'Create your studio account' }).count()).toBe(1);
    await expect.poll(() => page.getByText('role Owner').count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'setup');
    await page.getByLabel('Email').fill('owner@example.com');
    await page.getByLabel('Name').fill('Olive Owner');
    await page.getByLabel('Password').fill('correct horse battery staple');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect.poll(() => page.getByRole('navigation', { name: 'Studio sections' }).count()).toBe(1);
    expect(new URL(page.url()).hash).toBe('');
    expect(new URL(page.url()).pathname).toBe('/studio/versions');
    await expect.poll(() => page.getByText('Signed in as Olive Owner (Owner)').count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'shell');
  });

  it('when the used setup link is opened again, then it says the link is no longer valid', async () => {
    const link = /(http:\/\/\S+\/studio\/setup#[A-Za-z0-9_-]+)/.exec(server.output())![1]!;
    const other = await browser.newPage();
    await other.goto(link);
    await expect.poll(() => other.getByRole('alert').textContent()).toContain('not valid');
    await other.close();
  });

  it('when the owner signs out and in again with the keyboard, then a wrong password is announced and the right one opens the studio', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Sign in to the studio' }).count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    await page.getByLabel('Email').focus();
    await page.keyboard.type('owner@example.com');
    await page.keyboard.press('Tab');
    await page.keyboard.type('wrong password here');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('The email or password is not right.');
    await shot(page, 'sign-in-error');
    await page.getByLabel('Password').fill('correct horse battery staple');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('navigation', { name: 'Studio sections' }).count()).toBe(1);
    await page.getByRole('link', { name: 'Settings' }).click();
    await expect.poll(() => page.url()).toContain('/studio/settings');
    await page.reload();
    await expect.poll(() => page.getByRole('link', { name: 'Settings' }).getAttribute('aria-current')).toBe('page');
    expect(problems).toEqual([]);
  });
});
