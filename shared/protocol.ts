/**
 * The web chat socket protocol: what the widget and the server say to each
 * other over socket.io. Declared once as typed event maps; the server
 * validates every incoming payload with `protocol-schemas.ts`. This file holds
 * types and constants only, so the widget can import it at no size cost.
 */

/** Largest user text accepted, in UTF-8 bytes. */
export const MAX_TEXT_BYTES = 4096;

/** Socket.io path; the default, named so both sides agree by construction. */
export const SOCKET_PATH = '/socket.io';

/** What a button does when pressed. URL buttons carry the tracked link (`{base}/r/{token}`), never the raw target. */
export type Button =
  | { readonly kind: 'postback'; readonly label: string; readonly payload: string }
  | { readonly kind: 'url'; readonly label: string; readonly url: string }
  | { readonly kind: 'dialog'; readonly label: string; readonly dialogId: string };

/** A one-tap answer shown under the latest message; gone once the user answers. */
export interface QuickReply {
  readonly label: string;
  readonly payload: string;
}

export interface Card {
  readonly title: string;
  readonly subtitle?: string;
  readonly imageUrl?: string;
  readonly imageAlt?: string;
  readonly buttons?: readonly Button[];
}

/**
 * A message the bot shows. `text` is a safe markdown subset: **bold**, *italic*,
 * `code`, [links](https://…) and line breaks; never HTML.
 */
export type BotMessage =
  | {
      readonly type: 'text';
      readonly text: string;
      readonly buttons?: readonly Button[];
      readonly quickReplies?: readonly QuickReply[];
    }
  | { readonly type: 'image'; readonly url: string; readonly alt: string }
  | { readonly type: 'carousel'; readonly cards: readonly Card[] }
  /** `fatal`: the conversation has ended in an error; the widget disables input. */
  | { readonly type: 'notice'; readonly level: 'fatal' | 'info'; readonly text: string };

/** A message the user sent: typed text, or a pressed button / quick reply (shown as its label). */
export type UserMessage =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'postback'; readonly label: string; readonly payload: string }
  | { readonly type: 'dialog'; readonly label: string; readonly dialogId: string };

/** One transcript entry as the widget sees it. `seq` orders and deduplicates. */
export interface TranscriptItem {
  readonly seq: number;
  readonly from: 'user' | 'bot';
  /** ISO 8601 time the server stored the entry. */
  readonly at: string;
  readonly clientId: string | null;
  readonly message: BotMessage | UserMessage;
}

/** Sent by the widget in the socket.io handshake (`auth`). */
export interface HandshakeAuth {
  /** The id and token the server issued earlier; both or neither. */
  readonly userId?: string;
  readonly token?: string;
  /** Highest seq the widget has shown; the server replays what follows. */
  readonly lastSeq?: number;
  /** What the page knows about the user (e.g. email, page); saved before the first dialog runs. */
  readonly user?: Readonly<Record<string, unknown>>;
  readonly locale?: string;
  /**
   * Optional identity verification: the host page's own user id with
   * `userHash = HMAC-SHA256(BOT_IDENTITY_SECRET, userId)` (hex), so the same user
   * resumes on another device. Takes precedence over userId/token. `phone`: a number the site
   * verified (E.164, `+4915112345678`), signed with the id as `HMAC-SHA256(secret, userId + "\n" + phone)`;
   * with BOT_IDENTITY_LINK_PHONE it links the web chat to that number's WhatsApp user (docs/channels.md).
   */
  readonly identity?: { readonly userId: string; readonly userHash: string; readonly phone?: string };
  /**
   * true: a visitor the server does not know yet is not stored (no user, no start dialog)
   * until the chat is opened (the `open` event) or the widget sends anything else; a page
   * view alone stores nothing. The session (id and token) is issued at once either way.
   */
  readonly deferStart?: boolean;
}

export interface SendTextPayload {
  /** The widget's id for this message; resending the same id never stores it twice. */
  readonly clientId: string;
  readonly text: string;
}

/** A pressed postback button, quick reply or start-a-dialog button. */
export interface PressPayload {
  readonly clientId: string;
  readonly label: string;
  readonly action:
    { readonly kind: 'postback'; readonly payload: string } | { readonly kind: 'dialog'; readonly dialogId: string };
}

/** An event from the host page (a click, a filled field): the bot definition decides what it does. */
export interface PageEventPayload {
  readonly name: string;
  readonly payload?: Readonly<Record<string, unknown>>;
}

/** The page saves what it knows about the user (`ChatWidget('setUserData', …)`). */
export interface SetUserDataPayload {
  readonly fields: Readonly<Record<string, unknown>>;
}

/** The page starts a dialog (`ChatWidget('startDialog', id, data)`); `data` becomes the variable `pageData`. */
export interface StartDialogPayload {
  readonly dialogId: string;
  readonly data?: Readonly<Record<string, unknown>>;
}

/** An event the bot sends to the page: the widget calls the listeners the page registered with `on(name, …)`. */
export interface BotEvent {
  readonly name: string;
  readonly payload: Readonly<Record<string, unknown>>;
}

export type Ack<T> = (
  response: { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: ProtocolError },
) => void;

export const PROTOCOL_ERROR_CODES = [
  'invalid_payload',
  'text_too_long',
  'unknown_dialog',
  'not_allowed',
  'unauthorized',
  /** The stored session token is past its lifetime: start a new session, or resume with a verified identity. */
  'session_expired',
  'rate_limited',
  'internal',
] as const;
export type ProtocolErrorCode = (typeof PROTOCOL_ERROR_CODES)[number];

export interface ProtocolError {
  readonly code: ProtocolErrorCode;
  readonly message: string;
}

/**
 * Issued on every connect: the widget keeps both to resume the same user later.
 * The token expires (SESSION_TTL after issue), so each connect brings a fresh one.
 */
export interface Session {
  readonly userId: string;
  readonly token: string;
  /** Who the widget shows in its header unless the page sets its own title and avatar. */
  readonly bot?: BotProfile;
}

/** The bot as the definition names it (settings.name, settings.avatarUrl). */
export interface BotProfile {
  readonly name: string;
  readonly avatarUrl?: string;
}

export interface ClientToServerEvents {
  /** The user sent text. Acked with the stored entry's seq once it is stored. */
  message: (payload: SendTextPayload, ack: Ack<{ readonly seq: number; readonly duplicate: boolean }>) => void;
  /** The user pressed a button or quick reply. Acked like a message. */
  press: (payload: PressPayload, ack: Ack<{ readonly seq: number; readonly duplicate: boolean }>) => void;
  page_event: (payload: PageEventPayload, ack: Ack<null>) => void;
  set_user_data: (payload: SetUserDataPayload, ack: Ack<null>) => void;
  start_dialog: (payload: StartDialogPayload, ack: Ack<null>) => void;
  /** The visitor opened the chat: with `deferStart`, the user is stored and the start dialog runs now. Payload `{}`. */
  open: (payload: Readonly<Record<string, never>>, ack: Ack<null>) => void;
}

export interface ServerToClientEvents {
  session: (session: Session) => void;
  /** Transcript entries, in seq order; replays after a reconnect come the same way. */
  entries: (items: readonly TranscriptItem[]) => void;
  /** The bot is working on an answer (true) or done (false). */
  typing: (on: boolean) => void;
  /** Runs the page's listeners for this event; not part of the transcript, so never replayed. */
  bot_event: (event: BotEvent) => void;
  /** A payload failed validation or could not be handled; the connection stays up. */
  protocol_error: (error: ProtocolError) => void;
}
