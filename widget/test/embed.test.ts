/// <reference types="mocha" />
import { expect } from '@open-wc/testing';
import { ChatWidgetElement } from '../index.ts';
import type { ChatWidgetApi } from '../embed.ts';
import { fakeTransports, getByRole } from './helpers.ts';

const transports = fakeTransports();

/** Registered before the embed loads, so it keeps ours and nothing dials a real server. */
class TestChatWidget extends ChatWidgetElement {
  constructor() {
    super();
    this.transportFactory = transports.factory;
  }
}

function api(): ChatWidgetApi {
  if (!window.ChatWidget) throw new Error('window.ChatWidget is missing');
  return window.ChatWidget;
}

describe('embed script', () => {
  before(async () => {
    customElements.define('chat-widget', TestChatWidget);
    // The snippet a host page pastes before the async script tag.
    const stub = function (...args: unknown[]) {
      (stub.q = stub.q ?? []).push(args);
    } as ChatWidgetApi;
    window.ChatWidget = stub;
    window.ChatWidget('init', { serverUrl: 'http://chat.test:3000', user: { plan: 'pro' }, locale: 'fr' });
    window.ChatWidget('open');

    await import('../embed.ts');
  });

  it('when calls were queued before the script loaded, then they are replayed in order', async () => {
    const widget = document.querySelector('chat-widget');
    expect(widget instanceof TestChatWidget, 'the page has our <chat-widget>').to.equal(true);
    await widget?.updateComplete;

    expect(document.querySelectorAll('chat-widget')).to.have.length(1);
    expect(widget?.serverUrl).to.equal('http://chat.test:3000');
    expect(widget?.open).to.equal(true);
    expect(transports.latest().serverUrl).to.equal('http://chat.test:3000');
    expect(transports.latest().auths[0]).to.deep.equal({ user: { plan: 'pro' }, locale: 'fr', deferStart: true });
    expect(api().q).to.equal(undefined);
  });

  it('when the API is called after load, then it drives the same element', async () => {
    const widget = document.querySelector('chat-widget');

    api().close();
    expect(widget?.open).to.equal(false);
    api()('toggle');
    expect(widget?.open).to.equal(true);
    api().init({ locale: 'fr' });

    expect(document.querySelectorAll('chat-widget')).to.have.length(1);
    expect(transports.made).to.have.length(1);
  });

  it('when the page sends an event, saves user data or starts a dialog, then each goes to the server and settles with its ack', async () => {
    const transport = transports.latest();
    const before = transport.emitted.length;
    const results = [
      api().sendEvent('pricingClicked', { plan: 'pro' }),
      api().setUserData({ email: 'a@example.com' }),
      api().startDialog('sales', { from: 'banner' }),
    ];
    const emitted = transport.emitted.slice(before);
    expect(emitted.map((e) => [e.event, e.payload])).to.deep.equal([
      ['page_event', { name: 'pricingClicked', payload: { plan: 'pro' } }],
      ['set_user_data', { fields: { email: 'a@example.com' } }],
      ['start_dialog', { dialogId: 'sales', data: { from: 'banner' } }],
    ]);
    emitted[0]?.ack({ ok: true, value: null });
    emitted[1]?.ack({ ok: true, value: null });
    emitted[2]?.ack({
      ok: false,
      error: { code: 'unknown_dialog', message: 'There is no dialog "sales" in this bot.' },
    });
    expect(await Promise.all(results)).to.deep.equal([
      { ok: true },
      { ok: true },
      { ok: false, error: { code: 'unknown_dialog', message: 'There is no dialog "sales" in this bot.' } },
    ]);
  });

  it('when the link is down, then page commands wait and are sent once it is back', async () => {
    const transport = transports.latest();
    transport.drop();
    const before = transport.emitted.length;
    const result = api()('sendEvent', 'formFilled', { field: 'email' }) as Promise<unknown>;
    expect(transport.emitted.length).to.equal(before);

    transport.serverAccepts();
    const sent = transport.emitted.slice(before).filter((e) => e.event === 'page_event');
    expect(sent).to.have.length(1);
    sent[0]?.ack({ ok: true, value: null });
    expect(await result).to.deep.equal({ ok: true });
  });

  it('when the bot sends an event, then the page listeners registered for it run with its payload until removed', async () => {
    const transport = transports.latest();
    const calls: unknown[] = [];
    const listener = (payload: unknown) => calls.push(payload);
    api().on('closeChat', listener);
    api()('on', 'closeChat', () => calls.push('second'));

    transport.fire('bot_event', { name: 'closeChat', payload: { reason: 'done' } });
    expect(calls).to.deep.equal([{ reason: 'done' }, 'second']);

    api().off('closeChat', listener);
    transport.fire('bot_event', { name: 'closeChat', payload: {} });
    expect(calls).to.deep.equal([{ reason: 'done' }, 'second', 'second']);
    api().off('closeChat');
  });

  it('when the bot sends an event nobody listens to, then it is logged once and nothing throws', async () => {
    const transport = transports.latest();
    const logged: unknown[][] = [];
    const original = console.info;
    console.info = (...args: unknown[]) => logged.push(args);
    try {
      transport.fire('bot_event', { name: 'reloadPage', payload: {} });
      transport.fire('bot_event', { name: 'reloadPage', payload: {} });
    } finally {
      console.info = original;
    }
    expect(logged).to.have.length(1);
    expect(String(logged[0]?.[0])).to.contain('reloadPage');
  });

  it('when init passes verified identity, theme and strings, then the handshake and the look follow them', async () => {
    const widget = document.querySelector('chat-widget');
    api().init({ theme: { accent: 'rgb(1, 2, 3)' }, strings: { send: 'Go' } });
    await widget?.updateComplete;
    expect(widget?.style.getPropertyValue('--chat-accent')).to.equal('rgb(1, 2, 3)');
    // The Send button says what the page asked for.
    expect(getByRole(widget?.shadowRoot as ShadowRoot, 'button', 'Go').getAttribute('type')).to.equal('submit');
  });

  it('when init names a colour scheme or side that does not exist, then the console says what would do and the widget keeps its look', async () => {
    const widget = document.querySelector('chat-widget');
    api().init({ theme: 'dark', position: 'left' });
    const warned: unknown[][] = [];
    const original = console.warn;
    console.warn = (...args: unknown[]) => warned.push(args);
    try {
      api().init({ theme: 'sepia' as 'dark', position: { side: 'top' as 'left' } });
    } finally {
      console.warn = original;
    }
    expect(warned.map((w) => w[0])).to.deep.equal([
      'ChatWidget: init theme "sepia" is not one of light, dark, auto; it is ignored.',
      'ChatWidget: init position "top" is not one of left, right; it is ignored.',
    ]);
    expect(widget?.colorScheme).to.equal('dark');
    expect(widget?.position).to.equal('left');
    api().init({ theme: 'light', position: 'right' });
  });

  it('when the page shuts the widget down, then the user is forgotten on this device and a new init is a new user', async () => {
    const transport = transports.latest();
    transport.fire('session', { userId: 'u-1', token: 't-1' });
    transport.fire('entries', [
      { seq: 1, from: 'bot', at: new Date(0).toISOString(), clientId: null, message: { type: 'text', text: 'Hi' } },
    ]);
    expect(Object.keys(localStorage).some((k) => k.startsWith('chat-widget:'))).to.equal(true);

    api().shutdown();

    expect(transport.disconnected).to.equal(true);
    expect(document.querySelector('chat-widget')).to.equal(null);
    expect(Object.keys(localStorage).some((k) => k.startsWith('chat-widget:'))).to.equal(false);
    api().init({ serverUrl: 'http://chat.test:3000', userId: 'shop-42', userHash: 'abc', userPhone: '+4915112345678' });
    await document.querySelector('chat-widget')?.updateComplete;
    expect(transports.latest()).not.to.equal(transport);
    expect(transports.latest().auths[0]).to.deep.equal({
      identity: { userId: 'shop-42', userHash: 'abc', phone: '+4915112345678' },
      deferStart: true,
    });
  });
});
