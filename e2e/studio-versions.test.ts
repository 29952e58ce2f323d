import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClientToServerEvents, ServerToClientEvents, TranscriptItem } from '../shared/protocol.ts';
import { StudioClient } from '../server/studio-server/test/studio-client.ts';
import { launchBrowser } from './browser.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';
import { axeViolations } from './studio-axe.ts';

const SHOTS = process.env.STUDIO_SCREENSHOTS;
const shot = async (page: Page, name: string) => {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
};
const PASSWORD = 'correct horse battery staple';
/** The server does real work behind these (a publish trains and swaps the bot): a shared machine may take seconds. */
const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000, interval: 100 });

/** The file: a visitor is asked for an order number and rests on "number". */
const v1 = {
  settings: { id: 'shop', name: 'Shop bot', startDialog: 'order' },
  dialogs: [
    {
      id: 'order',
      steps: [
        { id: 'hello', type: 'message', text: 'Welcome to the shop.' },
        { id: 'number', type: 'input', prompt: 'Your order number?' },
        { id: 'thanks', type: 'message', text: 'Thanks.' },
      ],
    },
    { id: 'help', steps: [{ id: 'offer', type: 'input', prompt: 'How can we help?' }] },
  ],
};
/** The studio's change: orders are asked by email now; "number" is gone. */
const v2 = {
  ...v1,
  dialogs: [
    {
      id: 'order',
      steps: [
        { id: 'hello', type: 'message', text: 'Welcome back to the shop.' },
        { id: 'email', type: 'input', prompt: 'Your email?' },
      ],
    },
    v1.dialogs[1],
  ],
};

/** A widget's connection, as the widget makes it. */
function visitor(url: string): Socket<ServerToClientEvents, ClientToServerEvents> & { texts: () => string[] } {
  const items: TranscriptItem[] = [];
  const socket: Socket<ServerToClientEvents, ClientToServerEvents> = io(url, {
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
  });
  socket.on('entries', (entries) => items.push(...entries));
  return Object.assign(socket, {
    texts: () =>
      items.filter((i) => i.from === 'bot').map((i) => (i.message.type === 'text' ? i.message.text : i.message.type)),
  });
}

/** The setup link, signing in, the versions list and a publish with a chosen target, in Chromium, by role and name, with the keyboard. */
describe('the versions screen in Chromium', () => {
  let dir: string;
  let browser: Browser;
  let server: ServerProcess;
  let page: Page;
  let resting: ReturnType<typeof visitor>;
  const problems: string[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'studio-versions-'));
    await writeFile(path.join(dir, 'bot.json'), JSON.stringify(v1));
    server = await startServerProcess({ BOT_DEFINITION: path.join(dir, 'bot.json') });
    browser = await launchBrowser();
    page = await browser.newPage({ locale: 'en-GB' });
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error' && !/status of 401/.test(message.text())) problems.push(message.text());
    });
  }, 60_000);
  afterAll(async () => {
    resting?.disconnect();
    await browser?.close();
    await server?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it("when the owner sets up the account with the link printed at start and signs in again, then the versions list shows the file's version as live", async () => {
    const link = /(http:\/\/\S+\/studio\/setup#[A-Za-z0-9_-]+)/.exec(server.output())![1]!;
    await page.goto(link);
    await page.getByLabel('Email').fill('owner@example.com');
    await page.getByLabel('Name').fill('Olive Owner');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Email').fill('owner@example.com');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.keyboard.press('Enter');
    await eventually(() => page.getByRole('heading', { name: 'Versions', level: 1 }).count()).toBe(1);
    const table = page.getByRole('table', { name: 'Versions of the bot, newest first' });
    await eventually(() => table.getByRole('row').count()).toBe(2);
    const row = table.getByRole('row', { name: /^v1\b/ });
    const cells = (await row.getByRole('cell').allTextContents()).map((text) => text.trim().replace(/\s+/g, ' '));
    expect(cells).toEqual([
      'From bot.json',
      'bot.json',
      expect.stringMatching(/\d/),
      'From the file',
      'Live',
      'JSONYAML',
    ]);
    expect(await page.getByRole('link', { name: 'Download v1 as YAML' }).getAttribute('href')).toBe(
      '/studio/api/versions/v1/export?format=yaml',
    );
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'versions-list');
  });

  it('when a new version removes the step a visitor rests on, then its plan shows the change, the visitor and a target picker; published with the keyboard, the visitor moves to the chosen step at their next message', async () => {
    resting = visitor(server.url);
    await eventually(() => resting.texts()).toContain('Your order number?');
    // Another editor's save, as the designer (or chatbot push) makes it.
    const editor = new StudioClient(server.url);
    await editor.login('owner@example.com', PASSWORD);
    await editor.get('/studio/api/session');
    expect(
      (await editor.post('/studio/api/versions', { baseVersionId: 'v1', definition: v2, message: 'Ask for the email' }))
        .status,
    ).toBe(201);

    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('link', { name: 'Versions' }).click();
    const publish = page.getByRole('button', { name: 'Publish v2…' });
    await eventually(() => publish.count()).toBe(1);
    await publish.focus();
    await page.keyboard.press('Enter');
    const heading = page.getByRole('heading', { name: 'Publish v2', level: 2 });
    await eventually(() => heading.evaluate((element) => element.matches(':focus'))).toBe(true);
    await eventually(() => page.getByText('No problems found.').count()).toBe(1);
    expect(
      await page.getByRole('listitem').filter({ hasText: 'Step “number” removed from dialog “order”' }).count(),
    ).toBe(1);
    expect(
      await page.getByRole('listitem').filter({ hasText: 'Step “hello” in dialog “order” changed: text' }).count(),
    ).toBe(1);
    const stranded = page.getByRole('row', { name: /order\.number/ });
    expect(await stranded.getByRole('cell').first().textContent()).toBe('1');
    const target = page.getByRole('combobox', { name: 'Where users on order.number go' });
    expect(await target.evaluate((select: HTMLSelectElement) => select.selectedOptions[0]?.textContent?.trim())).toBe(
      'order.hello (default)',
    );
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'publish-plan');

    // Keyboard only: to the picker, choose help.offer, a note, publish.
    await target.focus();
    await target.selectOption({ label: 'help.offer' });
    await page.keyboard.press('Tab');
    await page.keyboard.type('Email instead of order number');
    await page.keyboard.press('Tab');
    await eventually(() =>
      page.getByRole('button', { name: 'Publish v2', exact: true }).evaluate((element) => element.matches(':focus')),
    ).toBe(true);
    await page.keyboard.press('Enter');
    await eventually(() => page.getByRole('status').filter({ hasText: 'v2 is live now on every node.' }).count()).toBe(
      1,
    );
    const status = (id: string) =>
      page
        .getByRole('row', { name: new RegExp(`^${id}\\b`) })
        .getByRole('cell')
        .nth(4)
        .textContent();
    await eventually(async () => (await status('v2'))?.trim()).toBe('Live');
    expect((await status('v1'))?.trim()).toMatch(/^Last published /);
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'published');

    resting.emit('message', { clientId: 'after-publish', text: '12345' }, () => undefined);
    await eventually(() => resting.texts().at(-1)).toBe('How can we help?');
    expect(server.output()).toMatch(
      /"code":"stale_position".*"fromStepId":"number".*"toDialogId":"help","toStepId":"offer","chosenAtPublish":true/,
    );
  });

  it('when the owner rolls back to v1, then the list shows v1 live again, put live by the owner (not the file that brought it), and a new visitor meets the old greeting', async () => {
    const rollback = page.getByRole('button', { name: 'Roll back to v1…' });
    await rollback.click();
    await eventually(() => page.getByRole('heading', { name: 'Roll back to v1', level: 2 }).count()).toBe(1);
    await eventually(() => page.getByRole('button', { name: 'Roll back to v1', exact: true }).isEnabled()).toBe(true);
    await page.getByRole('button', { name: 'Roll back to v1', exact: true }).click();
    await eventually(() =>
      page.getByRole('status').filter({ hasText: 'Rolled back: v1 is live again on every node.' }).count(),
    ).toBe(1);
    await eventually(() => page.getByText(/^Live now: v1, published .+ by /).textContent()).toMatch(
      / by Olive Owner\.$/,
    );
    const fresh = visitor(server.url);
    try {
      await eventually(() => fresh.texts()).toContain('Welcome to the shop.');
    } finally {
      fresh.disconnect();
    }
    expect(problems).toEqual([]);
  });

  it('when the studio is opened in German, then the versions screen reads in German and axe finds nothing', async () => {
    const german = await browser.newContext({ locale: 'de-DE' });
    const other = await german.newPage();
    await other.goto(`${server.url}/studio/sign-in`);
    await other.getByLabel('E-Mail').fill('owner@example.com');
    await other.getByLabel('Passwort').fill(PASSWORD);
    await other.getByRole('button', { name: 'Anmelden' }).click();
    await eventually(() => other.getByRole('heading', { name: 'Versionen', level: 1 }).count()).toBe(1);
    await eventually(() => other.getByRole('button', { name: 'v2 veröffentlichen …' }).count()).toBe(1);
    expect(await other.getByRole('table', { name: 'Versionen des Bots, neueste zuerst' }).count()).toBe(1);
    expect(await axeViolations(other)).toEqual([]);
    await shot(other, 'versions-de');
    await german.close();
  });
});
