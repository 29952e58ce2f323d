import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContextOptions, type Page, type Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, CHROMIUM_ARGS } from './browser.ts';
import { conversation, messages } from './conversation.ts';
import { near, pixelsAt, rgb, type Rgb } from './screen-pixels.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';

/**
 * The widget's page hooks and looks, on a shop page and a bot on two origins in Chromium:
 * each hook's payload, the bot's name and avatar from its definition, the dark scheme under
 * the visitor's system preference and right-to-left Arabic, both read off screenshots.
 */

const POLL = { timeout: 15_000 };
const SHOP_HOST = 'shop.test';
const BOT_HOST = 'bot.test';
const BOT_NAME = 'Ada from Support';
const AVATAR = 'https://cdn.example.com/ada.png';
const KEY = 'e2e-hooks-function-key-0123456789';

let browser: Browser;
let shop: Server;
let shopUrl = '';
let bot: ServerProcess;
let botUrl = '';
let definitionDir = '';

/**
 * The shop: the README's snippet, `init` with the options in the query, and listeners for the
 * widget's hooks and the bot's events that write down what they got in `window.heard`.
 */
function shopPage(options: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Shop</title><link rel="icon" href="data:,">
<style>html,body{margin:0;background:#fff}</style>
<script>
  window.ChatWidget = window.ChatWidget || function () { (window.ChatWidget.q = window.ChatWidget.q || []).push(arguments); };
  window.heard = [];
  ChatWidget('init', Object.assign({ user: { email: 'ada@example.com' } }, ${options}));
  for (const name of ['open', 'close', 'unreadCountChange', 'message', 'bot:open', 'closeChat']) {
    ChatWidget('on', name, (payload) => window.heard.push({ name, payload }));
  }
</script>
<script src="${botUrl}/widget.js" async></script>
</head><body><h1>A shop</h1></body></html>`;
}

beforeAll(async () => {
  // The e2e bot, named and with an avatar, and a dialog whose event is called like a widget hook.
  const definition = JSON.parse(readFileSync('e2e/fixtures/bot.json', 'utf8')) as {
    settings: Record<string, unknown>;
    dialogs: unknown[];
  };
  definition.settings.name = BOT_NAME;
  definition.settings.avatarUrl = AVATAR;
  definition.dialogs.push({
    id: 'clash',
    steps: [{ id: 'fire', type: 'event', name: 'open', payload: { from: 'the bot' } }],
  });
  definitionDir = await mkdtemp(path.join(tmpdir(), 'chatbot-hooks-'));
  const definitionFile = path.join(definitionDir, 'bot.json');
  await writeFile(definitionFile, JSON.stringify(definition));

  shop = createServer((req, res) => {
    const options = new URL(req.url ?? '/', 'http://x').searchParams.get('init') ?? '{}';
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(shopPage(JSON.stringify(JSON.parse(options))));
  });
  await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
  const address = shop.address();
  shopUrl = `http://${SHOP_HOST}:${typeof address === 'object' && address ? address.port : 0}/`;
  bot = await startServerProcess({
    BOT_FUNCTION_KEY: KEY,
    BOT_DEFINITION: definitionFile,
    ALLOWED_ORIGINS: new URL(shopUrl).origin,
    WEBCHAT_RATE_LIMIT: '100000',
  });
  botUrl = `http://${BOT_HOST}:${bot.port}`;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [...CHROMIUM_ARGS, `--host-resolver-rules=MAP ${SHOP_HOST} 127.0.0.1, MAP ${BOT_HOST} 127.0.0.1`],
  });
});
afterAll(async () => {
  await browser?.close();
  await bot?.stop();
  await new Promise((resolve) => shop?.close(resolve));
  if (definitionDir) await rm(definitionDir, { recursive: true, force: true });
});

type Heard = { name: string; payload: Record<string, unknown> };

async function visit(
  init: Record<string, unknown>,
  context: BrowserContextOptions = {},
  beforeLoad?: (page: Page) => void,
): Promise<Page> {
  const page = await (await browser.newContext({ viewport: { width: 800, height: 700 }, ...context })).newPage();
  beforeLoad?.(page);
  await page.goto(`${shopUrl}?init=${encodeURIComponent(JSON.stringify(init))}`);
  return page;
}

const heard = (page: Page): Promise<Heard[]> => page.evaluate(() => (window as unknown as { heard: Heard[] }).heard);
const named = async (page: Page, name: string) =>
  (await heard(page)).filter((h) => h.name === name).map((h) => h.payload);

describe('page hooks in Chromium, page and bot on two origins', () => {
  it('when the visitor opens, talks and closes, and the bot writes while closed, then open, message, close and unreadCountChange fire with their payloads', async () => {
    const page = await visit({});
    // A page view alone stores no one: the greeting comes when the visitor opens the chat, each entry a message hook.
    await page.getByRole('button', { name: 'Open chat' }).click();
    await expect.poll(() => named(page, 'open'), POLL).toEqual([{}]);
    await expect.poll(() => named(page, 'message'), POLL).toHaveLength(2);
    const [hello, ask] = await named(page, 'message');
    expect(hello).toMatchObject({
      from: 'bot',
      text: expect.stringMatching(/^Hi ada@example\.com/),
      message: { type: 'text' },
    });
    expect(ask).toMatchObject({ from: 'bot', text: "What's your name?" });
    expect(Number.isNaN(Date.parse(String(hello?.at)))).toBe(false);
    expect(Number(ask?.seq)).toBeGreaterThan(Number(hello?.seq));
    // A greeting read with the panel open is not unread news.
    expect(await named(page, 'unreadCountChange')).toEqual([]);

    await page.getByRole('textbox', { name: 'Message' }).fill('Grace');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect
      .poll(async () => (await named(page, 'message')).map((m) => `${m.from}: ${m.text}`), POLL)
      .toEqual([
        `bot: ${String(hello?.text)}`,
        "bot: What's your name?",
        'user: Grace',
        'bot: Nice to meet you, Grace!',
        'bot: Say something.',
      ]);

    await page.keyboard.press('Escape');
    await expect.poll(() => named(page, 'close'), POLL).toEqual([{}]);

    // While closed, the bot says two things: the page hears the count rise to 2, as the badge shows.
    await page.evaluate(() => window.ChatWidget?.startDialog('bye'));
    await expect.poll(async () => (await named(page, 'unreadCountChange')).at(-1), POLL).toEqual({ count: 2 });
    // The count on the launcher, and what a screen reader hears with its name (its description).
    const launcher = page.getByRole('button', { name: 'Open chat' });
    expect((await launcher.textContent())?.trim()).toBe('2');
    expect(
      await launcher.evaluate(
        (button) =>
          (button.getRootNode() as ShadowRoot).getElementById(button.getAttribute('aria-describedby') ?? '')
            ?.textContent,
      ),
    ).toBe('2 unread messages');
    await expect.poll(() => named(page, 'closeChat'), POLL).toEqual([{ reason: 'bye from Grace' }]);

    // Opening reads them: the count falls back to 0.
    await page.getByRole('button', { name: 'Open chat' }).click();
    await expect.poll(async () => (await named(page, 'unreadCountChange')).at(-1), POLL).toEqual({ count: 0 });
    expect(await named(page, 'open')).toEqual([{}, {}]);
    await page.context().close();
  });

  it('when the visitor clicks the launcher before the rest of the widget arrived, then the open hook fires once it has, and the message box has the focus', async () => {
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const page = await visit({}, {}, (p) => {
      // Hold the rest back: the click lands on the loader's stand-in launcher and waits in its queue.
      void p.route(/\/widget\.[0-9a-f]{12}\.js$/, async (route) => {
        await released;
        await route.continue();
      });
    });
    await page.getByRole('button', { name: 'Open chat' }).click();
    expect(await page.locator('chat-widget').count()).toBe(0);

    release();
    await expect.poll(() => messages(page), POLL).toContain("Bot: What's your name?");
    expect(await named(page, 'open')).toEqual([{}]);
    await expect
      .poll(() => page.getByRole('textbox', { name: 'Message' }).evaluate((box) => box.matches(':focus')), POLL)
      .toBe(true);
    await page.context().close();
  });

  it('when visitors only view pages, then the bot stores no one; the first to open the chat is stored and greeted', async () => {
    const users = async () => {
      const res = await fetch(`${bot.url}/api/management/export/userData`, { headers: { 'x-functions-key': KEY } });
      return ((await res.json()) as { userId: string }[]).map((u) => u.userId);
    };
    const before = await users();
    const connects = () => bot.output().split('web chat connected').length - 1;
    const connected = connects();
    // Two visitors in browsers of their own, each reading a page and then another.
    const viewer = await visit({});
    const opener = await visit({});
    await expect.poll(connects, POLL).toBeGreaterThanOrEqual(connected + 2);
    await viewer.reload();
    await expect.poll(connects, POLL).toBeGreaterThanOrEqual(connected + 3);
    expect(await users()).toEqual(before);
    // The widget on the viewer's page holds no message either, though its (closed) panel is there.
    expect(await conversation(viewer, { includeHidden: true }).count()).toBe(1);
    expect(await messages(viewer, { includeHidden: true })).toEqual([]);

    await opener.getByRole('button', { name: 'Open chat' }).click();
    await expect.poll(() => messages(opener), POLL).toContain("Bot: What's your name?");
    const after = await users();
    expect(after).toHaveLength(before.length + 1);
    const opened = await opener.evaluate(() =>
      Object.keys(localStorage)
        .map((k) => localStorage.getItem(k) ?? '')
        .join(' '),
    );
    expect(opened).toContain(after.find((id) => !before.includes(id)));
    await viewer.context().close();
    await opener.context().close();
  });

  it('when the bot sends an event named like a widget hook, then only bot:<name> hears it, never the hook', async () => {
    const page = await visit({ open: true });
    await expect.poll(() => messages(page), POLL).toContain("Bot: What's your name?");
    const opensBefore = (await named(page, 'open')).length;

    await page.evaluate(() => window.ChatWidget?.startDialog('clash'));

    await expect.poll(() => named(page, 'bot:open'), POLL).toEqual([{ from: 'the bot' }]);
    expect(await named(page, 'open')).toHaveLength(opensBefore);
    await page.context().close();
  });

  it('when the page sets no title or avatar, then the header shows the bot name and avatar from its definition; init title and avatarUrl win', async () => {
    const page = await visit({ open: true });
    // The panel is named for the bot and its title shows the name. The picture beside the title (decoration,
    // alt "") is the bot's: the first in the panel; it cannot load here (no network), so it is hidden, hence includeHidden.
    const panel = page.getByRole('dialog', { name: BOT_NAME });
    await expect.poll(() => panel.getByText(BOT_NAME, { exact: true }).isVisible(), POLL).toBe(true);
    expect(await panel.getByRole('presentation', { includeHidden: true }).first().getAttribute('src')).toBe(AVATAR);
    await page.context().close();

    const own = await visit({ open: true, title: 'Shop help', avatarUrl: 'https://shop.example/help.png' });
    const ownPanel = own.getByRole('dialog', { name: 'Shop help' });
    await expect.poll(() => ownPanel.getByText('Shop help', { exact: true }).isVisible(), POLL).toBe(true);
    expect(await ownPanel.getByRole('presentation', { includeHidden: true }).first().getAttribute('src')).toBe(
      'https://shop.example/help.png',
    );
    await own.context().close();
  });

  it('when hideLauncher and a left position with offsets are set, then no launcher shows and the panel sits where asked', async () => {
    const page = await visit({ hideLauncher: true, position: { side: 'left', x: 30, y: 40 } });
    await expect.poll(() => page.evaluate(() => document.querySelector('chat-widget') !== null), POLL).toBe(true);
    await expect(page.getByRole('button', { name: 'Open chat' }).isVisible()).resolves.toBe(false);
    await page.evaluate(() => window.ChatWidget?.open());
    await expect.poll(() => page.getByRole('dialog').isVisible(), POLL).toBe(true);
    // The element's box, not the panel's: the panel rises into place with a short animation.
    const box = await page.locator('chat-widget').boundingBox();
    expect(box?.x).toBe(30);
    expect(Math.round((box?.y ?? 0) + (box?.height ?? 0))).toBe(700 - 40);
    expect(Math.round((await page.getByRole('dialog').boundingBox())?.height ?? 0)).toBe(Math.round(box?.height ?? -1));
    await page.context().close();
  });

  it('when the launcher is placed left with offsets, then the loader draws it there at once and the full widget keeps it there', async () => {
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const page = await visit({ position: { side: 'left', x: 30, y: 40 } }, {}, (p) => {
      // Hold the rest of the widget back, to see the loader's stand-in launcher alone.
      void p.route(/\/widget\.[0-9a-f]{12}\.js$/, async (route) => {
        await released;
        await route.continue();
      });
    });
    const launcher = page.getByRole('button', { name: 'Open chat' });
    await expect.poll(() => launcher.count(), POLL).toBe(1);
    expect(await page.locator('chat-widget').count()).toBe(0);
    const before = await launcher.boundingBox();
    expect(before).toEqual({ x: 30, y: 700 - 40 - 56, width: 56, height: 56 });

    release();
    await expect.poll(() => page.locator('chat-widget').count(), POLL).toBe(1);
    await expect.poll(() => page.locator('chat-widget-launcher').count(), POLL).toBe(0);
    expect(await launcher.boundingBox()).toEqual(before);
    await page.context().close();
  });
});

/** Screenshot points: the empty middle of the conversation, the header's left edge (level with its Minimize button), and the message box. */
async function panelColours(page: Page): Promise<{ log: Rgb; header: Rgb; input: Rgb }> {
  const log = await page.getByRole('log').boundingBox();
  const panel = await page.getByRole('dialog').boundingBox();
  const minimize = await page.getByRole('button', { name: 'Minimize chat' }).boundingBox();
  const input = await page.getByRole('textbox').boundingBox();
  if (!log || !panel || !minimize || !input) throw new Error('the panel is not on screen');
  const png = await page.screenshot({ animations: 'disabled' });
  const [l, h, i] = await pixelsAt(page, png, [
    [log.x + log.width / 2, log.y + log.height - 6],
    [panel.x + 4, minimize.y + minimize.height / 2],
    [input.x + input.width - 12, input.y + input.height / 2],
  ]);
  return { log: l ?? [0, 0, 0], header: h ?? [0, 0, 0], input: i ?? [0, 0, 0] };
}

describe('looks in Chromium, read off screenshots', () => {
  it('when theme is auto and the visitor’s system prefers dark, then the panel is dark; with a light preference it is light', async () => {
    const dark = await visit({ open: true, theme: 'auto' }, { colorScheme: 'dark' });
    await expect.poll(() => messages(dark), POLL).toContain("Bot: What's your name?");
    const seen = await panelColours(dark);
    expect(seen.log, `conversation background ${seen.log.join(',')}`).toSatisfy((c: Rgb) => near(c, rgb('#111827')));
    expect(seen.input, `message box ${seen.input.join(',')}`).toSatisfy((c: Rgb) => near(c, rgb('#111827')));
    expect(seen.header, `header ${seen.header.join(',')}`).toSatisfy((c: Rgb) => near(c, rgb('#2563eb')));
    await dark.context().close();

    const light = await visit({ open: true, theme: 'auto' }, { colorScheme: 'light' });
    await expect.poll(() => messages(light), POLL).toContain("Bot: What's your name?");
    expect((await panelColours(light)).log).toSatisfy((c: Rgb) => near(c, rgb('#ffffff')));
    await light.context().close();
  });

  it('when the page sets a colour over the dark theme, then that colour shows', async () => {
    const page = await visit(
      { open: true, theme: { scheme: 'dark', background: '#300000' } },
      { colorScheme: 'light' },
    );
    await expect.poll(() => messages(page), POLL).toContain("Bot: What's your name?");
    expect((await panelColours(page)).log).toSatisfy((c: Rgb) => near(c, rgb('#300000')));
    await page.context().close();
  });

  it('when the locale is Arabic, then the widget speaks Arabic and the screenshot is mirrored: launcher bottom left, Send left of the message box', async () => {
    let arrived: Promise<Response> | undefined;
    const page = await visit({ locale: 'ar' }, {}, (p) => {
      arrived = p.waitForResponse((r) => /\/widget\.ar\.[0-9a-f]{12}\.json$/.test(r.url()), POLL);
    });
    // The Arabic strings come from the bot's origin as an immutable file any page may read.
    const strings = await (arrived as Promise<Response>);
    expect(strings.status()).toBe(200);
    expect(strings.headers()['cache-control']).toContain('immutable');
    expect(strings.headers()['access-control-allow-origin']).toBe('*');
    // "Open chat" and the message box's placeholder in Arabic.
    const launcher = page.getByRole('button', { name: 'فتح الدردشة' });
    await expect.poll(() => launcher.count(), POLL).toBe(1);
    await expect.poll(() => page.getByPlaceholder('اكتب رسالة…').count(), POLL).toBe(1);
    let png = await page.screenshot({ animations: 'disabled' });
    // Inside the round launcher (56px, 20px from the corner), left of its white icon.
    const [bottomLeft, bottomRight] = await pixelsAt(page, png, [
      [20 + 10, 700 - 20 - 28],
      [800 - 20 - 10, 700 - 20 - 28],
    ]);
    expect(bottomLeft, 'launcher colour at the bottom left').toSatisfy((c: Rgb) => near(c, rgb('#2563eb')));
    expect(bottomRight, 'page colour at the bottom right').toSatisfy((c: Rgb) => near(c, rgb('#ffffff')));

    await launcher.click();
    const input = page.getByRole('textbox', { name: 'رسالة' });
    await expect.poll(() => input.count(), POLL).toBe(1);
    const box = await input.boundingBox();
    const send = await page.getByRole('button', { name: 'إرسال' }).boundingBox();
    if (!box || !send) throw new Error('the form is not on screen');
    png = await page.screenshot({ animations: 'disabled' });
    const [leftOfInput, inInput] = await pixelsAt(page, png, [
      [box.x - 20, box.y + box.height / 2],
      [box.x + box.width / 2, box.y + 3],
    ]);
    expect(leftOfInput, 'the Send button left of the message box').toSatisfy((c: Rgb) => near(c, rgb('#2563eb')));
    expect(inInput, 'the message box').toSatisfy((c: Rgb) => near(c, rgb('#ffffff')));
    expect(send.x + send.width).toBeLessThanOrEqual(box.x);
    await page.context().close();
  });
});
