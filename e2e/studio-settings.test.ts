import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './browser.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';
import { axeViolations } from './studio-axe.ts';

const SHOTS = process.env.STUDIO_SCREENSHOTS;
const shot = async (page: Page, name: string) => {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
};

/** The settings screens in Chromium, driven by role and name, checked by axe at each step. */
describe('the studio settings in Chromium', () => {
  let browser: Browser;
  let server: ServerProcess;
  let owner: Page;
  const problems: string[] = [];

  const watch = (page: Page) => {
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    // confirm() before a deletion: accepted, as a person would.
    page.on('dialog', (dialog) => void dialog.accept());
  };

  beforeAll(async () => {
    server = await startServerProcess();
    browser = await launchBrowser();
    owner = await browser.newPage();
    watch(owner);
    const link = /(http:\/\/\S+\/studio\/setup#[A-Za-z0-9_-]+)/.exec(server.output())![1]!;
    await owner.goto(link);
    await owner.getByLabel('Email').fill('owner@example.com');
    await owner.getByLabel('Name').fill('Olive Owner');
    await owner.getByLabel('Password').fill('correct horse battery staple');
    await owner.getByRole('button', { name: 'Create account' }).click();
    await owner.getByRole('link', { name: 'Settings' }).click();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const tab = async (page: Page, name: string) => {
    await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name }).click();
    await expect.poll(() => page.getByRole('link', { name }).getAttribute('aria-current')).toBe('page');
  };

  it('when the owner makes an API token, then it is shown once, listed by name, and revoked with its own button', async () => {
    await tab(owner, 'API tokens');
    // Commands are named as text, without the backticks of a README.
    expect(await owner.getByText(/^A token acts with your role, for scripts and CI jobs/).count()).toBe(1);
    expect(await owner.getByText(/`/).count()).toBe(0);
    await owner.getByLabel('Token name').fill('CI pipeline');
    await owner.getByRole('button', { name: 'Create token' }).click();
    await expect.poll(() => owner.getByLabel('New API token').inputValue()).toMatch(/^cbst_/);
    await expect.poll(() => owner.getByRole('cell', { name: 'CI pipeline', exact: true }).count()).toBe(1);
    expect(await axeViolations(owner)).toEqual([]);
    await shot(owner, 'settings-tokens');
    await owner.getByRole('button', { name: 'Revoke CI pipeline' }).click();
    await expect.poll(() => owner.getByText('You have no API tokens.').count()).toBe(1);
  });

  it('when the owner sets a secret, then its status says so and the value is not on the page', async () => {
    await tab(owner, 'Secrets');
    // What a secret is, said without the definition's keys or the server's environment variables.
    expect(await owner.getByText(/^Passwords, keys and tokens the bot's services and steps sign in with/).count()).toBe(
      1,
    );
    expect(await owner.getByText(/tokenEnv|environment variable/).count()).toBe(0);
    await owner.getByLabel('Secret name').fill('CRM_TOKEN');
    await owner.getByLabel('Value').fill('very-secret-crm-token-42');
    await owner.getByRole('button', { name: 'Save secret' }).click();
    await expect.poll(() => owner.getByRole('row', { name: /CRM_TOKEN/ }).textContent()).toContain('set in the studio');
    expect(await owner.getByLabel('Value').inputValue()).toBe('');
    expect(await owner.content()).not.toContain('very-secret-crm-token-42');
    expect(await axeViolations(owner)).toEqual([]);
    await shot(owner, 'settings-secrets');
  });

  it('when the owner invites an editor, then the editor signs up by the link and sees no accounts or audit tab', async () => {
    await tab(owner, 'Accounts');
    await owner.getByLabel('Email').fill('edda@example.com');
    await owner.getByLabel('Role', { exact: true }).selectOption('editor');
    await owner.getByRole('button', { name: 'Create invitation link' }).click();
    const link = await expect
      .poll(() => owner.getByLabel('Invitation link').inputValue())
      .toContain('/studio/setup#')
      .then(() => owner.getByLabel('Invitation link').inputValue());
    expect(await axeViolations(owner)).toEqual([]);
    await shot(owner, 'settings-accounts');

    const context = await browser.newContext();
    const editor = await context.newPage();
    watch(editor);
    await editor.goto(link);
    await expect.poll(() => editor.getByText('edda@example.com').count()).toBe(1);
    await editor.getByLabel('Name').fill('Edda Editor');
    await editor.getByLabel('Password').fill('another long passphrase');
    await editor.getByRole('button', { name: 'Create account' }).click();
    await editor.getByRole('link', { name: 'Settings' }).click();
    const tabs = editor.getByRole('navigation', { name: 'Settings sections' }).getByRole('link');
    await expect.poll(() => tabs.allTextContents()).toEqual(['Sessions', 'API tokens', 'Secrets']);
    await tab(editor, 'Secrets');
    await expect.poll(() => editor.getByRole('row', { name: /CRM_TOKEN/ }).count()).toBe(1);
    expect(await editor.getByRole('button', { name: 'Save secret' }).count()).toBe(0);
    await context.close();

    await owner.reload();
    await expect.poll(() => owner.getByRole('combobox', { name: 'Role of Edda Editor' }).inputValue()).toBe('editor');
    await owner.getByRole('combobox', { name: 'Role of Edda Editor' }).selectOption('analyst');
    await expect.poll(() => owner.getByRole('status').first().textContent()).toContain('Saved.');
  });

  it('when the owner opens the audit trail, then the sign-up, the secret and the role change read as sentences with people\'s names, and "Show as JSON" shows the entries as stored', async () => {
    await tab(owner, 'Audit trail');
    for (const sentence of [
      'Olive Owner set the secret CRM_TOKEN.',
      'Olive Owner changed the role of Edda Editor from Editor to Analyst.',
      'Olive Owner revoked the API token "CI pipeline".',
    ]) {
      await expect.poll(() => owner.getByRole('cell', { name: sentence, exact: true }).count()).toBe(1);
    }
    await expect
      .poll(() => owner.getByRole('cell', { name: /^Edda Editor created the account of Edda Editor/ }).count())
      .toBe(1);
    // No JSON and no account ids in the sentences.
    const table = await owner.getByRole('table').textContent();
    expect(table).not.toMatch(/[{}"]role"|"details"|role_changed/);
    await owner.getByRole('checkbox', { name: 'Show as JSON' }).check();
    await expect.poll(() => owner.getByText(/"action":"role_changed"/).count()).toBe(1);
    expect(await axeViolations(owner)).toEqual([]);
    await shot(owner, 'settings-audit-json');
    await owner.getByRole('checkbox', { name: 'Show as JSON' }).uncheck();
    expect(await owner.content()).not.toContain('very-secret-crm-token-42');
    expect(await axeViolations(owner)).toEqual([]);
    await shot(owner, 'settings-audit');
  });

  it('when the owner logs out everywhere and ticks "Also end my API tokens", then the sign-in page comes back, the token stops working, and the audit trail says it was revoked', async () => {
    await tab(owner, 'API tokens');
    await owner.getByLabel('Token name').fill('Laptop script');
    await owner.getByRole('button', { name: 'Create token' }).click();
    await expect.poll(() => owner.getByLabel('New API token').inputValue()).toMatch(/^cbst_/);
    const token = await owner.getByLabel('New API token').inputValue();
    const asToken = () =>
      fetch(`${server.url}/studio/api/session`, { headers: { authorization: `Bearer ${token}` } }).then(
        (res) => res.status,
      );
    expect(await asToken()).toBe(200);

    await tab(owner, 'Sessions');
    await expect.poll(() => owner.getByRole('cell', { name: 'this session' }).count()).toBe(1);
    await owner.getByRole('checkbox', { name: /Also end my API tokens/ }).check();
    expect(await axeViolations(owner)).toEqual([]);
    await shot(owner, 'settings-sessions');
    await owner.getByRole('button', { name: 'Log out everywhere' }).click();
    await expect.poll(() => owner.getByRole('heading', { name: 'Sign in to the studio' }).count()).toBe(1);
    expect(await asToken()).toBe(401);

    await owner.getByLabel('Email').fill('owner@example.com');
    await owner.getByLabel('Password').fill('correct horse battery staple');
    await owner.getByRole('button', { name: 'Sign in', exact: true }).click();
    await owner.getByRole('link', { name: 'Settings' }).click();
    await tab(owner, 'Audit trail');
    await expect
      .poll(() =>
        owner
          .getByRole('row')
          .filter({ hasText: 'Laptop script' })
          .filter({ hasText: /revoked/i })
          .count(),
      )
      .toBe(1);
    expect(problems.filter((problem) => !/status of 401/.test(problem))).toEqual([]);
  });
});
