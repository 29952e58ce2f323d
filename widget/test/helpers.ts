import type { ClientToServerEvents, HandshakeAuth, TranscriptItem } from '../../shared/protocol.ts';
import { setLocaleSource } from '../i18n/catalog.ts';
import { bundledLocale } from '../i18n/locales/all.ts';
import type {
  ClientAck,
  ClientPayload,
  MessageAck,
  Transport,
  TransportEvents,
  TransportFactory,
} from '../transport/transport.ts';

// As the npm package does: every language from the bundled tables (the script tag fetches them instead).
setLocaleSource(bundledLocale);

type Listener = (...args: never[]) => void;

/**
 * An in-memory stand-in for the socket.io transport. It records what the widget
 * sends and lets a test play the server's part; the real wire is covered end to end.
 */
export class FakeTransport implements Transport {
  /** The handshake auth as read at each (re)connection. */
  readonly auths: HandshakeAuth[] = [];
  /** User messages and presses, in order; `payload.text` is the text or the pressed label. */
  readonly sent: {
    event: 'message' | 'press';
    payload: { clientId: string; text: string; action?: unknown };
    ack: MessageAck;
  }[] = [];
  /** Everything emitted while connected, in order. */
  readonly emitted: { event: keyof ClientToServerEvents; payload: unknown; ack: (response: unknown) => void }[] = [];
  connected = false;
  disconnected = false;
  private auth: (() => HandshakeAuth) | null = null;
  private readonly listeners = new Map<string, Listener[]>();

  /** `accept: false` leaves the handshake open, so a test can show what the visitor sees meanwhile. */
  constructor(
    readonly serverUrl: string,
    private readonly accept = true,
  ) {}

  connect(auth: () => HandshakeAuth): void {
    this.auth = auth;
    if (this.accept) this.serverAccepts();
  }

  emit<E extends keyof ClientToServerEvents>(event: E, payload: ClientPayload<E>, ack: ClientAck<E>): void {
    this.emitted.push({ event, payload, ack: ack as (response: unknown) => void });
    if (event === 'message' || event === 'press') {
      const p = payload as { clientId: string; text?: string; label?: string; action?: unknown };
      this.sent.push({
        event,
        payload: { clientId: p.clientId, text: p.text ?? p.label ?? '', action: p.action },
        ack: ack as MessageAck,
      });
    }
  }

  on<E extends keyof TransportEvents>(event: E, listener: TransportEvents[E]): void {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener as Listener]);
  }

  disconnect(): void {
    this.disconnected = true;
    this.connected = false;
  }

  /** The link drops, as when the server dies. */
  drop(): void {
    this.connected = false;
    this.fire('disconnect', 'transport close');
  }

  /** A (re)connection: reads auth afresh, as socket.io does with the function form. */
  serverAccepts(): void {
    if (this.auth) this.auths.push(this.auth());
    this.connected = true;
    this.fire('connect');
  }

  fire<E extends keyof TransportEvents>(event: E, ...args: Parameters<TransportEvents[E]>): void {
    for (const listener of this.listeners.get(event) ?? []) (listener as (...a: unknown[]) => void)(...args);
  }
}

/** A factory that remembers every transport it made, newest last. */
export function fakeTransports({ accept = true } = {}): {
  factory: TransportFactory;
  made: FakeTransport[];
  latest: () => FakeTransport;
} {
  const made: FakeTransport[] = [];
  const factory: TransportFactory = (serverUrl) => {
    const transport = new FakeTransport(serverUrl, accept);
    made.push(transport);
    return transport;
  };
  const latest = (): FakeTransport => {
    const transport = made.at(-1);
    if (!transport) throw new Error('no transport was made');
    return transport;
  };
  return { factory, made, latest };
}

export function botText(seq: number, text: string): TranscriptItem {
  return { seq, from: 'bot', at: new Date(0).toISOString(), clientId: null, message: { type: 'text', text } };
}

export function userText(seq: number, text: string, clientId: string): TranscriptItem {
  return { seq, from: 'user', at: new Date(0).toISOString(), clientId, message: { type: 'text', text } };
}

const roleSelectors: Record<string, string> = {
  button: 'button, [role=button]',
  link: 'a[href], [role=link]',
  textbox: 'input:not([type]), input[type=text], textarea, [role=textbox]',
  log: '[role=log]',
  dialog: '[role=dialog]',
  list: 'ul, ol, [role=list]',
  listitem: 'li, [role=listitem]',
  img: 'img:not([alt=""]), [role=img]',
};

/**
 * The accessible name, by the rules this widget uses (aria-label, a picture's alt, then a
 * <label for>, then text). Enough to find controls the way a person would.
 */
export function accessibleName(element: Element): string {
  const ariaLabel = element.getAttribute('aria-label');
  if (ariaLabel) return ariaLabel.trim();
  if (element instanceof HTMLImageElement) return element.alt.trim();
  const root = element.getRootNode() as Document | ShadowRoot;
  const label = element.id ? root.querySelector(`label[for="${element.id}"]`) : null;
  return (label ?? element).textContent?.trim() ?? '';
}

/** The one element with this role and accessible name in `root`; throws otherwise. */
export function getByRole<T extends HTMLElement = HTMLElement>(root: ParentNode, role: string, name: string): T {
  const selector = roleSelectors[role] ?? `[role=${role}]`;
  const matches = [...root.querySelectorAll<T>(selector)].filter((el) => accessibleName(el) === name);
  if (matches.length !== 1) throw new Error(`expected one ${role} named "${name}", found ${matches.length}`);
  return matches[0] as T;
}

/** Every element with this role in `root` (a native element or an explicit role), in document order. */
export function getAllByRole<T extends HTMLElement = HTMLElement>(root: ParentNode, role: string): T[] {
  return [...root.querySelectorAll<T>(roleSelectors[role] ?? `[role=${role}]`)];
}

/**
 * The messages in the conversation log, in display order, each as a screen reader reads it:
 * who said it, then what ("Bot: Hello", "You: Hi (sending)"), whitespace collapsed.
 */
export function logTexts(root: ParentNode, name = 'Conversation'): string[] {
  return getAllByRole(getByRole(root, 'log', name), 'listitem').map((item) =>
    item.innerText.replace(/\s+/g, ' ').trim(),
  );
}

/**
 * The accessible name of whatever has focus inside `root`, or "nothing". Tests compare
 * names, not nodes: a failing assertion that prints a live node stalls the runner.
 */
export function focusedName(root: ShadowRoot): string {
  return root.activeElement ? accessibleName(root.activeElement) : 'nothing';
}

/** Waits until the panel's open animation is over, so checks such as axe's contrast see final colours. */
export async function settled(el: HTMLElement & { updateComplete: Promise<unknown> }): Promise<void> {
  await el.updateComplete;
  const running = el.shadowRoot?.getAnimations().filter((a) => a.effect?.getTiming().iterations !== Infinity) ?? [];
  await Promise.all(running.map((a) => a.finished));
}
