import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { MAX_TEXT_BYTES } from '../../shared/protocol.ts';
import type {
  BotEvent,
  BotMessage,
  BotProfile,
  ClientToServerEvents,
  HandshakeAuth,
  ProtocolError,
  QuickReply,
  Session,
  TranscriptItem,
  UserMessage,
} from '../../shared/protocol.ts';
import type {
  ClientPayload,
  ConnectFailure,
  MessageAckResponse,
  Transport,
  TransportFactory,
} from '../transport/transport.ts';
import {
  defaultStorage,
  forgetSession,
  loadSession,
  saveSession,
  storageKey,
  type QueuedMessage,
} from './session-store.ts';

/** How long to wait before resending a message the server refused as rate limited. */
const RATE_LIMIT_RETRY_MS = 3000;

/** One line of the conversation as the element draws it. */
export interface ShownMessage {
  /** Unique within the list, for keyed rendering. */
  readonly key: string;
  readonly from: 'user' | 'bot';
  readonly message: BotMessage | UserMessage;
  /** When the server stored it; null while it is on its way. */
  readonly at: string | null;
  /** Sent but not yet stored by the server. */
  readonly pending: boolean;
  /** Why the server refused this message, if it did. */
  readonly error: ProtocolError | null;
}

interface PendingMessage extends QueuedMessage {
  error: ProtocolError | null;
}

/** A page command (event, user data, start dialog) waiting for a live link. */
interface PageCommand {
  readonly event: 'page_event' | 'set_user_data' | 'start_dialog';
  readonly payload: unknown;
  readonly settle: (result: CommandResult) => void;
}

export type CommandResult = { readonly ok: true } | { readonly ok: false; readonly error: ProtocolError };

/** A problem the visitor is told about (in a sentence of their language, never this code): a protocol error, or the server refusing this page's origin. */
export interface WidgetProblem {
  readonly code: ProtocolError['code'] | 'origin_refused';
  readonly message: string;
}

/**
 * The link as the panel describes it: `connecting` until the first connect, `online`,
 * `reconnecting` after a drop, `stopped` once the server refused for good (the problem says why).
 */
export type LinkState = 'connecting' | 'online' | 'reconnecting' | 'stopped';

/**
 * Verified identity from the host page: `userHash = HMAC-SHA256(BOT_IDENTITY_SECRET, userId)`, or
 * with a phone number the site verified, over `userId + "\n" + phone`.
 */
export interface Identity {
  readonly userId: string;
  readonly userHash: string;
  readonly phone?: string;
}

export interface ConnectionOptions {
  /** Defaults to window.localStorage; null keeps nothing between page loads. */
  readonly storage?: Storage | null;
  /** Called for every event the bot sends to the page. */
  readonly onBotEvent?: (event: BotEvent) => void;
}

/**
 * Owns the link to the chat server and the transcript the element shows:
 * entries ordered and deduplicated by seq, the user's own messages shown at once
 * and swapped for the stored entry when it arrives, unacked messages kept (also
 * across reloads) and resent with the same client id on every connect, and the
 * session kept so the server can resume the conversation where the widget left it.
 */
export class ConnectionController implements ReactiveController {
  /** Stored entries, ascending by seq, one per seq. */
  items: readonly TranscriptItem[] = [];
  typing = false;
  connected = false;
  link: LinkState = 'connecting';
  /** The last problem the visitor should know of, for the element to show by its code; the details go to the console. */
  error: WidgetProblem | null = null;
  /** The stored session had expired, so this is a new conversation; until the user writes again. */
  restarted = false;
  /** Sent along in the handshake; set before connect() to take effect at once. */
  user: Readonly<Record<string, unknown>> | undefined = undefined;
  locale: string | undefined = undefined;
  identity: Identity | undefined = undefined;
  onBotEvent: ((event: BotEvent) => void) | undefined;
  /** The bot's name and avatar as its definition gives them, from the last handshake. */
  bot: BotProfile | null = null;

  #pending: PendingMessage[] = [];
  #commands: PageCommand[] = [];
  #session: Session | null = null;
  /** Highest seq delivered by `entries`; acks alone never raise it, so replays cannot skip a bot line. */
  #lastSeq = 0;
  #shown = false;
  #transport: Transport | null = null;
  #serverUrl = '';
  #factory: TransportFactory | null = null;
  #key = '';
  readonly #storage: Storage | null;
  #retriedWithoutSession = false;
  /** Page commands sent and not yet answered: a protocol_error meanwhile is their echo, answered through the ack. */
  #commandsInFlight = 0;

  readonly #host: ReactiveControllerHost;

  constructor(host: ReactiveControllerHost, options: ConnectionOptions = {}) {
    this.#host = host;
    this.#storage = options.storage === undefined ? defaultStorage() : options.storage;
    this.onBotEvent = options.onBotEvent;
    host.addController(this);
  }

  /** The conversation in display order: stored entries, then messages still on their way. */
  get messages(): readonly ShownMessage[] {
    const stored = this.items.map((item): ShownMessage => ({
      key: `s${item.seq}`,
      from: item.from,
      message: item.message,
      at: item.at,
      pending: false,
      error: null,
    }));
    const waiting = this.#pending.map((p): ShownMessage => ({
      key: `p${p.clientId}`,
      from: 'user',
      message: userMessageOf(p),
      at: null,
      pending: p.error === null,
      error: p.error,
    }));
    return [...stored, ...waiting];
  }

  /** Quick replies of the latest bot message, until the user answers it. */
  get quickReplies(): readonly QuickReply[] {
    if (this.#pending.length > 0) return [];
    const last = this.items.at(-1);
    if (!last || last.from !== 'bot') return [];
    const message = last.message as BotMessage;
    return message.type === 'text' ? (message.quickReplies ?? []) : [];
  }

  /** The conversation ended in an error: the latest bot message is a fatal notice. */
  get fatal(): boolean {
    const lastBot = this.items.findLast((item) => item.from === 'bot');
    return lastBot?.message.type === 'notice' && lastBot.message.level === 'fatal';
  }

  /** Points the controller at a server; reconnects when the URL or transport changes. */
  connect(serverUrl: string, factory: TransportFactory): void {
    if (serverUrl === this.#serverUrl && factory === this.#factory && this.#transport) return;
    this.#close();
    this.#serverUrl = serverUrl;
    this.#factory = factory;
    this.#open();
  }

  hostConnected(): void {
    if (!this.#transport) this.#open();
  }

  hostDisconnected(): void {
    this.#close();
  }

  /**
   * Sends user text. Returns false (and sends nothing) when it is blank or too long,
   * so the element can keep what the user typed. Offline, it waits in the queue.
   */
  send(text: string): boolean {
    const trimmed = text.trim();
    if (!trimmed || !this.#serverUrl) return false;
    if (new TextEncoder().encode(trimmed).length > MAX_TEXT_BYTES) {
      this.#setError({ code: 'text_too_long', message: `The message is longer than ${MAX_TEXT_BYTES} bytes.` });
      return false;
    }
    this.restarted = false;
    if (this.error?.code !== 'origin_refused') this.error = null;
    this.#enqueue({ clientId: newClientId(), text: trimmed, error: null });
    return true;
  }

  /** The user pressed a postback or start-dialog button, or a quick reply. */
  press(label: string, action: NonNullable<QueuedMessage['action']>): void {
    if (!this.#serverUrl) return;
    this.restarted = false;
    this.#enqueue({ clientId: newClientId(), text: label, action, error: null });
  }

  /** Page commands; they wait for a live link and settle with the server's answer. */
  pageEvent(name: string, payload?: Readonly<Record<string, unknown>>): Promise<CommandResult> {
    return this.#command('page_event', { name, ...(payload ? { payload } : {}) });
  }

  setUserData(fields: Readonly<Record<string, unknown>>): Promise<CommandResult> {
    return this.#command('set_user_data', { fields });
  }

  startDialog(dialogId: string, data?: Readonly<Record<string, unknown>>): Promise<CommandResult> {
    return this.#command('start_dialog', { dialogId, ...(data ? { data } : {}) });
  }

  /** Forgets the user on this device: session, transcript and queue; the next connect is a new user. */
  forget(): void {
    this.#close();
    this.link = 'stopped';
    forgetSession(this.#storage, this.#key || storageKey(this.#serverUrl));
    this.items = [];
    this.#pending = [];
    this.#session = null;
    this.#lastSeq = 0;
    this.error = null;
    this.restarted = false;
    for (const c of this.#commands.splice(0))
      c.settle({ ok: false, error: { code: 'not_allowed', message: 'The chat was shut down.' } });
    this.#host.requestUpdate();
  }

  /** Reconnects after forget(), as a new user. */
  reopen(): void {
    if (!this.#transport) this.#open();
  }

  #enqueue(message: PendingMessage): void {
    this.#pending.push(message);
    this.#persist();
    if (this.connected) this.#emit(message);
    this.#host.requestUpdate();
  }

  #command<E extends PageCommand['event']>(event: E, payload: ClientPayload<E>): Promise<CommandResult> {
    return new Promise((settle) => {
      const command: PageCommand = { event, payload, settle };
      if (this.connected) this.#emitCommand(command);
      else this.#commands.push(command);
    });
  }

  #emitCommand(command: PageCommand): void {
    const emit = this.#transport?.emit.bind(this.#transport) as
      | ((e: keyof ClientToServerEvents, p: unknown, a: (r: { ok: boolean; error?: ProtocolError }) => void) => void)
      | undefined;
    if (!emit) return;
    this.#commandsInFlight += 1;
    emit(command.event, command.payload, (response) => {
      this.#commandsInFlight -= 1;
      if (response.ok) return command.settle({ ok: true });
      const error = response.error ?? { code: 'internal', message: 'Failed.' };
      // The page's mistake (a dialog id with a typo, an invalid event) is for its developer, never the visitor.
      console.warn(
        `[chat-widget] ${command.event} ${JSON.stringify(command.payload)}: ${error.code}: ${error.message}`,
      );
      command.settle({ ok: false, error });
    });
  }

  #open(): void {
    if (!this.#serverUrl || !this.#factory) return;
    this.#key = storageKey(this.#serverUrl);
    const stored = loadSession(this.#storage, this.#key);
    this.#session = stored ? { userId: stored.userId, token: stored.token } : null;
    this.#lastSeq = stored?.lastSeq ?? 0;
    this.items = stored?.items ?? [];
    this.link = 'connecting';
    const known = new Set(this.#pending.map((p) => p.clientId));
    for (const q of stored?.queued ?? []) if (!known.has(q.clientId)) this.#pending.push({ ...q, error: null });

    const transport = this.#factory(this.#serverUrl);
    this.#transport = transport;
    transport.on('connect', () => {
      this.connected = true;
      this.link = 'online';
      this.error = null;
      this.#commandsInFlight = 0;
      // This session was accepted: should the server refuse it later, starting over is allowed again.
      this.#retriedWithoutSession = false;
      // Anything not acked may have died with the old link; the server dedupes by clientId.
      for (const message of this.#pending) if (!message.error) this.#emit(message);
      for (const command of this.#commands.splice(0)) this.#emitCommand(command);
      if (this.#shown) this.#sayShown();
      this.#host.requestUpdate();
    });
    transport.on('disconnect', () => {
      this.connected = false;
      this.link = 'reconnecting';
      this.typing = false;
      this.#host.requestUpdate();
    });
    transport.on('connect_error', (failure, willRetry) => this.#onConnectError(failure, willRetry));
    transport.on('session', (session) => this.#onSession(session));
    transport.on('entries', (items) => this.#onEntries(items));
    transport.on('typing', (on) => {
      this.typing = on;
      this.#host.requestUpdate();
    });
    transport.on('bot_event', (event) => this.onBotEvent?.(event));
    transport.on('protocol_error', (error) => this.#onProtocolError(error));
    transport.connect(() => this.#auth());
    this.#host.requestUpdate();
  }

  #close(): void {
    this.#transport?.disconnect();
    this.#transport = null;
    this.connected = false;
    this.typing = false;
  }

  #auth(): HandshakeAuth {
    const resume = this.#session && (!this.identity || this.identity.userId === this.#session.userId);
    return {
      ...(this.#session && resume
        ? { userId: this.#session.userId, token: this.#session.token, lastSeq: this.#lastSeq }
        : {}),
      // An identity with a phone number goes along even when the session resumes: the server links it
      // once that number's channel user is known, which may be after this session began.
      ...(this.identity && (!resume || this.identity.phone !== undefined)
        ? {
            identity: {
              userId: this.identity.userId,
              userHash: this.identity.userHash,
              ...(this.identity.phone ? { phone: this.identity.phone } : {}),
            },
          }
        : {}),
      ...(this.user ? { user: this.user } : {}),
      ...(this.locale ? { locale: this.locale } : {}),
      // A page view alone stores no one: the server waits for the panel to open or a first message.
      deferStart: true,
    };
  }

  /** The panel was shown: a visitor the server holds back (deferStart) is stored and greeted now. */
  shown(): void {
    if (this.#shown) return;
    this.#shown = true;
    if (this.connected) this.#sayShown();
  }

  #sayShown(): void {
    this.#transport?.emit('open', {}, () => {});
  }

  #emit(message: PendingMessage): void {
    const ack = (response: MessageAckResponse) => this.#onAck(message, response);
    if (message.action) {
      this.#transport?.emit('press', { clientId: message.clientId, label: message.text, action: message.action }, ack);
    } else {
      this.#transport?.emit('message', { clientId: message.clientId, text: message.text }, ack);
    }
  }

  #onAck(message: PendingMessage, response: MessageAckResponse): void {
    if (!this.#pending.includes(message)) return; // Its entry already arrived, or a resend acked twice.
    if (!response.ok && response.error.code === 'rate_limited') {
      // Not the user's fault and not final: try the same message (same client id) again shortly.
      this.#setError(response.error);
      setTimeout(() => {
        if (this.#pending.includes(message) && this.connected) this.#emit(message);
      }, RATE_LIMIT_RETRY_MS);
      return;
    }
    if (!response.ok) {
      message.error = response.error;
      this.#persist();
      this.#setError(response.error);
      return;
    }
    if (this.error?.code === 'rate_limited') this.error = null;
    // The server may or may not echo the user's own entry; the ack alone is enough to show it as stored.
    this.#pending = this.#pending.filter((p) => p !== message);
    const item: TranscriptItem = {
      seq: response.value.seq,
      from: 'user',
      at: new Date().toISOString(),
      clientId: message.clientId,
      message: userMessageOf(message),
    };
    this.#merge([item]);
  }

  #onSession(session: Session): void {
    if (this.#session && this.#session.userId !== session.userId) {
      // A different user: the old transcript is not theirs to see.
      this.items = [];
      this.#lastSeq = 0;
    }
    // Only what resumes the user is kept on the device; the bot's profile comes with every connect.
    this.#session = { userId: session.userId, token: session.token };
    this.bot = session.bot ?? null;
    this.#persist();
    this.#host.requestUpdate();
  }

  #onEntries(items: readonly TranscriptItem[]): void {
    for (const item of items) if (item.seq > this.#lastSeq) this.#lastSeq = item.seq;
    const clientIds = new Set(items.map((item) => item.clientId).filter((id) => id !== null));
    this.#pending = this.#pending.filter((p) => !clientIds.has(p.clientId));
    this.#merge(items);
  }

  /** Adds entries by seq; the server's copy wins over one built from an ack. */
  #merge(incoming: readonly TranscriptItem[]): void {
    const bySeq = new Map(this.items.map((item) => [item.seq, item]));
    for (const item of incoming) bySeq.set(item.seq, item);
    this.items = [...bySeq.values()].sort((a, b) => a.seq - b.seq);
    this.#persist();
    this.#host.requestUpdate();
  }

  #onConnectError(failure: ConnectFailure, willRetry: boolean): void {
    if (failure.originRefused) {
      // Retrying cannot help until the operator changes a setting, so stop knocking.
      console.error(
        `[chat-widget] ${this.#serverUrl} refused this page: its ALLOWED_ORIGINS must include ${location.origin} (${failure.message})`,
      );
      this.#close();
      this.link = 'stopped';
      this.error = { code: 'origin_refused', message: failure.message };
      this.#host.requestUpdate();
      return;
    }
    if (willRetry) {
      // The link is down and socket.io keeps trying: still connecting, or reconnecting after a drop.
      console.info(`[chat-widget] ${this.#serverUrl}: ${failure.message}; retrying`);
      if (this.link === 'online') this.link = 'reconnecting';
      this.#host.requestUpdate();
      return;
    }
    this.link = 'stopped';
    if (failure.code === 'session_expired' && this.#session) {
      // Expected after SESSION_TTL without a visit: not an error for the visitor. With a verified
      // identity the same conversation resumes; without one, a new conversation starts.
      console.info(
        `[chat-widget] the stored session has expired (${failure.message}); ${this.identity ? 'resuming with the verified identity' : 'starting a new one'}.`,
      );
      this.restarted = !this.identity;
      this.#startOver();
      return;
    }
    this.#setError({ code: failure.code ?? 'internal', message: failure.message });
    // Only a refusal of the credentials themselves costs the stored conversation; a handshake refused
    // for the page's data (invalid_payload) or settings (not_allowed) would fail the same way as a new user.
    if (failure.code !== 'unauthorized' || !this.#session || this.#retriedWithoutSession) return;
    // The server refused our stored credentials (from another deployment, or tampered with):
    // start over as a new user once, rather than stay silent forever.
    this.#retriedWithoutSession = true;
    this.#startOver();
  }

  /** Forgets the stored session and connects again without it. */
  #startOver(): void {
    forgetSession(this.#storage, this.#key);
    this.#close();
    this.#open();
  }

  /**
   * The server sends every refusal also as an event, for clients without acks. While a page
   * command or a message awaits its ack, the ack answers it (to the page, or on the bubble);
   * anything else (the chat failed to start) is the visitor's to know.
   */
  #onProtocolError(error: ProtocolError): void {
    const awaited = this.#commandsInFlight > 0 || this.#pending.some((p) => !p.error);
    if (!awaited) this.#setError(error);
  }

  #setError(error: WidgetProblem): void {
    // The visitor reads a short localised sentence for the code; the details are for the developer.
    console.warn(`[chat-widget] ${error.code}: ${error.message}`);
    this.error = error;
    this.#host.requestUpdate();
  }

  #persist(): void {
    if (!this.#session) return;
    const queued = this.#pending
      .filter((p) => !p.error)
      .map(({ clientId, text, action }): QueuedMessage => ({ clientId, text, ...(action ? { action } : {}) }));
    saveSession(this.#storage, this.#key, this.#session, this.#lastSeq, this.items, queued);
  }
}

function userMessageOf(message: QueuedMessage): UserMessage {
  if (!message.action) return { type: 'text', text: message.text };
  return message.action.kind === 'postback'
    ? { type: 'postback', label: message.text, payload: message.action.payload }
    : { type: 'dialog', label: message.text, dialogId: message.action.dialogId };
}

/** A fresh client id; crypto.randomUUID needs a secure context, which host pages may not be. */
export function newClientId(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}-${Math.random().toString(36).slice(2)}`;
}
