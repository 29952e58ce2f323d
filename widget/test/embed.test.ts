/// <reference types="mocha" />
import { expect } from '@open-wc/testing';
import { ChatWidgetElement } from '../index.ts';
import type { ChatWidgetApi } from '../embed.ts';
import { fakeTransports } from './helpers.ts';

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
    expect(transports.latest().auths[0]).to.deep.equal({ user: { plan: 'pro' }, locale: 'fr' });
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
});
