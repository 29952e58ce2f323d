/// <reference types="mocha" />
import { expect, fixture, html } from '@open-wc/testing';
import { emulateMedia } from '@web/test-runner-commands';
import type { TranscriptItem } from '../../shared/protocol.ts';
import { storageKey } from '../controllers/session-store.ts';
import { defineChatWidget, type ChatWidgetElement } from '../index.ts';
import { fakeTransports, getAllByRole, getByRole } from './helpers.ts';

defineChatWidget();

const SERVER = 'http://chat.test:3000';

function botAt(seq: number, at: Date, text: string): TranscriptItem {
  return { seq, from: 'bot', at: at.toISOString(), clientId: null, message: { type: 'text', text } };
}

async function mount(attrs: { locale?: string; scheme?: string; returning?: boolean } = {}) {
  if (attrs.returning)
    localStorage.setItem(storageKey(SERVER), JSON.stringify({ userId: 'u1', token: 't1', lastSeq: 0, items: [] }));
  const factory = fakeTransports();
  const el = await fixture<ChatWidgetElement>(
    html`<chat-widget server-url=${SERVER} locale=${attrs.locale ?? 'en'} color-scheme=${attrs.scheme ?? 'light'} open .transportFactory=${factory.factory}></chat-widget>`,
  );
  const root = el.shadowRoot as ShadowRoot;
  const transport = factory.latest();
  return { el, root, transport, latest: factory.latest };
}

const background = (root: ShadowRoot) =>
  getComputedStyle(root.querySelector('[role=dialog]') as Element).backgroundColor;

describe('<chat-widget> looks', () => {
  beforeEach(() => localStorage.clear());
  afterEach(async () => {
    localStorage.clear();
    await emulateMedia({ colorScheme: 'light' });
  });

  it('when messages span three days, then a date line stands above the first of each day: the date, Yesterday, Today', async () => {
    const { el, root, transport } = await mount();
    const now = new Date();
    const yesterday = new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1, 12);
    const older = new Date(2026, 0, 5, 9);
    transport.fire('entries', [
      botAt(1, older, 'a'),
      botAt(2, older, 'b'),
      botAt(3, yesterday, 'c'),
      botAt(4, now, 'd'),
      botAt(5, now, 'e'),
    ]);
    await el.updateComplete;
    const lines = [...root.querySelectorAll('[role=separator]')].map((s) => s.textContent);
    expect(lines).to.deep.equal([
      new Intl.DateTimeFormat('en', { dateStyle: 'long' }).format(older),
      'yesterday',
      'today',
    ]);
    // Shown capitalised: the first letter is raised by CSS, the words stay the browser's own.
    expect(
      getComputedStyle(root.querySelector('[role=separator]') as Element, '::first-letter').textTransform,
    ).to.equal('uppercase');
  });

  it('when the locale is French, then the date lines are French too', async () => {
    const { el, root, transport } = await mount({ locale: 'fr' });
    transport.fire('entries', [botAt(1, new Date(), 'Bonjour')]);
    await el.updateComplete;
    expect(root.querySelector('[role=separator]')?.textContent).to.equal('aujourd’hui');
    expect(root.querySelector('#input')?.getAttribute('placeholder')).to.equal('Écrivez un message…');
  });

  it('when one bot message is unread, then the launcher says "1 unread message", in Polish "2 nieprzeczytane wiadomości" for two', async () => {
    const { el, root, transport } = await mount({ returning: true });
    el.open = false;
    await el.updateComplete;
    transport.fire('entries', [botAt(1, new Date(), 'one')]);
    await el.updateComplete;
    expect(root.querySelector('#unread')?.textContent).to.equal('1 unread message');

    el.locale = 'pl';
    transport.fire('entries', [botAt(2, new Date(), 'two')]);
    await el.updateComplete;
    expect(root.querySelector('#unread')?.textContent).to.equal('2 nieprzeczytane wiadomości');
  });

  it('when the scheme is auto, then the panel follows the system preference, live', async () => {
    await emulateMedia({ colorScheme: 'dark' });
    const { root } = await mount({ scheme: 'auto' });
    expect(background(root)).to.equal('rgb(17, 24, 39)');
    await emulateMedia({ colorScheme: 'light' });
    expect(background(root)).to.equal('rgb(255, 255, 255)');
  });

  it('when the page sets the input border, notice, badge and error colours, then each shows in its place, over the dark scheme', async () => {
    const { el, root, transport } = await mount({ scheme: 'dark', returning: true });
    el.theme = {
      inputBorder: '#010203',
      noticeBackground: '#040506',
      noticeText: '#070809',
      badge: '#0a0b0c',
      badgeText: '#0d0e0f',
      error: '#101112',
    };
    el.open = false;
    transport.fire('entries', [
      {
        seq: 1,
        from: 'bot',
        at: new Date().toISOString(),
        clientId: null,
        message: { type: 'notice', level: 'info', text: 'Heads up' },
      },
    ]);
    await el.updateComplete;
    const style = (selector: string) => getComputedStyle(root.querySelector(selector) as Element);
    const notice = getComputedStyle(getAllByRole(getByRole(root, 'log', 'Conversation'), 'listitem')[0] as Element);
    expect(getComputedStyle(getByRole(root, 'textbox', 'Message')).borderTopColor).to.equal('rgb(1, 2, 3)');
    expect(notice.backgroundColor).to.equal('rgb(4, 5, 6)');
    expect(notice.color).to.equal('rgb(7, 8, 9)');
    // The badge is drawn only (aria-hidden; the launcher's description says the count): found by its class.
    expect(style('.badge').backgroundColor).to.equal('rgb(10, 11, 12)');
    expect(style('.badge').color).to.equal('rgb(13, 14, 15)');
    expect(getComputedStyle(getAllByRole(root, 'alert')[0] as Element).color).to.equal('rgb(16, 17, 18)');
    // What the page did not set keeps the dark scheme's value.
    expect(getComputedStyle(getByRole(root, 'dialog', 'Chat')).backgroundColor).to.equal('rgb(17, 24, 39)');
  });

  it('when the scheme is light, then a dark system preference changes nothing', async () => {
    await emulateMedia({ colorScheme: 'dark' });
    const { root } = await mount({ scheme: 'light' });
    expect(background(root)).to.equal('rgb(255, 255, 255)');
  });

  it('when the bot names itself in the handshake, then the header shows its name and picture; the page title wins', async () => {
    const { el, root, transport } = await mount();
    transport.fire('session', {
      userId: 'u1',
      token: 't',
      bot: { name: 'Ada', avatarUrl: 'https://cdn.example.com/a.png' },
    });
    await el.updateComplete;
    // The panel is named by its title; the picture beside the title is the panel's first.
    expect(getByRole(root, 'dialog', 'Ada').querySelector('img')?.getAttribute('src')).to.equal(
      'https://cdn.example.com/a.png',
    );

    el.chatTitle = 'Help';
    el.avatarUrl = 'javascript:alert(1)';
    await el.updateComplete;
    // Only http(s) pictures: anything else shows none.
    expect(getByRole(root, 'dialog', 'Help').querySelectorAll('img')).to.have.length(0);
  });

  it('when restored history is on the device, then no message hook fires for it; new entries fire once each', async () => {
    localStorage.setItem(
      storageKey(SERVER),
      JSON.stringify({ userId: 'u1', token: 't1', lastSeq: 1, items: [botAt(1, new Date(), 'earlier')] }),
    );
    const heard: unknown[] = [];
    const listen = (e: Event) => heard.push((e as CustomEvent).detail);
    document.addEventListener('chat-widget-message', listen);
    const { el, transport, latest } = await mount();
    transport.fire('entries', [botAt(1, new Date(), 'earlier'), botAt(2, new Date(), 'new')]);
    await el.updateComplete;
    transport.fire('entries', [botAt(2, new Date(), 'new')]);
    await el.updateComplete;
    expect(heard.map((h) => (h as { text: string }).text)).to.deep.equal(['new']);

    // After shutdown and restart the visitor is a new user whose entries count from 1 again: each is news.
    el.shutdown();
    await el.updateComplete;
    el.restart();
    expect(latest()).to.not.equal(transport);
    latest().fire('entries', [botAt(1, new Date(), 'hello, new visitor')]);
    await el.updateComplete;
    document.removeEventListener('chat-widget-message', listen);
    expect(heard.map((h) => (h as { text: string }).text)).to.deep.equal(['new', 'hello, new visitor']);
  });
});
