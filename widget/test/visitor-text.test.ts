/// <reference types="mocha" />
import { expect, fixture, html } from '@open-wc/testing';
import { storageKey } from '../controllers/session-store.ts';
import de from '../i18n/locales/de.ts';
import { defineChatWidget, en, type ChatWidgetElement, type WidgetStrings } from '../index.ts';
import { fakeTransports, getByRole, type FakeTransport } from './helpers.ts';

defineChatWidget();

const SERVER = 'http://bot.test:3000';

/** What only an operator or a developer should ever read: setting names, error codes, transport and server wording. */
const OPERATOR_TEXT =
  /BOT_IDENTITY_SECRET|ALLOWED_ORIGINS|HMAC|userHash|websocket|xhr|poll error|timeout|origin|invalid_payload|text_too_long|unknown_dialog|not_allowed|unauthorized|session_expired|rate_limited|internal|There is no dialog|sent just now|bytes|server/i;

/** Console output, captured so a test can check that the details went there instead. */
function captureConsole(): { lines: string[]; restore: () => void } {
  const lines: string[] = [];
  const levels = ['error', 'warn', 'info', 'log', 'debug'] as const;
  const originals = levels.map((level) => console[level]);
  for (const level of levels) console[level] = (...args: unknown[]) => lines.push(args.map(String).join(' '));
  return { lines, restore: () => levels.forEach((level, i) => (console[level] = originals[i] as typeof console.log)) };
}

interface Scene {
  readonly el: ChatWidgetElement;
  readonly root: ShadowRoot;
  readonly transport: () => FakeTransport;
  readonly t: WidgetStrings;
}

/** The widget, opened, on a server that has not answered the handshake yet. */
async function mount(locale: 'en' | 'de'): Promise<Scene> {
  const factory = fakeTransports({ accept: false });
  const el = await fixture<ChatWidgetElement>(
    html`<chat-widget server-url=${SERVER} locale=${locale} open .transportFactory=${factory.factory}></chat-widget>`,
  );
  return { el, root: el.shadowRoot as ShadowRoot, transport: factory.latest, t: locale === 'de' ? de : en };
}

/** Everything a sighted visitor can read in the widget, plus what a screen reader says of its controls. */
function visibleText(root: ShadowRoot): string {
  const panel = root.querySelector<HTMLElement>('[role=dialog]');
  const labels = [...root.querySelectorAll('[aria-label]')].map((el) => el.getAttribute('aria-label'));
  return [
    panel?.innerText ?? '',
    root.querySelector<HTMLElement>('[aria-controls=panel]')?.innerText ?? '',
    ...labels,
  ].join('\n');
}

async function send(scene: Scene, text: string): Promise<void> {
  getByRole<HTMLInputElement>(scene.root, 'textbox', scene.t.message).value = text;
  getByRole(scene.root, 'button', scene.t.send).click();
  await scene.el.updateComplete;
}

/** Each failure the visitor can meet, and the sentence they should read for it. */
const failures: ReadonlyArray<{
  name: string;
  expected: (t: WidgetStrings) => string;
  act: (scene: Scene) => Promise<void>;
}> = [
  { name: 'the first handshake is still on its way', expected: (t) => t.connecting, act: async () => {} },
  {
    name: 'the connection is refused (WebSocket blocked, server down)',
    expected: (t) => t.connecting,
    act: async ({ transport }) => transport().fire('connect_error', { code: null, message: 'websocket error' }, true),
  },
  {
    name: 'the handshake times out',
    expected: (t) => t.connecting,
    act: async ({ transport }) => transport().fire('connect_error', { code: null, message: 'timeout' }, true),
  },
  {
    name: 'the server refuses the identity',
    expected: (t) => t.failed,
    act: async ({ transport }) =>
      transport().fire(
        'connect_error',
        {
          code: 'unauthorized',
          message: 'The userHash does not match this userId; compute it as HMAC-SHA256(BOT_IDENTITY_SECRET, userId).',
        },
        false,
      ),
  },
  {
    name: 'identity verification is not enabled on the server',
    expected: (t) => t.failed,
    act: async ({ transport }) =>
      transport().fire(
        'connect_error',
        {
          code: 'not_allowed',
          message:
            'Identity verification is not enabled on this server; set BOT_IDENTITY_SECRET or leave out userId and userHash.',
        },
        false,
      ),
  },
  {
    name: 'the stored session has expired',
    expected: (t) => t.sessionExpired,
    act: async ({ transport }) =>
      transport().fire(
        'connect_error',
        { code: 'session_expired', message: 'This session has expired; start a new one.' },
        false,
      ),
  },
  {
    name: 'the visitor writes too fast',
    expected: (t) => t.tooFast,
    act: async (scene) => {
      scene.transport().serverAccepts();
      await send(scene, 'hello');
      const error = {
        code: 'rate_limited',
        message: 'You are sending messages too quickly. Please wait a moment and try again.',
      } as const;
      scene.transport().fire('protocol_error', error);
      scene.transport().sent[0]?.ack({ ok: false, error });
    },
  },
  {
    name: 'the message is longer than the server takes',
    expected: (t) => t.tooLong,
    act: async (scene) => {
      scene.transport().serverAccepts();
      await send(scene, 'a long one');
      const error = {
        code: 'text_too_long',
        message: 'Messages can be at most 4096 bytes long; please shorten it.',
      } as const;
      scene.transport().fire('protocol_error', error);
      scene.transport().sent[0]?.ack({ ok: false, error });
    },
  },
  {
    name: 'the store does not take the message within the turn deadline',
    expected: (t) => `${t.notSent}: ${t.failed}`,
    act: async (scene) => {
      scene.transport().serverAccepts();
      await send(scene, 'hello');
      // As the server acks it (channels/webchat/socket-server.ts), with the protocol_error echo beside the ack.
      const error = { code: 'internal', message: 'That could not be sent just now. Please try again.' } as const;
      scene.transport().fire('protocol_error', error);
      scene.transport().sent[0]?.ack({ ok: false, error });
    },
  },
  {
    name: 'the chat could not start on the server',
    expected: (t) => t.failed,
    act: async ({ transport }) => {
      transport().serverAccepts();
      transport().fire('protocol_error', {
        code: 'internal',
        message: 'The chat could not start. Please try again shortly.',
      });
    },
  },
  {
    name: 'the link drops and a reconnection attempt fails',
    expected: (t) => t.offline,
    act: async ({ transport }) => {
      transport().serverAccepts();
      transport().drop();
      transport().fire('connect_error', { code: null, message: 'xhr poll error (502)' }, true);
    },
  },
  {
    name: 'the server refuses the page origin by HTTP 403',
    expected: (t) => t.unavailable,
    act: async ({ transport }) =>
      transport().fire('connect_error', { code: null, originRefused: true, message: 'xhr poll error (403)' }, true),
  },
  {
    name: 'the server refuses the page origin in its handshake answer',
    expected: (t) => t.unavailable,
    act: async ({ transport }) =>
      transport().fire(
        'connect_error',
        { code: null, originRefused: true, message: 'Origin http://shop.test is not in ALLOWED_ORIGINS' },
        false,
      ),
  },
];

describe('<chat-widget> what the visitor reads when something fails', () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => localStorage.clear());

  for (const locale of ['en', 'de'] as const) {
    for (const failure of failures) {
      it(`when ${failure.name} (${locale}), then the visitor reads a short sentence in their language and no operator text`, async () => {
        // An earlier visit, so a refused or expired session has something to refuse.
        localStorage.setItem(
          storageKey(SERVER),
          JSON.stringify({ userId: 'u1', token: 'v2.1.sig', lastSeq: 0, items: [] }),
        );
        const scene = await mount(locale);
        const output = captureConsole();
        try {
          await failure.act(scene);
          await scene.el.updateComplete;
        } finally {
          output.restore();
        }

        const shown = visibleText(scene.root);
        expect(shown).to.contain(failure.expected(scene.t));
        expect(shown.match(OPERATOR_TEXT)?.[0] ?? 'none').to.equal('none');
      });
    }
  }

  it('when the server refuses the page origin, then the console tells the developer to add it to ALLOWED_ORIGINS and nothing retries', async () => {
    const scene = await mount('en');
    const output = captureConsole();
    try {
      scene
        .transport()
        .fire('connect_error', { code: null, originRefused: true, message: 'xhr poll error (403)' }, true);
      await scene.el.updateComplete;
    } finally {
      output.restore();
    }
    expect(output.lines.join('\n')).to.contain('ALLOWED_ORIGINS').and.contain(location.origin);
    expect(scene.transport().disconnected).to.equal(true);
  });

  it('when the page starts a dialog that does not exist, then the promise settles {ok:false}, the console says why, and the visitor sees nothing of it', async () => {
    const scene = await mount('en');
    scene.transport().serverAccepts();
    await scene.el.updateComplete;
    const before = visibleText(scene.root);

    const output = captureConsole();
    const settled = scene.el.startDialog('x');
    try {
      const command = scene.transport().emitted.at(-1);
      const error = { code: 'unknown_dialog', message: 'There is no dialog "x" in this bot.' } as const;
      // The server sends the refusal both as an event and through the ack.
      scene.transport().fire('protocol_error', error);
      command?.ack({ ok: false, error });
      await settled;
      await scene.el.updateComplete;
    } finally {
      output.restore();
    }

    expect(await settled).to.deep.equal({
      ok: false,
      error: { code: 'unknown_dialog', message: 'There is no dialog "x" in this bot.' },
    });
    expect(output.lines.join('\n')).to.contain('There is no dialog "x"');
    expect(visibleText(scene.root)).to.equal(before);
  });
});
