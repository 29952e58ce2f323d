/// <reference types="mocha" />
import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys, setViewport } from '@web/test-runner-commands';
import type { BotMessage, TranscriptItem } from '../../shared/protocol.ts';
import { defineChatWidget, type ChatWidgetElement } from '../index.ts';
import { fakeTransports, getByRole, settled } from './helpers.ts';

defineChatWidget();

const SERVER = 'http://chat.test:3000';
const T0 = Date.parse('2026-11-21T09:36:00.000Z');

function entry(seq: number, from: 'bot' | 'user', message: BotMessage, minutes = 0): TranscriptItem {
  return {
    seq,
    from,
    at: new Date(T0 + minutes * 60_000).toISOString(),
    clientId: from === 'user' ? `c${seq}` : null,
    message,
  } as TranscriptItem;
}
const say = (seq: number, from: 'bot' | 'user', text: string, minutes = 0) =>
  entry(seq, from, { type: 'text', text }, minutes);

async function mount(attrs: { locale?: string } = {}) {
  const factory = fakeTransports();
  const el = await fixture<ChatWidgetElement>(
    html`<chat-widget server-url=${SERVER} locale=${attrs.locale ?? 'en'} open .transportFactory=${factory.factory}></chat-widget>`,
  );
  const root = el.shadowRoot as ShadowRoot;
  const transport = factory.latest();
  const show = async (...items: TranscriptItem[]) => {
    transport.fire('entries', items);
    await el.updateComplete;
  };
  return { el, root, transport, show };
}

/** Each group of the log (the `group` part) as "sender: texts | times | avatar?". */
function groups(root: ShadowRoot): string[] {
  return [...root.querySelectorAll('[part~=group]')].map((g) => {
    const texts = [...g.querySelectorAll('[part~=message]')].map(
      (m) => m.querySelector('[dir=auto]')?.textContent ?? '',
    );
    const times = g.querySelectorAll('time').length;
    const face = g.querySelector('[part~=face]') ? ' +avatar' : '';
    return `${g.querySelector('[part~=bot-message]') ? 'bot' : 'user'}: ${texts.join(' / ')} | ${times} time${face}`;
  });
}

describe('<chat-widget> grouping, direction and space', () => {
  beforeEach(() => localStorage.clear());
  afterEach(async () => {
    localStorage.clear();
    await setViewport({ width: 800, height: 600 });
  });

  it('when one sender says several things in a row, then they form one group with one time under it, and bot groups have the bot avatar beside them', async () => {
    const { root, show } = await mount();
    await show(
      say(1, 'bot', 'Hi!'),
      say(2, 'bot', 'How can I help?'),
      say(3, 'user', 'Where is my parcel?', 1),
      say(4, 'user', 'Order 42', 1),
      say(5, 'bot', 'Let me look.', 2),
      // Ten minutes later is another turn, though the same sender.
      say(6, 'bot', 'Found it: it ships today.', 12),
    );
    expect(groups(root)).to.deep.equal([
      'bot: Hi! / How can I help? | 1 time +avatar',
      'user: Where is my parcel? / Order 42 | 1 time',
      'bot: Let me look. | 1 time +avatar',
      'bot: Found it: it ships today. | 1 time +avatar',
    ]);
    const time = root.querySelector('[part~=group] time');
    expect(time?.getAttribute('datetime')).to.equal(new Date(T0).toISOString());
  });

  it('when the bot has no picture, then its avatar is the first letter of its name; with one, the picture', async () => {
    const { el, root, transport, show } = await mount();
    transport.fire('session', { userId: 'u1', token: 't', bot: { name: 'ada' } });
    await show(say(1, 'bot', 'Hi!'));
    const face = root.querySelector('[part~=face]');
    expect(face?.textContent?.trim()).to.equal('A');
    expect(face?.getAttribute('aria-hidden')).to.equal('true');

    el.avatarUrl = 'https://cdn.example.com/ada.png';
    await el.updateComplete;
    expect(root.querySelector('[part~=face] img')?.getAttribute('src')).to.equal('https://cdn.example.com/ada.png');
  });

  it('when English bot text shows in an Arabic widget, then its bubble is laid out left to right, full stop last; Arabic text from the visitor stays right to left', async () => {
    const { root, show } = await mount({ locale: 'ar' });
    await show(say(1, 'bot', "Hi! I'm the demo bot."), say(2, 'user', 'مرحبا، كيف حالك؟', 1));
    const [english, arabic] = [...root.querySelectorAll('[part~=message] [dir=auto]')] as HTMLElement[];
    expect(getComputedStyle(root.querySelector('[role=dialog]') as Element).direction).to.equal('rtl');
    expect(english && getComputedStyle(english).direction).to.equal('ltr');
    expect(arabic && getComputedStyle(arabic).direction).to.equal('rtl');
    // The full stop is drawn right of the last word, not at the line's start.
    const text = [...(english?.childNodes ?? [])].find((node) => node.nodeType === Node.TEXT_NODE);
    if (!text?.textContent) throw new Error('no text node');
    const at = (i: number) => {
      const range = document.createRange();
      range.setStart(text, i);
      range.setEnd(text, i + 1);
      return range.getBoundingClientRect();
    };
    const last = text.textContent.length - 1;
    expect(at(last).left).to.be.greaterThan(at(last - 1).left);
    expect(at(0).left).to.be.lessThan(at(last).left);
  });

  it('when the bot offers 13 quick replies, then they sit in one row that scrolls sideways, taking under a quarter of the panel, and Tab reaches the last one', async () => {
    await setViewport({ width: 1024, height: 768 });
    const { el, root, show } = await mount();
    const replies = Array.from({ length: 13 }, (_, i) => ({ label: `Option number ${i + 1}`, payload: String(i + 1) }));
    await show(entry(1, 'bot', { type: 'text', text: 'Pick one', quickReplies: replies }));
    await settled(el);
    const row = getByRole(root, 'group', 'Quick replies');
    const panel = getByRole(root, 'dialog', 'Chat').getBoundingClientRect();
    const tops = new Set([...row.querySelectorAll('button')].map((b) => Math.round(b.getBoundingClientRect().top)));
    expect(tops.size, 'rows of quick replies').to.equal(1);
    expect(row.getBoundingClientRect().height / panel.height).to.be.lessThan(0.25);
    expect(row.scrollWidth).to.be.greaterThan(row.clientWidth);

    getByRole(root, 'button', 'Option number 12').focus();
    await sendKeys({ press: 'Tab' });
    const last = getByRole(root, 'button', 'Option number 13');
    expect(root.activeElement).to.equal(last);
    const box = last.getBoundingClientRect();
    const visible = row.getBoundingClientRect();
    expect(box.right).to.be.at.most(visible.right + 1);
    expect(box.left).to.be.at.least(visible.left - 1);
    await expect(el).to.be.accessible();
  });

  it('when a wheel turns over the quick replies, then the row scrolls sideways', async () => {
    const { el, root, show } = await mount();
    const replies = Array.from({ length: 13 }, (_, i) => ({ label: `Option number ${i + 1}`, payload: String(i + 1) }));
    await show(entry(1, 'bot', { type: 'text', text: 'Pick one', quickReplies: replies }));
    await settled(el);
    const row = getByRole(root, 'group', 'Quick replies');
    row.dispatchEvent(new WheelEvent('wheel', { deltaY: 120, bubbles: true, cancelable: true }));
    expect(row.scrollLeft).to.be.greaterThan(0);
  });

  it('when a picture loads after it arrived, then the conversation stays scrolled to its newest message; when the visitor scrolled up, it stays where they are', async () => {
    const { root, show } = await mount();
    await show(...Array.from({ length: 12 }, (_, i) => say(i + 1, i % 2 ? 'user' : 'bot', `Line ${i + 1}`, i * 6)));
    const log = getByRole(root, 'log', 'Conversation');
    // The picture arrives first (no size yet), then text; the picture's 160px come when it has loaded.
    const picture = `${location.origin}/demo/public/images/robot.svg`;
    await show(
      entry(13, 'bot', { type: 'image', url: picture, alt: 'A friendly robot' }, 80),
      say(14, 'bot', 'The newest line', 80),
    );
    const img = root.querySelector<HTMLImageElement>('img[alt="A friendly robot"]');
    await new Promise<void>((resolve) =>
      img?.complete && img.naturalWidth ? resolve() : img?.addEventListener('load', () => resolve(), { once: true }),
    );
    await new Promise((resolve) => requestAnimationFrame(resolve));
    const newest = [...root.querySelectorAll('[part~=message]')].at(-1)?.getBoundingClientRect();
    const view = log.getBoundingClientRect();
    expect(newest && newest.bottom).to.be.at.most(view.bottom + 1);
    expect(newest && newest.top).to.be.at.least(view.top);

    // Scrolled up to read while a later picture is still loading: it does not pull the log down.
    await show(entry(15, 'bot', { type: 'image', url: `${picture}?again`, alt: 'Another robot' }, 81));
    log.scrollTop = 0;
    log.dispatchEvent(new Event('scroll'));
    const again = root.querySelector<HTMLImageElement>('img[alt="Another robot"]');
    expect(again?.complete, 'the picture is still on its way').to.equal(false);
    await new Promise<void>((resolve) => again?.addEventListener('load', () => resolve(), { once: true }));
    await new Promise((resolve) => requestAnimationFrame(resolve));
    expect(log.scrollTop).to.equal(0);
  });

  it('when the panel is placed left, 80 px up, in a window 700 px high, then all of it stays on screen', async () => {
    await setViewport({ width: 1000, height: 700 });
    const { el, root } = await mount();
    el.position = 'left';
    el.style.setProperty('--chat-offset-y', '80px');
    await settled(el);
    const panel = getByRole(root, 'dialog', 'Chat').getBoundingClientRect();
    expect(panel.top).to.be.at.least(0);
    expect(panel.left).to.be.at.least(0);
    expect(panel.bottom).to.be.at.most(700);
  });
});
