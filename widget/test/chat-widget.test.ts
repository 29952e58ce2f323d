/// <reference types="mocha" />
import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { defineChatWidget, type ChatWidgetElement } from '../index.ts';
import { storageKey } from '../controllers/session-store.ts';
import {
  botText,
  fakeTransports,
  focusedName,
  getByRole,
  logTexts,
  settled,
  userText,
  type FakeTransport,
} from './helpers.ts';

defineChatWidget();

const SERVER = 'http://chat.test:3000';

async function mount(factory = fakeTransports()) {
  const el = await fixture<ChatWidgetElement>(
    html`<chat-widget server-url=${SERVER} .transportFactory=${factory.factory}></chat-widget>`,
  );
  const root = el.shadowRoot;
  if (!root) throw new Error('no shadow root');
  return { el, root, transport: factory.latest(), transports: factory };
}

async function openPanel(el: ChatWidgetElement, root: ShadowRoot) {
  getByRole(root, 'button', 'Open chat').click();
  await el.updateComplete;
}

/** The server's side of a stored message: ack it, then send its entry. */
async function storeLatest(el: ChatWidgetElement, transport: FakeTransport, seq: number) {
  const sent = transport.sent.at(-1);
  if (!sent) throw new Error('nothing was sent');
  sent.ack({ ok: true, value: { seq, duplicate: false } });
  transport.fire('entries', [userText(seq, sent.payload.text, sent.payload.clientId)]);
  await el.updateComplete;
}

/** Runs `action` with console[level] captured, so expected developer output neither clutters the run nor goes unchecked. */
async function consoleOutput(level: 'warn' | 'info', action: () => Promise<void>): Promise<string[]> {
  const lines: string[] = [];
  const original = console[level];
  console[level] = (...args: unknown[]) => lines.push(args.map(String).join(' '));
  try {
    await action();
  } finally {
    console[level] = original;
  }
  return lines;
}

describe('<chat-widget>', () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => localStorage.clear());

  it('when the launcher is clicked, then the panel opens and the message box has focus', async () => {
    const { el, root } = await mount();
    const dialog = getByRole(root, 'dialog', 'Chat');
    expect(dialog.hidden).to.equal(true);

    await openPanel(el, root);

    expect(dialog.hidden).to.equal(false);
    const launcher = getByRole(root, 'button', 'Close chat');
    expect(launcher.getAttribute('aria-expanded')).to.equal('true');
    expect(focusedName(root)).to.equal('Message');
  });

  it('when the open panel is closed with the launcher, then it hides and focus returns to the launcher', async () => {
    const { el, root } = await mount();
    await openPanel(el, root);

    getByRole(root, 'button', 'Close chat').click();
    await el.updateComplete;

    expect(getByRole(root, 'dialog', 'Chat').hidden).to.equal(true);
    expect(getByRole(root, 'button', 'Open chat').getAttribute('aria-expanded')).to.equal('false');
    expect(focusedName(root)).to.equal('Open chat');
  });

  it('when Escape is pressed in the panel, then it closes and focus returns to the launcher', async () => {
    const { el, root } = await mount();
    await openPanel(el, root);

    await sendKeys({ press: 'Escape' });
    await el.updateComplete;

    expect(el.open).to.equal(false);
    expect(focusedName(root)).to.equal('Open chat');
  });

  it('when the user types and presses Enter, then the text is sent with a client id and shown at once', async () => {
    const { el, root, transport } = await mount();
    await openPanel(el, root);

    await sendKeys({ type: 'Hello there' });
    await sendKeys({ press: 'Enter' });
    await el.updateComplete;

    expect(transport.sent).to.have.length(1);
    expect(transport.sent[0]?.payload.text).to.equal('Hello there');
    expect(transport.sent[0]?.payload.clientId).to.be.a('string').and.not.be.empty;
    expect(logTexts(root)).to.deep.equal(['You: Hello there (sending)']);
    expect(getByRole<HTMLInputElement>(root, 'textbox', 'Message').value).to.equal('');
  });

  it('when Send is clicked twice, then each message gets its own client id', async () => {
    const { el, root, transport } = await mount();
    await openPanel(el, root);
    const input = getByRole<HTMLInputElement>(root, 'textbox', 'Message');

    for (const text of ['one', 'two']) {
      input.value = text;
      getByRole(root, 'button', 'Send').click();
    }
    await el.updateComplete;

    const ids = transport.sent.map((s) => s.payload.clientId);
    expect(transport.sent.map((s) => s.payload.text)).to.deep.equal(['one', 'two']);
    expect(new Set(ids).size).to.equal(2);
  });

  it('when the message box is blank, then Send sends nothing', async () => {
    const { el, root, transport } = await mount();
    await openPanel(el, root);

    getByRole<HTMLInputElement>(root, 'textbox', 'Message').value = '   ';
    getByRole(root, 'button', 'Send').click();
    await el.updateComplete;

    expect(transport.sent).to.have.length(0);
  });

  it('when the stored entry for a sent message arrives, then it replaces the optimistic one', async () => {
    const { el, root, transport } = await mount();
    await openPanel(el, root);
    getByRole<HTMLInputElement>(root, 'textbox', 'Message').value = 'Hi';
    getByRole(root, 'button', 'Send').click();
    await el.updateComplete;
    expect(logTexts(root)).to.deep.equal(['You: Hi (sending)']);

    await storeLatest(el, transport, 1);

    expect(logTexts(root)).to.deep.equal(['You: Hi']);
  });

  it('when the entry arrives before the ack, then the message still shows once', async () => {
    const { el, root, transport } = await mount();
    getByRole<HTMLInputElement>(root, 'textbox', 'Message').value = 'Hi';
    getByRole(root, 'button', 'Send').click();
    const sent = transport.sent[0];
    if (!sent) throw new Error('nothing was sent');

    transport.fire('entries', [userText(1, 'Hi', sent.payload.clientId)]);
    sent.ack({ ok: true, value: { seq: 1, duplicate: false } });
    await el.updateComplete;

    expect(logTexts(root)).to.deep.equal(['You: Hi']);
  });

  it('when the server refuses a message, then it stays in the log marked as not sent', async () => {
    const { el, root, transport } = await mount();
    getByRole<HTMLInputElement>(root, 'textbox', 'Message').value = 'spam';
    getByRole(root, 'button', 'Send').click();

    await consoleOutput('warn', async () => {
      transport.sent[0]?.ack({
        ok: false,
        error: { code: 'text_too_long', message: 'Messages can be at most 4096 bytes long.' },
      });
      await el.updateComplete;
    });

    expect(logTexts(root)).to.deep.equal(['You: spam (not sent: That message is too long.)']);
  });

  it('when bot entries arrive out of order and repeated, then each seq shows once in seq order', async () => {
    const { el, root, transport } = await mount();

    transport.fire('entries', [botText(2, 'second')]);
    transport.fire('entries', [botText(1, 'first'), botText(2, 'second')]);
    transport.fire('entries', [botText(3, 'third'), botText(1, 'first')]);
    await el.updateComplete;

    expect(logTexts(root)).to.deep.equal(['Bot: first', 'Bot: second', 'Bot: third']);
  });

  it('when a message contains markup, then it is shown as text and nothing runs', async () => {
    const { el, root, transport } = await mount();
    const hostile = '<img src=x onerror="window.__pwned=1">';

    transport.fire('entries', [botText(1, hostile)]);
    await el.updateComplete;

    const log = getByRole(root, 'log', 'Conversation');
    // Count, not the element: a failing assertion that prints a live node stalls the runner.
    expect(log.querySelectorAll('img').length).to.equal(0);
    expect(logTexts(root)).to.deep.equal([`Bot: ${hostile}`]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect('__pwned' in window).to.equal(false);
  });

  it('when the bot is typing, then the panel says so until it stops', async () => {
    const { el, root, transport } = await mount();
    await openPanel(el, root);
    const note = [...root.querySelectorAll<HTMLElement>('.note')].find((n) => n.textContent?.includes('Typing'));

    transport.fire('typing', true);
    await el.updateComplete;
    expect(note?.hidden).to.equal(false);

    transport.fire('typing', false);
    await el.updateComplete;
    expect(note?.hidden).to.equal(true);
  });

  it('when the server reports a protocol error, then a short sentence is announced and the details go to the console', async () => {
    const { el, root, transport } = await mount();
    const logged = await consoleOutput('warn', async () => {
      transport.fire('protocol_error', {
        code: 'invalid_payload',
        message: 'The message is not valid: fields.plan is nested too deep.',
      });
      await el.updateComplete;
    });

    const alert = root.querySelector('[role=alert]')?.textContent ?? '';
    expect(alert).to.equal('Something went wrong. Please try again.');
    expect(logged.join('\n')).to.contain('fields.plan is nested too deep');
  });

  it('when a session was issued, then the next page load presents it with the last seq', async () => {
    const first = await mount();
    expect(first.transport.auths[0]).to.deep.equal({ deferStart: true });
    first.transport.fire('session', { userId: 'u1', token: 't1' });
    first.transport.fire('entries', [botText(1, 'Welcome'), botText(2, 'How can I help?')]);
    first.el.remove();

    const stored = JSON.parse(localStorage.getItem(storageKey(SERVER)) ?? 'null');
    expect(stored).to.include({ userId: 'u1', token: 't1', lastSeq: 2 });

    const second = await mount();
    expect(second.transport.auths[0]).to.deep.equal({ userId: 'u1', token: 't1', lastSeq: 2, deferStart: true });
    expect(logTexts(second.root)).to.deep.equal(['Bot: Welcome', 'Bot: How can I help?']);
  });

  it('when the link reconnects, then the handshake carries the newest last seq and unacked messages are resent', async () => {
    const { el, root, transport } = await mount();
    transport.fire('session', { userId: 'u1', token: 't1' });
    transport.fire('entries', [botText(1, 'Welcome')]);
    getByRole<HTMLInputElement>(root, 'textbox', 'Message').value = 'lost?';
    getByRole(root, 'button', 'Send').click();
    transport.fire('disconnect', 'transport close');
    transport.fire('entries', []);

    transport.serverAccepts();
    await el.updateComplete;

    expect(transport.auths.at(-1)).to.deep.equal({ userId: 'u1', token: 't1', lastSeq: 1, deferStart: true });
    expect(transport.sent.map((s) => s.payload.text)).to.deep.equal(['lost?', 'lost?']);
    expect(transport.sent[0]?.payload.clientId).to.equal(transport.sent[1]?.payload.clientId);
  });

  it('when the server refuses the stored credentials, then the widget starts over as a new user once', async () => {
    localStorage.setItem(storageKey(SERVER), JSON.stringify({ userId: 'old', token: 'stale', lastSeq: 4, items: [] }));
    const factory = fakeTransports();
    const { transport } = await mount(factory);
    expect(transport.auths[0]).to.include({ userId: 'old' });

    const logged = await consoleOutput('warn', async () => {
      transport.fire(
        'connect_error',
        { code: 'unauthorized', message: 'This session is not valid here; start a new one.' },
        false,
      );
    });
    expect(logged.join('\n')).to.contain('not valid');

    expect(transport.disconnected).to.equal(true);
    expect(factory.made).to.have.length(2);
    expect(factory.latest().auths[0]).to.deep.equal({ deferStart: true });
    expect(localStorage.getItem(storageKey(SERVER))).to.equal(null);
  });

  it('when the server refuses the handshake for the page data, then the stored conversation is kept and a short sentence is shown', async () => {
    localStorage.setItem(
      storageKey(SERVER),
      JSON.stringify({ userId: 'u1', token: 't1', lastSeq: 1, items: [botText(1, 'Welcome')] }),
    );
    const factory = fakeTransports();
    const { el, root, transport } = await mount(factory);

    await consoleOutput('warn', async () => {
      transport.fire(
        'connect_error',
        { code: 'invalid_payload', message: 'The handshake is not valid: it is nested deeper than 32 levels.' },
        false,
      );
      await el.updateComplete;
    });

    expect(factory.made).to.have.length(1);
    expect(JSON.parse(localStorage.getItem(storageKey(SERVER)) ?? 'null')).to.include({ userId: 'u1', token: 't1' });
    expect(root.querySelector('[role=alert]')?.textContent).to.equal('Something went wrong. Please try again.');
  });

  it('when the stored session has expired, then the widget starts a new session, says so in the page language, and the conversation goes on', async () => {
    localStorage.setItem(
      storageKey(SERVER),
      JSON.stringify({ userId: 'old', token: 'v2.1.sig', lastSeq: 4, items: [botText(4, 'Earlier answer')] }),
    );
    const factory = fakeTransports();
    const el = await fixture<ChatWidgetElement>(
      html`<chat-widget server-url=${SERVER} locale="de" .transportFactory=${factory.factory}></chat-widget>`,
    );
    const root = el.shadowRoot as ShadowRoot;
    expect(factory.latest().auths[0]).to.include({ userId: 'old', token: 'v2.1.sig' });

    const logged = await consoleOutput('info', async () => {
      factory
        .latest()
        .fire(
          'connect_error',
          { code: 'session_expired', message: 'This session has expired; start a new one.' },
          false,
        );
      await el.updateComplete;
    });
    const fresh = factory.latest();
    fresh.fire('session', { userId: 'new', token: 'v2.2.sig' });
    fresh.fire('entries', [botText(1, 'Hallo!'), botText(2, 'Wie heißen Sie?')]);
    await el.updateComplete;

    expect(factory.made).to.have.length(2);
    expect(fresh.auths[0]).to.deep.equal({ locale: 'de', deferStart: true });
    expect(logged.join('\n')).to.contain('has expired');
    expect(root.querySelector('[role=status]')?.textContent).to.equal(
      'Ihr früherer Chat ist abgelaufen, daher hat ein neuer begonnen.',
    );
    expect(root.querySelector('[role=alert]')?.textContent).to.equal('');
    expect(logTexts(root, 'Unterhaltung')).to.deep.equal(['Bot: Hallo!', 'Bot: Wie heißen Sie?']);

    getByRole<HTMLInputElement>(root, 'textbox', 'Nachricht').value = 'Ada';
    getByRole(root, 'button', 'Senden').click();
    await storeLatest(el, fresh, 3);

    expect(fresh.sent.map((s) => s.payload.text)).to.deep.equal(['Ada']);
    expect(logTexts(root, 'Unterhaltung')).to.deep.equal(['Bot: Hallo!', 'Bot: Wie heißen Sie?', 'Sie: Ada']);
    expect((root.querySelector('[role=status]') as HTMLElement).hidden).to.equal(true);
    expect(JSON.parse(localStorage.getItem(storageKey(SERVER)) ?? 'null')).to.include({
      userId: 'new',
      token: 'v2.2.sig',
      lastSeq: 3,
    });
  });

  it('when the stored session has expired and the page passed a verified identity, then the widget resumes that user with the identity', async () => {
    localStorage.setItem(
      storageKey(SERVER),
      JSON.stringify({ userId: 'shop-42', token: 'v2.1.sig', lastSeq: 2, items: [botText(2, 'Earlier answer')] }),
    );
    const identity = { userId: 'shop-42', userHash: 'ab12' };
    const factory = fakeTransports();
    const el = await fixture<ChatWidgetElement>(
      html`<chat-widget server-url=${SERVER} .identity=${identity} .transportFactory=${factory.factory}></chat-widget>`,
    );
    const root = el.shadowRoot as ShadowRoot;
    expect(factory.latest().auths[0]).to.include({ userId: 'shop-42', token: 'v2.1.sig' });

    await consoleOutput('info', async () => {
      factory.latest().fire('connect_error', { code: 'session_expired', message: 'This session has expired.' }, false);
      await el.updateComplete;
    });
    const resumed = factory.latest();
    resumed.fire('session', { userId: 'shop-42', token: 'v2.9.sig' });
    resumed.fire('entries', [botText(1, 'Welcome'), botText(2, 'Earlier answer')]);
    await el.updateComplete;

    expect(resumed.auths[0]).to.deep.equal({ identity, deferStart: true });
    expect(logTexts(root)).to.deep.equal(['Bot: Welcome', 'Bot: Earlier answer']);
    expect((root.querySelector('[role=status]') as HTMLElement).hidden).to.equal(true);
  });

  it('when the verified identity carries a phone number, then it goes along with the stored session, so the server can link it later', async () => {
    localStorage.setItem(
      storageKey(SERVER),
      JSON.stringify({ userId: 'shop-42', token: 'v2.1.sig', lastSeq: 2, items: [] }),
    );
    const identity = { userId: 'shop-42', userHash: 'ab12', phone: '+4915112345678' };
    const factory = fakeTransports();
    await fixture(
      html`<chat-widget server-url=${SERVER} .identity=${identity} .transportFactory=${factory.factory}></chat-widget>`,
    );
    expect(factory.latest().auths[0]).to.deep.equal({
      userId: 'shop-42',
      token: 'v2.1.sig',
      lastSeq: 2,
      identity,
      deferStart: true,
    });
  });

  it('when user and locale are set, then the handshake carries them', async () => {
    const factory = fakeTransports();
    await fixture(html`<chat-widget
      server-url=${SERVER}
      locale="de"
      .user=${{ email: 'a@example.com' }}
      .transportFactory=${factory.factory}
    ></chat-widget>`);

    expect(factory.latest().auths[0]).to.deep.equal({
      user: { email: 'a@example.com' },
      locale: 'de',
      deferStart: true,
    });
  });

  it('when used as a plain custom element with attributes, then server-url, locale and JSON user data reach the handshake', async () => {
    const factory = fakeTransports();
    const el = await fixture<ChatWidgetElement>(
      html`<chat-widget server-url=${SERVER} locale="de" user='{"email":"b@example.com"}' .transportFactory=${factory.factory}></chat-widget>`,
    );
    expect(factory.latest().auths[0]).to.deep.equal({
      user: { email: 'b@example.com' },
      locale: 'de',
      deferStart: true,
    });
    expect(el.getAttribute('dir')).to.equal('ltr');
  });

  it('when the panel is open with messages, then axe finds no accessibility violations', async () => {
    const { el, root, transport } = await mount();
    transport.fire('entries', [botText(1, 'Hello!'), userText(2, 'Hi', 'c1')]);
    await openPanel(el, root);
    await settled(el);

    await expect(el).to.be.accessible();
  });

  it('when the user writes while offline, then the message waits, survives a reload and is sent once the link is back', async () => {
    const first = await mount();
    first.transport.fire('session', { userId: 'u1', token: 't1' });
    first.transport.drop();
    await first.el.updateComplete;
    expect(root_note(first.root)).to.contain('Reconnecting');
    getByRole<HTMLInputElement>(first.root, 'textbox', 'Message').value = 'offline hello';
    getByRole(first.root, 'button', 'Send').click();
    await first.el.updateComplete;
    expect(first.transport.sent).to.have.length(0);
    expect(logTexts(first.root)).to.deep.equal(['You: offline hello (sending)']);
    first.el.remove();

    const factory = fakeTransports();
    factory.factory = ((make) => (url: string) => {
      const t = make(url);
      // The link is still down when the page comes back.
      t.connect = function (auth) {
        (this as unknown as { auth: typeof auth }).auth = auth;
      };
      return t;
    })(factory.factory);
    const second = await mount(factory);
    expect(logTexts(second.root)).to.deep.equal(['You: offline hello (sending)']);
    expect(second.transport.sent).to.have.length(0);

    second.transport.serverAccepts();
    expect(second.transport.sent.map((s) => s.payload.text)).to.deep.equal(['offline hello']);
    await storeLatest(second.el, second.transport, 1);
    expect(logTexts(second.root)).to.deep.equal(['You: offline hello']);
  });
});

function root_note(root: ShadowRoot): string {
  return [...root.querySelectorAll<HTMLElement>('.note')]
    .filter((n) => !n.hidden)
    .map((n) => n.textContent ?? '')
    .join(' ');
}
