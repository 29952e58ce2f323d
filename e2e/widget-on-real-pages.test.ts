// The widget's rough edges found on real pages, each checked where it was seen: a shop page and
// the bot on two origins, in Chromium, read off geometry and screenshots (kept in SCREENSHOT_DIR).
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { near, pixelsAt, rgb, type Rgb } from './screen-pixels.ts';
import { screenshot } from './screenshots.ts';
import { startTwoOrigins, type TwoOrigins } from './two-origins.ts';

const POLL = { timeout: 15_000 };
const KEY = 'e2e-real-pages-function-key-0123456789';
const GREETING = "Hi! I'm the demo bot.";

/** The e2e bot with the demo's English greeting, a picture, and dialogs for pictures, many quick replies and a notification. */
function definition(botUrl: string): unknown {
  const bot = JSON.parse(readFileSync('e2e/fixtures/bot.json', 'utf8')) as {
    settings: Record<string, unknown>;
    dialogs: { id: string; steps: { id: string; text?: string }[] }[];
  };
  bot.settings.name = 'Ada from Support';
  bot.settings.avatarUrl = `${botUrl}/images/robot.svg`;
  const hello = bot.dialogs.find((d) => d.id === 'greeting')?.steps.find((s) => s.id === 'hello');
  if (hello) hello.text = GREETING;
  const back = { id: 'back', type: 'goto', dialog: 'echo' };
  bot.dialogs.push(
    {
      id: 'pictures',
      steps: [
        { id: 'intro', type: 'message', text: 'Here is our robot:' },
        { id: 'image', type: 'message', image: { url: '/images/robot.svg', alt: 'A friendly robot' } },
        {
          id: 'cards',
          type: 'message',
          cards: [{ title: 'Robot', imageUrl: '/images/robot.svg', imageAlt: 'Robot card' }, { title: 'Another' }],
        },
        { id: 'end', type: 'message', text: 'That is all for now.' },
      ] as never,
    },
    {
      id: 'many',
      steps: [
        {
          id: 'ask',
          type: 'input',
          prompt: 'What can I help you with?',
          saveTo: { variable: 'topic' },
          quickReplies: [
            'Orders',
            'Returns',
            'Shipping',
            'Payments',
            'Invoices',
            'Account',
            'Password',
            'Delivery times',
            'Gift cards',
            'Vouchers',
            'Stores',
            'Careers',
            'Something else',
          ].map((label) => ({ label, payload: label.toLowerCase() })),
        },
        { id: 'ok', type: 'message', text: 'You picked {{topic}}.' },
        back,
      ] as never,
    },
    {
      id: 'notify',
      steps: [
        { id: 'a', type: 'message', text: 'Your parcel is on its way.' },
        { id: 'b', type: 'message', text: 'Track it in your account.' },
      ] as never,
    },
  );
  return bot;
}

let sites: TwoOrigins;

beforeAll(async () => {
  sites = await startTwoOrigins({ env: { BOT_FUNCTION_KEY: KEY, DEMO_PAGE: '1' }, definition });
});
afterAll(async () => {
  await sites?.close();
});

async function openChat(page: Page, name = 'Open chat'): Promise<void> {
  await page.getByRole('button', { name }).click();
  await expect.poll(() => page.getByRole('log').textContent(), POLL).toContain("What's your name?");
}

async function say(page: Page, text: string, answer: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Message' }).fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
  await expect.poll(() => page.getByRole('log').textContent(), POLL).toContain(answer);
}

/** Moves the pointer off the widget (the launcher grows under it) and waits until nothing moves (the panel rises into place), so boxes and pixels are final. */
const settled = async (page: Page) => {
  await page.mouse.move(400, 10);
  await page.evaluate(async () => {
    const root = document.querySelector('chat-widget')?.shadowRoot;
    await Promise.all(
      (root?.getAnimations() ?? []).filter((a) => a.effect?.getTiming().iterations !== Infinity).map((a) => a.finished),
    );
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  });
};

const isColour = (expected: string) => (c: Rgb) => near(c, rgb(expected), 6);

describe('the widget on a shop page, the bot on another origin', () => {
  it('when a message with pictures arrives and they load after it, then the log stays at its end: the newest message is on screen', async () => {
    const page = await sites.visit();
    // Pictures come slowly, as from a busy server: they take their space only after the messages are drawn.
    await page.route('**/images/robot.svg', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 700));
      await route.continue();
    });
    await openChat(page);
    await say(page, 'Ada', 'Say something.');
    expect(await page.evaluate(() => window.ChatWidget?.startDialog('pictures'))).toEqual({ ok: true });
    const log = page.getByRole('log');
    await expect.poll(() => log.textContent(), POLL).toContain('That is all for now.');
    const pictures = log.getByRole('img', { name: /robot/i });
    await expect
      .poll(() => pictures.evaluateAll((imgs) => imgs.map((img) => (img as HTMLImageElement).naturalWidth > 0)), POLL)
      .toEqual([true, true]);
    await settled(page);

    const newest = await page.getByText('That is all for now.').boundingBox();
    const view = await log.boundingBox();
    if (!newest || !view) throw new Error('the log is not on screen');
    const png = await screenshot(page, 'log-after-pictures');
    expect(newest.y + newest.height, 'the newest message ends inside the log').toBeLessThanOrEqual(
      view.y + view.height,
    );
    expect(newest.y, 'the newest message starts inside the log').toBeGreaterThanOrEqual(view.y);
    // Its bubble is drawn there: the bot's bubble colour just left of its text.
    const [bubble] = await pixelsAt(page, png, [[newest.x - 4, newest.y + newest.height / 2]]);
    expect(bubble, `pixel beside the newest text ${String(bubble)}`).toSatisfy(isColour('#f3f4f6'));
    const gap = await log.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);
    expect(gap).toBeLessThanOrEqual(1);
    await page.context().close();
  });

  it("when the carousel's chunk cannot be loaded, then its cards still show as a list and the console says why", async () => {
    const page = await sites.visit();
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await page.route(/\/widget\.carousel\.[0-9a-f]{12}\.js$/, (route) => route.abort('connectionreset'));
    await openChat(page);
    expect(await page.evaluate(() => window.ChatWidget?.startDialog('pictures'))).toEqual({ ok: true });
    const log = page.getByRole('log');
    await expect.poll(() => log.textContent(), POLL).toContain('That is all for now.');
    await expect.poll(() => page.getByText('Another', { exact: true }).isVisible(), POLL).toBe(true);
    expect(await page.getByText('Robot', { exact: true }).isVisible()).toBe(true);
    expect(await page.getByRole('region', { name: 'Cards' }).count()).toBe(0);
    expect(errors.join('\n')).toContain('the "carousel" part of the widget could not be loaded');
    await page.context().close();
  });

  it('when the server triggers a dialog for a first-time visitor who never opened the chat, then the launcher shows the unread count and the page hears unreadCountChange for each message', async () => {
    const page = await sites.visit();
    const stored = () => page.evaluate(() => Object.values(localStorage).join('\n'));
    await expect.poll(stored, POLL).toContain('"token"');
    const userId = /"userId":"([^"]+)"/.exec(await stored())?.[1] ?? '';
    await page.evaluate(() => {
      const counts: number[] = [];
      (window as unknown as { counts: number[] }).counts = counts;
      window.ChatWidget?.on('unreadCountChange', ({ count }) => counts.push(count));
    });

    const res = await fetch(`${sites.bot.url}/api/trigger/e2e/notify?userId=${encodeURIComponent(userId)}`, {
      method: 'POST',
      headers: { 'x-functions-key': KEY },
    });
    expect(res.status).toBe(202);
    expect(await res.json()).toMatchObject({ userId, delivery: 'live' });

    const launcher = page.getByRole('button', { name: 'Open chat' });
    await expect.poll(() => page.locator('#unread').textContent(), POLL).toBe('2 unread messages');
    expect(await launcher.getAttribute('aria-describedby')).toBe('unread');
    // The page heard the count rise to 2 (once per change: two messages drawn together are one change).
    const heard = await page.evaluate(() => (window as unknown as { counts: number[] }).counts);
    expect(heard.at(-1)).toBe(2);
    expect(heard.every((count, i) => count > (heard[i - 1] ?? 0))).toBe(true);
    await settled(page);
    const box = await launcher.boundingBox();
    if (!box) throw new Error('no launcher');
    const png = await screenshot(page, 'unread-badge-first-visit');
    // The badge sits on the launcher's top end corner, red.
    const [badge] = await pixelsAt(page, png, [[box.x + box.width - 2, box.y + 2]]);
    expect(badge, `badge pixel ${String(badge)}`).toSatisfy(isColour('#b91c1c'));

    await launcher.click();
    await expect.poll(() => page.getByRole('log').textContent(), POLL).toContain('Track it in your account.');
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { counts: number[] }).counts.at(-1)), POLL)
      .toBe(0);
    await page.context().close();
  });

  it('when English bot text shows in the Arabic widget, then its bubble runs left to right with the full stop at its end', async () => {
    const page = await sites.visit({ locale: 'ar' });
    await openChat(page, 'فتح الدردشة');
    await settled(page);
    const text = page.getByText(GREETING);
    const layout = await text.evaluate((el) => {
      const node = [...el.childNodes].find((n) => n.nodeType === Node.TEXT_NODE);
      if (!node?.textContent) throw new Error('no text');
      const box = (i: number) => {
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const r = range.getBoundingClientRect();
        return { left: r.left, right: r.right };
      };
      const last = node.textContent.length - 1;
      const panel = (el.getRootNode() as ShadowRoot).querySelector('[role=dialog]') as Element;
      return {
        direction: getComputedStyle(el).direction,
        panel: getComputedStyle(panel).direction,
        first: box(0),
        beforeStop: box(last - 1),
        stop: box(last),
      };
    });
    await screenshot(page, 'arabic-widget-english-bubble');
    expect(layout.panel).toBe('rtl');
    expect(layout.direction).toBe('ltr');
    // "Hi" on the left, "bot" then "." on the right: not ".Hi! I'm the demo bot".
    expect(layout.stop.left).toBeGreaterThanOrEqual(layout.beforeStop.right - 0.5);
    expect(layout.first.right).toBeLessThanOrEqual(layout.stop.left);
    await page.context().close();
  });

  it('when the page places the widget left and 80 px up in a window 700 px high, then the whole panel stays on screen', async () => {
    const page = await sites.visit({ position: { side: 'left', y: 80 } }, { viewport: { width: 1000, height: 700 } });
    await openChat(page);
    await settled(page);
    const panel = await page.getByRole('dialog').boundingBox();
    const launcher = await page.getByRole('button', { name: 'Close chat' }).boundingBox();
    if (!panel || !launcher) throw new Error('the panel is not on screen');
    const png = await screenshot(page, 'panel-left-y80-700px');
    expect(panel.y).toBeGreaterThanOrEqual(0);
    expect(panel.x).toBeGreaterThanOrEqual(0);
    expect(panel.y + panel.height).toBeLessThanOrEqual(launcher.y);
    expect(launcher.y + launcher.height).toBeLessThanOrEqual(700 - 80 + 0.5);
    // The header's first rows are drawn on screen: accent blue at the panel's top edge.
    const [top] = await pixelsAt(page, png, [[panel.x + panel.width / 2, panel.y + 3]]);
    expect(top, `pixel at the panel's top ${String(top)}`).toSatisfy(isColour('#2563eb'));
    await page.context().close();
  });

  it('when the bot says several things in a row and offers 13 quick replies, then its messages are grouped with one time and its avatar, and the replies take one scrolling row', async () => {
    const page = await sites.visit(undefined, { viewport: { width: 1000, height: 800 } });
    await openChat(page);
    await say(page, 'Ada', 'Say something.');
    expect(await page.evaluate(() => window.ChatWidget?.startDialog('many'))).toEqual({ ok: true });
    const row = page.getByRole('group', { name: 'Quick replies' });
    await expect.poll(() => row.getByRole('button').count(), POLL).toBe(13);
    await settled(page);
    await screenshot(page, 'looks-groups-and-quick-replies');

    // Greeting and question; the visitor's name; the welcome, the prompt and the question: three turns.
    const turns = await page.getByRole('log').evaluate((log) =>
      [...log.querySelectorAll('[part~=group]')].map((group) => ({
        messages: group.querySelectorAll('[part~=message]').length,
        times: group.querySelectorAll('time').length,
        avatar: group.querySelector('[part~=face] img') !== null,
      })),
    );
    expect(turns).toEqual([
      { messages: 2, times: 1, avatar: true },
      { messages: 1, times: 1, avatar: false },
      { messages: 3, times: 1, avatar: true },
    ]);
    // What a screen reader finds: one list per turn, its items the messages, each saying who spoke.
    const lists = page.getByRole('log', { name: 'Conversation' }).getByRole('list');
    expect(await lists.count()).toBe(3);
    const said = await Promise.all(
      [0, 1, 2].map(async (i) =>
        (await lists.nth(i).getByRole('listitem').allInnerTexts()).map((text) => text.split(/\s/)[0]),
      ),
    );
    expect(said).toEqual([['Bot:', 'Bot:'], ['You:'], ['Bot:', 'Bot:', 'Bot:']]);
    const avatar = await page
      .locator('[part~=face] img')
      .last()
      .evaluate((img) => (img as HTMLImageElement).naturalWidth);
    expect(avatar).toBeGreaterThan(0);

    const panel = await page.getByRole('dialog').boundingBox();
    const replies = await row.boundingBox();
    const tops = await row
      .getByRole('button')
      .evaluateAll((buttons) => new Set(buttons.map((b) => Math.round(b.getBoundingClientRect().top))).size);
    if (!panel || !replies) throw new Error('the panel is not on screen');
    expect(tops).toBe(1);
    expect(replies.height / panel.height).toBeLessThan(0.25);
    // The last one is reached by scrolling the row, and answers the bot.
    await row.getByRole('button', { name: 'Something else' }).click();
    await expect.poll(() => page.getByRole('log').textContent(), POLL).toContain('You picked something else.');
    await page.context().close();
  });
});
