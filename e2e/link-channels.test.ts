import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkingBot } from '../server/app/test/linking-bot.ts';
import {
  startWhatsAppCloudStandIn,
  type WhatsAppCloudStandIn,
} from '../server/channels/test/vendors/whatsapp/whatsapp-cloud-stand-in.ts';
import {
  incomingMessage,
  newWhatsAppMessageId,
  postWhatsAppWebhook,
} from '../server/channels/test/vendors/whatsapp/whatsapp-webhooks.ts';
import { userHashFor } from '../server/channels/webchat/identity.ts';
import { launchBrowser } from './browser.ts';
import { serveHostPage, type HostPage } from './host-page.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';

const accessToken = 'EAAwhatsapp-test-access-token-0123456789';
const appSecret = 'whatsapp-app-secret-0123456789abcdef';
const number = { wabaId: '419561257915477', phoneNumberId: '106540352242922', displayPhoneNumber: '15550783881' };
const waId = '16505550199';
const IDENTITY_SECRET = 'identity-secret-0123456789';
/** The WhatsApp user whose number the shop's signed identity carries. */
const signedWaId = '16505550198';

let whatsApp: WhatsAppCloudStandIn;
let server: ServerProcess;
let browser: Browser;
let dir: string;
let shop: HostPage;
let signedShop: HostPage;

const texts = (to = waId) =>
  whatsApp
    .accepted()
    .filter((message) => message.to === to)
    .map((message) => (message.body as { text?: { body: string } }).text?.body ?? '');
const say = (text: string, from = waId) =>
  postWhatsAppWebhook(
    `${server.url}/api/webhooks/whatsapp`,
    incomingMessage(
      number,
      { waId: from, name: 'Ada' },
      { type: 'text', text: { body: text } },
      { id: newWhatsAppMessageId() },
    ),
    appSecret,
  );

beforeAll(async () => {
  whatsApp = await startWhatsAppCloudStandIn({ accessToken, phoneNumberId: number.phoneNumberId });
  dir = await mkdtemp(path.join(tmpdir(), 'link-channels-e2e-'));
  const file = path.join(dir, 'bot.json');
  await writeFile(file, JSON.stringify(linkingBot()));
  server = await startServerProcess({
    BOT_DEFINITION: file,
    WHATSAPP_ACCESS_TOKEN: accessToken,
    WHATSAPP_PHONE_NUMBER_ID: number.phoneNumberId,
    WHATSAPP_APP_SECRET: appSecret,
    WHATSAPP_VERIFY_TOKEN: 'whatsapp-verify-token-0123456789',
    WHATSAPP_API_URL: whatsApp.graphUrl,
    BOT_IDENTITY_SECRET: IDENTITY_SECRET,
    BOT_IDENTITY_LINK_PHONE: 'true',
  });
  shop = await serveHostPage(() => `${server.url}/widget.js`, { init: {} });
  // A shop whose user logged in and verified their number: its backend signs the id and the number.
  const phone = `+${signedWaId}`;
  signedShop = await serveHostPage(() => `${server.url}/widget.js`, {
    init: { userId: 'shop-user-7', userPhone: phone, userHash: userHashFor(IDENTITY_SECRET, 'shop-user-7', phone) },
  });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await shop?.close();
  await signedShop?.close();
  await server?.stop();
  await whatsApp?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('one conversation across channels in a real browser', () => {
  it('when a WhatsApp user types the code they got there in the web chat, then the web chat goes on with the same dialog and their earlier answers', async () => {
    // On WhatsApp: the name (a new user's first message is their first answer), the city, then the code.
    await say('Ada');
    await expect.poll(texts).toContain('Your city?');
    await say('Lisbon');
    await expect.poll(() => texts().find((text) => /type [A-Z2-9]{4}-[A-Z2-9]{4} there/.test(text))).toBeTruthy();
    const code = /type ([A-Z2-9]{4}-[A-Z2-9]{4}) there/.exec(texts().join('\n'))![1]!;

    // In the web chat, in Chromium: a stranger at first, asked for their name.
    const page = await browser.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    // The shop's own page, with the widget of the bot.
    await page.goto(`http://127.0.0.1:${shop.port}/`);
    await page.getByRole('button', { name: 'Open chat' }).click();
    const log = page.getByRole('log');
    await expect.poll(() => log.textContent()).toContain('Your name?');

    await page.getByRole('textbox', { name: 'Message' }).fill(code);
    await page.getByRole('button', { name: 'Send' }).click();

    // The same dialog goes on here, with the answers given on WhatsApp.
    await expect.poll(() => log.textContent()).toContain('Welcome back, Ada from Lisbon.');
    const shown = (await log.textContent()) ?? '';
    expect(shown).toContain('Lisbon');
    expect(texts()).not.toContain('Welcome back, Ada from Lisbon.');
    expect(pageErrors).toEqual([]);
    await page.close();
  });

  it('when the shop passes a signed identity with the number a WhatsApp user wrote from, then its web chat goes on with that dialog', async () => {
    await say('Bea', signedWaId);
    await expect.poll(() => texts(signedWaId)).toContain('Your city?');

    const page = await browser.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`http://127.0.0.1:${signedShop.port}/`);
    await page.getByRole('button', { name: 'Open chat' }).click();
    const log = page.getByRole('log');
    // The WhatsApp conversation, here: the question asked there is the one to answer.
    await expect.poll(() => log.textContent()).toContain('Your city?');
    await page.getByRole('textbox', { name: 'Message' }).fill('Porto');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => log.textContent()).toMatch(/type [A-Z2-9]{4}-[A-Z2-9]{4} there/);
    expect(texts(signedWaId).some((text) => /type [A-Z2-9]{4}-[A-Z2-9]{4} there/.test(text))).toBe(false);
    expect(pageErrors).toEqual([]);
    await page.close();
  });
});
