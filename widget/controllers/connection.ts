import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { MAX_TEXT_BYTES } from '../../shared/protocol.ts';
import type { HandshakeAuth, ProtocolError, Session, TranscriptItem } from '../../shared/protocol.ts';
import type { MessageAckResponse, Transport, TransportFactory } from '../transport/transport.ts';
import { defaultStorage, forgetSession, loadSession, saveSession, storageKey } from './session-store.ts';

/** One line of the conversation as the element draws it. */
export interface ShownMessage {
  /** Unique within the list, for keyed rendering. */
  readonly key: string;
  readonly from: 'user' | 'bot';
  readonly text: string;
  /** Sent but not yet stored by the server. */
  readonly pending: boolean;
  /** Why the server refused this message, if it did. */
  readonly error: ProtocolError | null;
}

interface PendingMessage {
  readonly clientId: string;
  readonly text: string;
  error: ProtocolError | null;
}

export interface ConnectionOptions {
  /** Defaults to window.localStorage; null keeps nothing between page loads. */
  readonly storage?: Storage | null;
}

/**
 * Owns the link to the chat server and the transcript the element shows:
 * entries ordered and deduplicated by seq, the user's own messages shown at once
 * and swapped for the stored entry when it arrives, and the session kept across
 * page loads so the server can resume the conversation where the widget left it.
 */
export class ConnectionController implements ReactiveController {
  /** Stored entries, ascending by seq, one per seq. */
  items: readonly TranscriptItem[] = [];
  typing = false;
  connected = false;
  /** The last protocol or connection problem, for the element to show. */
  error: ProtocolError | null = null;
  /** Sent along in the handshake; set before connect() to take effect at once. */
  user: Readonly<Record<string, unknown>> | undefined = undefined;
  locale: string | undefined = undefined;

  private pending: PendingMessage[] = [];
  private session: Session | null = null;
  /** Highest seq delivered by `entries`; acks alone never raise it, so replays cannot skip a bot line. */
  private lastSeq = 0;
  private transport: Transport | null = null;
  private serverUrl = '';
  private factory: TransportFactory | null = null;
  private key = '';
  private readonly storage: Storage | null;
  private retriedWithoutSession = false;

  constructor(
    private readonly host: ReactiveControllerHost,
    options: ConnectionOptions = {},
  ) {
    this.storage = options.storage === undefined ? defaultStorage() : options.storage;
    host.addController(this);
  }

  /** The conversation in display order: stored entries, then messages still on their way. */
  get messages(): readonly ShownMessage[] {
    const stored = this.items.map(
      (item): ShownMessage => ({ key: `s${item.seq}`, from: item.from, text: 'text' in item.message ? item.message.text : 'label' in item.message ? item.message.label : '', pending: false, error: null }),
    );
    const waiting = this.pending.map(
      (p): ShownMessage => ({ key: `p${p.clientId}`, from: 'user', text: p.text, pending: p.error === null, error: p.error }),
    );
    return [...stored, ...waiting];
  }

  /** Points the controller at a server; reconnects when the URL or transport changes. */
  connect(serverUrl: string, factory: TransportFactory): void {
    if (serverUrl === this.serverUrl && factory === this.factory && this.transport) return;
    this.close();
    this.serverUrl = serverUrl;
    this.factory = factory;
    this.open();
  }

  hostConnected(): void {
    if (!this.transport) this.open();
  }

  hostDisconnected(): void {
    this.close();
  }

  /**
   * Sends user text. Returns false (and sends nothing) when it is blank or too long,
   * so the element can keep what the user typed.
   */
  send(text: string): boolean {
    const trimmed = text.trim();
    if (!trimmed || !this.transport) return false;
    if (new TextEncoder().encode(trimmed).length > MAX_TEXT_BYTES) {
      this.setError({ code: 'text_too_long', message: 'That message is too long.' });
      return false;
    }
    const message: PendingMessage = { clientId: newClientId(), text: trimmed, error: null };
    this.pending.push(message);
    this.emit(message);
    this.host.requestUpdate();
    return true;
  }

  private open(): void {
    if (!this.serverUrl || !this.factory) return;
    this.key = storageKey(this.serverUrl);
    const stored = loadSession(this.storage, this.key);
    this.session = stored ? { userId: stored.userId, token: stored.token } : null;
    this.lastSeq = stored?.lastSeq ?? 0;
    this.items = stored?.items ?? [];

    const transport = this.factory(this.serverUrl);
    this.transport = transport;
    transport.on('connect', () => {
      this.connected = true;
      this.error = null;
      // Anything not acked may have died with the old link; the server dedupes by clientId.
      for (const message of this.pending) if (!message.error) this.emit(message);
      this.host.requestUpdate();
    });
    transport.on('disconnect', () => {
      this.connected = false;
      this.typing = false;
      this.host.requestUpdate();
    });
    transport.on('connect_error', (message, willRetry) => this.onConnectError(message, willRetry));
    transport.on('session', (session) => this.onSession(session));
    transport.on('entries', (items) => this.onEntries(items));
    transport.on('typing', (on) => {
      this.typing = on;
      this.host.requestUpdate();
    });
    transport.on('protocol_error', (error) => this.setError(error));
    transport.connect(() => this.auth());
    this.host.requestUpdate();
  }

  private close(): void {
    this.transport?.disconnect();
    this.transport = null;
    this.connected = false;
    this.typing = false;
  }

  private auth(): HandshakeAuth {
    return {
      ...(this.session ? { userId: this.session.userId, token: this.session.token, lastSeq: this.lastSeq } : {}),
      ...(this.user ? { user: this.user } : {}),
      ...(this.locale ? { locale: this.locale } : {}),
    };
  }

  private emit(message: PendingMessage): void {
    this.transport?.sendMessage({ clientId: message.clientId, text: message.text }, (response) =>
      this.onAck(message, response),
    );
  }

  private onAck(message: PendingMessage, response: MessageAckResponse): void {
    if (!this.pending.includes(message)) return; // Its entry already arrived, or a resend acked twice.
    if (!response.ok) {
      message.error = response.error;
      this.host.requestUpdate();
      return;
    }
    // The server may or may not echo the user's own entry; the ack alone is enough to show it as stored.
    this.pending = this.pending.filter((p) => p !== message);
    const item: TranscriptItem = {
      seq: response.value.seq,
      from: 'user',
      at: new Date().toISOString(),
      clientId: message.clientId,
      message: { type: 'text', text: message.text },
    };
    this.merge([item]);
  }

  private onSession(session: Session): void {
    if (this.session && this.session.userId !== session.userId) {
      // A different user: the old transcript is not theirs to see.
      this.items = [];
      this.lastSeq = 0;
    }
    this.session = session;
    this.persist();
    this.host.requestUpdate();
  }

  private onEntries(items: readonly TranscriptItem[]): void {
    for (const item of items) if (item.seq > this.lastSeq) this.lastSeq = item.seq;
    const clientIds = new Set(items.map((item) => item.clientId).filter((id) => id !== null));
    this.pending = this.pending.filter((p) => !clientIds.has(p.clientId));
    this.merge(items);
  }

  /** Adds entries by seq; the server's copy wins over one built from an ack. */
  private merge(incoming: readonly TranscriptItem[]): void {
    const bySeq = new Map(this.items.map((item) => [item.seq, item]));
    for (const item of incoming) bySeq.set(item.seq, item);
    this.items = [...bySeq.values()].sort((a, b) => a.seq - b.seq);
    this.persist();
    this.host.requestUpdate();
  }

  private onConnectError(message: string, willRetry: boolean): void {
    this.setError({ code: message === 'unauthorized' ? 'unauthorized' : 'internal', message });
    if (willRetry || !this.session || this.retriedWithoutSession) return;
    // The server refused our stored credentials (expired or from another deployment):
    // start over as a new user once, rather than stay silent forever.
    this.retriedWithoutSession = true;
    forgetSession(this.storage, this.key);
    this.close();
    this.open();
  }

  private setError(error: ProtocolError): void {
    this.error = error;
    this.host.requestUpdate();
  }

  private persist(): void {
    if (this.session) saveSession(this.storage, this.key, this.session, this.lastSeq, this.items);
  }
}

/** A fresh client id; crypto.randomUUID needs a secure context, which host pages may not be. */
export function newClientId(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}-${Math.random().toString(36).slice(2)}`;
}
