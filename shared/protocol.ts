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

/** A message the bot shows. Later step kinds add variants to this union. */
export type BotMessage = { readonly type: 'text'; readonly text: string };

/** A message the user sent. */
export type UserMessage = { readonly type: 'text'; readonly text: string };

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
}

export interface SendTextPayload {
  /** The widget's id for this message; resending the same id never stores it twice. */
  readonly clientId: string;
  readonly text: string;
}

export type Ack<T> = (response: { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: ProtocolError }) => void;

export const PROTOCOL_ERROR_CODES = [
  'invalid_payload',
  'text_too_long',
  'unauthorized',
  'rate_limited',
  'internal',
] as const;
export type ProtocolErrorCode = (typeof PROTOCOL_ERROR_CODES)[number];

export interface ProtocolError {
  readonly code: ProtocolErrorCode;
  readonly message: string;
}

/** Issued on connect: the widget keeps both to resume the same user later. */
export interface Session {
  readonly userId: string;
  readonly token: string;
}

export interface ClientToServerEvents {
  /** The user sent text. Acked with the stored entry's seq once it is stored. */
  message: (payload: SendTextPayload, ack: Ack<{ readonly seq: number; readonly duplicate: boolean }>) => void;
}

export interface ServerToClientEvents {
  session: (session: Session) => void;
  /** Transcript entries, in seq order; replays after a reconnect come the same way. */
  entries: (items: readonly TranscriptItem[]) => void;
  /** The bot is working on an answer (true) or done (false). */
  typing: (on: boolean) => void;
  /** A payload failed validation or could not be handled; the connection stays up. */
  protocol_error: (error: ProtocolError) => void;
}
