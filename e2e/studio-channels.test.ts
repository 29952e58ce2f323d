import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { telegramBot } from '../server/channels/telegram/test/telegram-bot.ts';
import {
  deliver,
  startTelegramStandIn,
  textUpdate,
  type TelegramStandIn,
} from '../server/channels/telegram/test/telegram-stand-in.ts';
import { launchBrowser } from './browser.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';
import { axeViolations } from './studio-axe.ts';

const SHOTS = process.env.STUDIO_SCREENSHOTS;
const shot = async (page: Page, name: string) => {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
};
const WEBHOOK_SECRET = 'e2e-studio-webhook-secret-0123456789';

/** Settings → Channels in Chromium, by role and name: Telegram set up against its stand-in, from the webhook URL to the bot's answer. */
describe('Settings → Channels in Chromium', () => {
  let browser: Browser;
  let context: BrowserContext;
  let server: ServerProcess;
  let standIn: TelegramStandIn;
  let dir: string;
  let owner: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    standIn = await startTelegramStandIn();
    dir = await mkdtemp(path.join(tmpdir(), 'e2e-channels-'));
    const file = path.join(dir, 'bot.json');
    await writeFile(file, JSON.stringify(telegramBot()));
    server = await startServerProcess({ BOT_DEFINITION: file, TELEGRAM_API_URL: standIn.url });
    browser = await launchBrowser();
    context = await browser.newContext();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    owner = await context.newPage();
    owner.on('pageerror', (error) => problems.push(error.message));
    owner.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    const link = /(http:\/\/\S+\/studio\/setup#[A-Za-z0-9_-]+)/.exec(server.output())![1]!;
    await owner.goto(link);
    await owner.getByLabel('Email').fill('owner@example.com');
    await owner.getByLabel('Name').fill('Olive Owner');
    await owner.getByLabel('Password').fill('correct horse battery staple');
    await owner.getByRole('button', { name: 'Create account' }).click();
    await owner.getByRole('link', { name: 'Settings' }).click();
    await owner.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Channels' }).click();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await standIn?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const telegram = () => owner.getByRole('region', { name: 'Telegram' });

  it('when the owner types a bad token, then the field says what a token looks like, and nothing is saved', async () => {
    await telegram().getByText('Settings of Telegram', { exact: true }).click();
    await telegram().getByLabel('Bot token').fill('not-a-token');
    await telegram().getByLabel('Webhook secret').fill(WEBHOOK_SECRET);
    await telegram().getByRole('button', { name: 'Save Telegram settings' }).click();
    const token = telegram().getByLabel('Bot token');
    await expect.poll(() => token.getAttribute('aria-invalid')).toBe('true');
    await expect
      .poll(() => telegram().getByText('Bot token: the token @BotFather gave, such as 123456789:AAF…').count())
      .toBe(1);
    // What is missing is named by the fields' labels, not by the server's variables.
    expect(await telegram().getByText('Off. Missing: Bot token, Webhook secret.').count()).toBe(1);
    expect(
      await owner
        .getByRole('region', { name: 'Twilio (SMS and WhatsApp)' })
        .getByText(
          'Off. Missing: Account SID, Auth token, SMS sender number or WhatsApp sender number, Public address of the server (set where the server runs).',
          { exact: true },
        )
        .count(),
    ).toBe(1);
    expect(await owner.getByText(/Missing: .*\b[A-Z]+_[A-Z_]+\b/).count()).toBe(0);
    // Where else settings come from, in words: no "environment".
    expect(await owner.getByText(/\benvironment\b/).count()).toBe(0);
    // Off: images given by their path concern no channel yet.
    expect(await owner.getByText(/PUBLIC_URL is not set/).count()).toBe(0);
    expect(await axeViolations(owner)).toEqual([]);
  });

  it('when the owner sets Telegram up, copies the webhook URL and sends a test message, then the vendor takes it and a webhook to the copied URL reaches the bot', async () => {
    // Still open: the refused field keeps it so.
    await telegram().getByLabel('Bot token').fill(standIn.token);
    await telegram().getByLabel('Webhook secret').fill(WEBHOOK_SECRET);
    await telegram().getByRole('button', { name: 'Save Telegram settings' }).click();
    await expect.poll(() => telegram().getByRole('status').textContent()).toContain('Telegram: settings saved');
    await expect.poll(() => telegram().getByText('On: Telegram.').count()).toBe(1);
    // The server runs without PUBLIC_URL: the section says what that means for the bot's images.
    expect(
      await telegram()
        .getByText(
          'PUBLIC_URL is not set on the server: images the bot gives by their path (/images/…) cannot reach Telegram, so they go as their description. Set PUBLIC_URL to the https address this server is reached by.',
          { exact: true },
        )
        .count(),
    ).toBe(1);
    expect(await telegram().getByText('Set in the studio.').count()).toBe(1);
    // Write-only: the fields are empty again, and the values are nowhere on the page.
    await telegram().getByText('Settings of Telegram', { exact: true }).click();
    expect(await telegram().getByLabel('Bot token').inputValue()).toBe('');
    expect(await telegram().getByText('Set. Type a new value to replace it; leave empty to keep it.').count()).toBe(2);
    const page = await owner.content();
    expect(page).not.toContain(standIn.token);
    expect(page).not.toContain(WEBHOOK_SECRET);

    await telegram().getByRole('button', { name: 'Copy the webhook URL of Telegram' }).click();
    await expect
      .poll(() => telegram().getByRole('status').textContent())
      .toBe('The webhook URL of Telegram is copied.');
    const copied = await owner.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(`${server.url}/api/webhooks/telegram`);
    expect(await telegram().getByLabel('Webhook URL of Telegram').inputValue()).toBe(copied);
    // What the copy did shows in the flow under the section's last control, covering none of them.
    const said = (await telegram().getByRole('status').boundingBox())!;
    const lastControl = (await telegram()
      .getByRole('button', { name: 'Send a test message on Telegram' })
      .boundingBox())!;
    expect(said.y).toBeGreaterThanOrEqual(lastControl.y + lastControl.height);
    // Every channel is named in words, never by its id.
    const twilio = owner.getByRole('region', { name: 'Twilio (SMS and WhatsApp)' });
    expect(await twilio.getByRole('button', { name: 'Copy the webhook URL of SMS (Twilio)' }).count()).toBe(1);
    expect(await twilio.getByRole('button', { name: 'Copy the webhook URL of WhatsApp (Twilio)' }).count()).toBe(1);

    await telegram().getByLabel('Telegram chat id').fill('5005');
    await telegram().getByRole('button', { name: 'Send a test message on Telegram' }).click();
    await expect
      .poll(() => telegram().getByRole('status').textContent())
      .toBe('Telegram: the vendor accepted the test message.');
    expect(
      standIn.calls
        .filter((call) => call.method === 'sendMessage' && call.params.chat_id === 5005)
        .map((c) => c.params.text),
    ).toEqual(['This is a test message from the studio: the channel works.']);

    expect((await deliver(copied, textUpdate(5005, '/start', { username: 'olive' }), WEBHOOK_SECRET)).status).toBe(200);
    await expect
      .poll(() => standIn.calls.some((call) => call.params.chat_id === 5005 && call.params.text === 'Hello olive.'))
      .toBe(true);
    expect(await axeViolations(owner)).toEqual([]);
    await shot(owner, 'settings-channels');
  });

  it('when the vendor refuses a test message, then the refusal is said in words with its code', async () => {
    standIn.block(5006);
    await telegram().getByLabel('Telegram chat id').fill('5006');
    await telegram().getByRole('button', { name: 'Send a test message on Telegram' }).click();
    await expect
      .poll(() => telegram().getByRole('alert').textContent())
      .toBe(
        'Telegram: the vendor refused the test message (code 403): Telegram sendMessage: Forbidden: bot was blocked by the user',
      );
    expect(problems.filter((problem) => !/status of 4\d\d/.test(problem))).toEqual([]);
  });

  it('when the owner reads Settings → Channels in German, then the section of the channel that is on says in German that PUBLIC_URL is missing', async () => {
    const german = await browser.newContext({ locale: 'de-DE', storageState: await context.storageState() });
    try {
      const page = await german.newPage();
      await page.goto(owner.url());
      const section = page.getByRole('region', { name: 'Telegram' });
      await expect.poll(() => section.getByText('Ein: Telegram.').count()).toBe(1);
      expect(
        await section
          .getByText(
            'PUBLIC_URL ist auf dem Server nicht gesetzt: Bilder, die der Bot über ihren Pfad angibt (/images/…), erreichen Telegram nicht und gehen als ihre Beschreibung. Setzen Sie PUBLIC_URL auf die https-Adresse, unter der dieser Server erreichbar ist.',
            { exact: true },
          )
          .count(),
      ).toBe(1);
      // A channel that is off says what it needs in German, by the fields' German labels.
      expect(
        await page
          .getByRole('region', { name: 'Slack' })
          .getByText('Aus. Es fehlt: Bot-Token, Signaturgeheimnis.', { exact: true })
          .count(),
      ).toBe(1);
      expect(await page.getByText(/Umgebung/).count()).toBe(0);
      // Only the channel that is on is concerned.
      expect(
        await page
          .getByRole('region', { name: 'Slack' })
          .getByText(/PUBLIC_URL ist/)
          .count(),
      ).toBe(0);
      expect(await axeViolations(page)).toEqual([]);
    } finally {
      await german.close();
    }
  });
});
