/// <reference types="mocha" />
import { expect, fixture, html } from '@open-wc/testing';
import { emulateMedia, sendKeys, setViewport } from '@web/test-runner-commands';
import type { BotMessage, TranscriptItem } from '../../shared/protocol.ts';
import { storageKey } from '../controllers/session-store.ts';
import { defineChatWidget, type ChatWidgetElement } from '../index.ts';
import { fakeTransports, getAllByRole, getByRole, logTexts, settled } from './helpers.ts';

defineChatWidget();

const SERVER = 'http://chat.test:3000';

function bot(seq: number, message: BotMessage): TranscriptItem {
  return { seq, from: 'bot', at: '2026-11-21T09:36:51.123Z', clientId: null, message };
}

const log = (root: ParentNode) => getByRole(root, 'log', 'Conversation');
const listSelector = 'ul, ol, [role=list]';
/** The count drawn on the launcher ('' for none): its only text, the icon being a picture. */
const unreadOnLauncher = (root: ParentNode) => getByRole(root, 'button', 'Open chat').textContent?.trim() ?? '';

/** The live regions an element sits in, innermost first, by role (or "live" for a bare aria-live). */
function liveRegionsAround(element: Element): string[] {
  const regions: string[] = [];
  for (let el: Element | null = element; el; el = el.parentElement) {
    const role = el.getAttribute('role') ?? '';
    const live = el.getAttribute('aria-live');
    if (['log', 'status', 'alert', 'marquee', 'timer'].includes(role)) regions.push(role);
    else if (live && live !== 'off') regions.push('live');
  }
  return regions;
}

async function mount(attrs: { locale?: string; returning?: boolean } = {}) {
  // A returning visitor: this device already holds a session, so the visitor has met the bot before.
  if (attrs.returning)
    localStorage.setItem(storageKey(SERVER), JSON.stringify({ userId: 'u1', token: 't1', lastSeq: 0, items: [] }));
  const factory = fakeTransports();
  const el = await fixture<ChatWidgetElement>(
    html`<chat-widget server-url=${SERVER} locale=${attrs.locale ?? 'en'} .transportFactory=${factory.factory}></chat-widget>`,
  );
  const root = el.shadowRoot;
  if (!root) throw new Error('no shadow root');
  const transport = factory.latest();
  const show = async (...items: TranscriptItem[]) => {
    transport.fire('entries', items);
    await el.updateComplete;
  };
  return { el, root, transport, show };
}

describe('<chat-widget> messages', () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => localStorage.clear());

  it('when bot text has markdown, then bold, italic, code and links render and links open in a new tab with noopener', async () => {
    const { root, show } = await mount();
    await show(bot(1, { type: 'text', text: '**Bold** and *it* with `x<y`\nsee [docs](https://example.com/d)' }));

    const [message] = getAllByRole(log(root), 'listitem');
    expect(message?.querySelector('strong')?.textContent).to.equal('Bold');
    expect(message?.querySelector('em')?.textContent).to.equal('it');
    expect(message?.querySelector('code')?.textContent).to.equal('x<y');
    expect(message?.querySelectorAll('br').length).to.equal(1);
    const link = getByRole(log(root), 'link', 'docs');
    expect(link.getAttribute('href')).to.equal('https://example.com/d');
    expect(link.getAttribute('target')).to.equal('_blank');
    expect(link.getAttribute('rel')).to.equal('noopener');
  });

  it('when text carries backslash escapes from the server, then the escaped characters show as typed, not as markup', async () => {
    const { root, show } = await mount();
    await show(bot(1, { type: 'text', text: 'You said: \\*\\*x\\*\\* \\[a\\]\\(https://e.com\\) a\\\\b **real**' }));

    expect(logTexts(root)).to.deep.equal(['Bot: You said: **x** [a](https://e.com) a\\b real']);
    expect(getAllByRole(log(root), 'link')).to.have.length(0);
    expect(log(root).querySelectorAll('strong').length).to.equal(1);
  });

  it('when a markdown link uses a javascript: address, then it stays plain text', async () => {
    const { root, show } = await mount();
    await show(bot(1, { type: 'text', text: '[click](javascript:alert(1)) <b>x</b>' }));

    expect(getAllByRole(log(root), 'link')).to.have.length(0);
    expect(log(root).querySelectorAll('b').length).to.equal(0);
    expect(logTexts(root)).to.deep.equal(['Bot: [click](javascript:alert(1)) <b>x</b>']);
  });

  it('when bot text has buttons, then a postback press is sent with its label, and a URL button is a new-tab tracked link', async () => {
    const { el, root, transport, show } = await mount();
    await show(
      bot(1, {
        type: 'text',
        text: 'Pick one',
        buttons: [
          { kind: 'postback', label: 'Yes', payload: 'yes' },
          { kind: 'dialog', label: 'Talk to sales', dialogId: 'sales' },
          { kind: 'url', label: 'Pricing', url: 'http://chat.test:3000/r/tok123' },
        ],
      }),
    );

    getByRole(root, 'button', 'Yes').click();
    getByRole(root, 'button', 'Talk to sales').click();
    await el.updateComplete;
    expect(transport.sent.map((s) => [s.event, s.payload.text, s.payload.action])).to.deep.equal([
      ['press', 'Yes', { kind: 'postback', payload: 'yes' }],
      ['press', 'Talk to sales', { kind: 'dialog', dialogId: 'sales' }],
    ]);
    expect(logTexts(root).slice(-2)).to.deep.equal(['You: Yes (sending)', 'You: Talk to sales (sending)']);

    const link = getByRole<HTMLAnchorElement>(log(root), 'link', 'Pricing (opens in a new tab)');
    expect(link.getAttribute('href')).to.equal('http://chat.test:3000/r/tok123');
    expect(link.target).to.equal('_blank');
    expect(link.rel).to.equal('noopener');
  });

  it('when the latest bot message has quick replies, then they show until one is pressed', async () => {
    const { el, root, transport, show } = await mount();
    await show(
      bot(1, {
        type: 'text',
        text: 'Coffee?',
        quickReplies: [
          { label: 'Sure', payload: 'yes' },
          { label: 'No thanks', payload: 'no' },
        ],
      }),
    );
    const group = getByRole(root, 'group', 'Quick replies');
    expect([...group.querySelectorAll('button')].map((b) => b.textContent?.trim())).to.deep.equal([
      'Sure',
      'No thanks',
    ]);

    getByRole(root, 'button', 'Sure').click();
    await el.updateComplete;

    expect(transport.sent[0]?.payload).to.include({ text: 'Sure' });
    expect(getAllByRole(root, 'group').filter((g) => g.getAttribute('aria-label') === 'Quick replies')).to.have.length(
      0,
    );
  });

  it('when an image arrives, then it shows with its alt text; a javascript: source is dropped', async () => {
    const { root, show } = await mount();
    await show(
      bot(1, { type: 'image', url: 'http://chat.test:3000/cat.png', alt: 'A cat' }),
      bot(2, { type: 'image', url: 'javascript:alert(1)', alt: 'bad' }),
    );

    expect(getAllByRole(log(root), 'img').map((img) => img.getAttribute('alt'))).to.deep.equal(['A cat']);
    expect(log(root).querySelectorAll('img')).to.have.length(1);
  });

  it('when a carousel arrives, then cards are labelled slides and arrow keys and buttons move through them', async () => {
    const { el, root, show } = await mount();
    el.open = true;
    const cards = ['One', 'Two', 'Three'].map((title) => ({
      title,
      subtitle: `About ${title}`,
      buttons: [{ kind: 'postback' as const, label: `Pick ${title}`, payload: title }],
    }));
    await show(bot(1, { type: 'carousel', cards }));

    const region = getByRole(root, 'region', 'Cards');
    const slides = [...region.querySelectorAll('[role=group]')].map((g) => g.getAttribute('aria-label'));
    expect(slides).to.deep.equal(['1 of 3', '2 of 3', '3 of 3']);
    // The card strip is reached by keyboard: just before its first card's button in the Tab order.
    getByRole(region, 'button', 'Pick One').focus();
    await sendKeys({ down: 'Shift' });
    await sendKeys({ press: 'Tab' });
    await sendKeys({ up: 'Shift' });
    const strip = root.activeElement as HTMLElement | null;
    if (!strip || !region.contains(strip) || strip.querySelector('[role=group]') === null)
      throw new Error('Shift+Tab did not reach the card strip');

    await sendKeys({ press: 'ArrowRight' });
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(strip.scrollLeft).to.be.greaterThan(0);

    getByRole(root, 'button', 'Previous card').click();
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(strip.scrollLeft).to.equal(0);
    getByRole(root, 'button', 'Next card').click();
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(strip.scrollLeft).to.be.greaterThan(0);
  });

  it('when a fatal notice arrives, then the log announces it once, an alert says the conversation ended, and the input and buttons are disabled', async () => {
    const { root, show } = await mount();
    await show(
      bot(1, { type: 'text', text: 'Hi', buttons: [{ kind: 'postback', label: 'Go', payload: 'go' }] }),
      bot(2, { type: 'notice', level: 'fatal', text: 'The bot failed.' }),
    );

    expect(getByRole<HTMLInputElement>(root, 'textbox', 'Message').disabled).to.equal(true);
    expect(getByRole<HTMLButtonElement>(root, 'button', 'Send').disabled).to.equal(true);
    expect(getByRole<HTMLButtonElement>(root, 'button', 'Go').disabled).to.equal(true);
    const notice = getAllByRole(log(root), 'listitem').at(-1);
    expect(notice?.innerText.replace(/\s+/g, ' ').trim()).to.equal('Bot: The bot failed.');
    expect(notice && liveRegionsAround(notice)).to.deep.equal(['log']);
    expect(getAllByRole(root, 'alert').map((a) => a.textContent?.trim())).to.deep.equal([
      'This conversation has ended.',
    ]);
  });

  it('when both sides have spoken, then each message is an item of a list in the one live region, the log, and says who spoke', async () => {
    const { root, show } = await mount();
    await show(bot(1, { type: 'text', text: 'Hello' }), bot(2, { type: 'text', text: 'How can I help?' }), {
      seq: 3,
      from: 'user',
      at: '2026-11-21T09:37:51.123Z',
      clientId: 'c1',
      message: { type: 'text', text: 'Opening hours' },
    });

    expect(logTexts(root)).to.deep.equal(['Bot: Hello', 'Bot: How can I help?', 'You: Opening hours']);
    const items = getAllByRole(log(root), 'listitem');
    expect(items.map((item) => item.parentElement?.matches(listSelector))).to.deep.equal([true, true, true]);
    // A live region inside another would have a screen reader announce each new message twice.
    expect(items.map((item) => liveRegionsAround(item))).to.deep.equal([['log'], ['log'], ['log']]);
  });

  it('when an info notice arrives, then the input stays enabled', async () => {
    const { root, show } = await mount();
    await show(bot(1, { type: 'notice', level: 'info', text: 'An agent joins soon.' }));
    expect(getByRole<HTMLInputElement>(root, 'textbox', 'Message').disabled).to.equal(false);
    expect(logTexts(root)).to.deep.equal(['Bot: An agent joins soon.']);
  });

  it('when messages are stored, then each shows its time', async () => {
    const { root, show } = await mount();
    await show(bot(1, { type: 'text', text: 'Hi' }));
    expect(root.querySelector('time')?.getAttribute('datetime')).to.equal('2026-11-21T09:36:51.123Z');
  });

  it('when bot messages arrive for a returning visitor while closed, then the launcher shows an unread count that clears on open', async () => {
    const { el, root, show } = await mount({ returning: true });
    await show(bot(1, { type: 'text', text: 'one' }), bot(2, { type: 'text', text: 'two' }));

    expect(unreadOnLauncher(root)).to.equal('2');
    expect(root.querySelector('#unread')?.textContent).to.equal('2 unread messages');
    expect(getByRole(root, 'button', 'Open chat').getAttribute('aria-describedby')).to.equal('unread');

    el.open = true;
    await el.updateComplete;
    el.open = false;
    await el.updateComplete;
    expect(unreadOnLauncher(root)).to.equal('');
  });

  it('when the server sends a dialog on a first visit while the chat is closed, then every bot message counts as unread and the page hears each count', async () => {
    const { el, root, show } = await mount();
    const counts: number[] = [];
    el.addEventListener('chat-widget-unread', (e) => counts.push((e as CustomEvent<{ count: number }>).detail.count));
    // A page view greets no one (the server waits for the panel to open), so what comes now was sent on purpose.
    await show(bot(1, { type: 'text', text: 'Your parcel is on its way.' }));
    await show(bot(2, { type: 'text', text: 'Track it here.' }));

    // Compared as text: a failing assertion that prints a live node stalls the runner.
    expect(unreadOnLauncher(root)).to.equal('2');
    expect(getByRole(root, 'button', 'Open chat').getAttribute('aria-describedby')).to.equal('unread');
    expect(counts).to.deep.equal([1, 2]);
  });

  it('when the visitor has opened and closed the panel on a first visit, then later bot messages light the unread badge', async () => {
    const { el, root, show } = await mount();
    el.open = true;
    await el.updateComplete;
    await show(bot(1, { type: 'text', text: 'Hi! How can I help?' }));
    el.open = false;
    await el.updateComplete;

    await show(bot(2, { type: 'text', text: 'Your order has shipped.' }));

    expect(unreadOnLauncher(root)).to.equal('1');
  });

  it('when the bot sends root-relative media and links, then they load from the chat server, not the host page; absolute ones stay', async () => {
    const { root, show } = await mount();
    await show(
      bot(1, { type: 'image', url: '/images/robot.svg', alt: 'Robot' }),
      bot(2, {
        type: 'carousel',
        cards: [
          { title: 'Plan', imageUrl: '/images/plan.png', buttons: [{ kind: 'url', label: 'Open', url: '/r/abc' }] },
        ],
      }),
      bot(3, { type: 'text', text: 'See [help](/help) or [docs](https://docs.example.com/x)' }),
    );

    expect(getByRole(log(root), 'img', 'Robot').getAttribute('src')).to.equal(`${SERVER}/images/robot.svg`);
    // The card's picture has no alt text, so it is decoration: found inside its slide.
    expect(getByRole(log(root), 'group', '1 of 1').querySelector('img')?.getAttribute('src')).to.equal(
      `${SERVER}/images/plan.png`,
    );
    expect(getByRole(root, 'link', 'Open (opens in a new tab)').getAttribute('href')).to.equal(`${SERVER}/r/abc`);
    const text = getAllByRole(log(root), 'listitem')[2];
    expect(getAllByRole(text ?? log(root), 'link').map((a) => a.getAttribute('href'))).to.deep.equal([
      `${SERVER}/help`,
      'https://docs.example.com/x',
    ]);
  });

  it('when the locale is German, then the widget speaks German; any string can be overridden', async () => {
    const { el, root } = await mount({ locale: 'de-CH' });
    expect(getByRole(root, 'button', 'Chat öffnen')).to.exist;
    expect(getByRole(root, 'textbox', 'Nachricht')).to.exist;

    el.strings = { send: 'Los' };
    await el.updateComplete;
    expect(getByRole(root, 'button', 'Los')).to.exist;
  });

  it('when the locale is right-to-left, then the widget is laid out mirrored', async () => {
    const { el, root } = await mount({ locale: 'ar' });
    expect(el.getAttribute('dir')).to.equal('rtl');
    // In Arabic: "Message".
    const input = getByRole(root, 'textbox', 'رسالة');
    expect(getComputedStyle(input).direction).to.equal('rtl');
    // The launcher sits at the inline end, i.e. bottom-left in RTL.
    const rect = el.getBoundingClientRect();
    expect(rect.left).to.be.lessThan(window.innerWidth / 2);
  });

  it('when the bot sends a page event, then the element fires chat-widget-event with it', async () => {
    const { el, transport } = await mount();
    const seen: unknown[] = [];
    el.addEventListener('chat-widget-event', (e) => seen.push((e as CustomEvent).detail));
    transport.fire('bot_event', { name: 'closeChat', payload: { reason: 'done' } });
    expect(seen).to.deep.equal([{ name: 'closeChat', payload: { reason: 'done' } }]);
  });

  it('when every kind of message is shown, then axe finds no violations', async () => {
    const { el, show } = await mount();
    el.open = true;
    await show(
      bot(1, {
        type: 'text',
        text: '**Hi** [docs](https://example.com)',
        buttons: [
          { kind: 'postback', label: 'Yes', payload: 'y' },
          { kind: 'url', label: 'Open', url: 'https://example.com/r/t' },
        ],
      }),
      bot(2, { type: 'image', url: 'http://chat.test:3000/cat.png', alt: 'A cat' }),
      bot(3, {
        type: 'carousel',
        cards: [{ title: 'A', buttons: [{ kind: 'postback', label: 'Pick A', payload: 'a' }] }, { title: 'B' }],
      }),
      bot(4, { type: 'notice', level: 'info', text: 'Note' }),
      bot(5, { type: 'text', text: 'Choose', quickReplies: [{ label: 'One', payload: '1' }] }),
    );
    await settled(el);
    await expect(el).to.be.accessible();
  });

  it('when the user types markdown, then their bubble shows it exactly as typed', async () => {
    const { root, show } = await mount();
    await show({
      seq: 1,
      from: 'user',
      at: '2026-11-21T09:36:51.123Z',
      clientId: 'c1',
      message: { type: 'text', text: '**not bold** [x](https://e.com)' },
    });
    expect(logTexts(root)).to.deep.equal(['You: **not bold** [x](https://e.com)']);
    expect(log(root).querySelectorAll('strong').length + getAllByRole(log(root), 'link').length).to.equal(0);
  });

  describe('layout', () => {
    afterEach(async () => {
      await setViewport({ width: 800, height: 600 });
      await emulateMedia({ reducedMotion: 'no-preference' });
    });

    it('when the viewport is narrower than 480 px, then the open panel fills the screen', async () => {
      await setViewport({ width: 375, height: 667 });
      const { el, root } = await mount();
      el.open = true;
      await el.updateComplete;
      const dialog = getByRole(root, 'dialog', 'Chat');
      await Promise.all(dialog.getAnimations().map((a) => a.finished));
      const panel = dialog.getBoundingClientRect();
      expect([panel.left, panel.top, panel.width, panel.height]).to.deep.equal([0, 0, 375, 667]);
      // The launcher is covered, so the panel's own button closes it and focus lands on the launcher.
      getByRole(root, 'button', 'Minimize chat').focus();
      getByRole(root, 'button', 'Minimize chat').click();
      await el.updateComplete;
      expect(el.open).to.equal(false);
      expect(root.activeElement?.getAttribute('aria-label')).to.equal('Open chat');
    });

    it('when on a phone, then the message box text is at least 16 px, so focusing it does not zoom the page', async () => {
      await setViewport({ width: 375, height: 667 });
      const { el, root } = await mount();
      el.open = true;
      await el.updateComplete;
      expect(parseFloat(getComputedStyle(getByRole(root, 'textbox', 'Message')).fontSize)).to.be.at.least(16);
    });

    it('when the full-screen panel is scrolled past an end, then the conversation keeps the scroll and the page behind stays put', async () => {
      await setViewport({ width: 375, height: 667 });
      const { el, root } = await mount();
      el.open = true;
      await el.updateComplete;
      const style = getComputedStyle(getByRole(root, 'log', 'Conversation'));
      expect([style.overflowY, style.overscrollBehaviorY]).to.deep.equal(['auto', 'contain']);
      expect(getComputedStyle(root.querySelector('.header') as Element).touchAction).to.equal('none');
    });

    it('when the viewport is wide, then the panel is a floating box', async () => {
      await setViewport({ width: 1024, height: 768 });
      const { el, root } = await mount();
      el.open = true;
      await el.updateComplete;
      expect(getByRole(root, 'dialog', 'Chat').getBoundingClientRect().width).to.equal(360);
    });

    it('when the person prefers reduced motion, then the panel and typing dots do not animate', async () => {
      await emulateMedia({ reducedMotion: 'reduce' });
      const { el, root, transport } = await mount();
      el.open = true;
      transport.fire('typing', true);
      await el.updateComplete;
      expect(getComputedStyle(getByRole(root, 'dialog', 'Chat')).animationName).to.equal('none');
      const dot = root.querySelector('.dots i');
      expect(dot && getComputedStyle(dot).animationName).to.equal('none');
    });

    it('when the person has no motion preference, then the panel animates in', async () => {
      const { el, root } = await mount();
      el.open = true;
      await el.updateComplete;
      expect(getComputedStyle(getByRole(root, 'dialog', 'Chat')).animationName).to.equal('rise');
    });
  });
});
