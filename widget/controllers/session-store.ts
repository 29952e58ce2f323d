import type { Session, TranscriptItem } from '../../shared/protocol.ts';

/** A message the user sent that the server has not acked yet; kept so a reload or an outage loses nothing. */
export interface QueuedMessage {
  readonly clientId: string;
  /** The text, or the pressed button's label. */
  readonly text: string;
  /** Present for a pressed button or quick reply. */
  readonly action?:
    { readonly kind: 'postback'; readonly payload: string } | { readonly kind: 'dialog'; readonly dialogId: string };
}

/** What survives a page load: who the user is, and what the widget has shown them. */
export interface StoredSession {
  readonly userId: string;
  readonly token: string;
  readonly lastSeq: number;
  /** The shown transcript, so lastSeq ("highest seq shown") stays true after a reload. */
  readonly items: readonly TranscriptItem[];
  /** Sent but not acked when the page went away; resent (same client ids) on the next connect. */
  readonly queued?: readonly QueuedMessage[];
}

export const STORAGE_PREFIX = 'chat-widget:';

/** Keep the stored transcript small; localStorage is shared with the host page. */
const MAX_STORED_ITEMS = 200;

/** One session per chat server, so two bots on one site never swap tokens. */
export function storageKey(serverUrl: string): string {
  let origin = serverUrl;
  try {
    origin = new URL(serverUrl, location.href).origin;
  } catch {
    // An unparsable URL still gets a stable key of its own.
  }
  return `${STORAGE_PREFIX}session:${origin}`;
}

/** Reads the stored session; anything malformed counts as none (storage is user-editable). */
export function loadSession(storage: Storage | null, key: string): StoredSession | null {
  try {
    const raw = storage?.getItem(key);
    if (!raw) return null;
    const value: unknown = JSON.parse(raw);
    if (!isStoredSession(value)) return null;
    return value;
  } catch {
    return null;
  }
}

export function saveSession(
  storage: Storage | null,
  key: string,
  session: Session,
  lastSeq: number,
  items: readonly TranscriptItem[],
  queued: readonly QueuedMessage[] = [],
): void {
  const stored: StoredSession = {
    userId: session.userId,
    token: session.token,
    lastSeq,
    items: items.slice(-MAX_STORED_ITEMS),
    ...(queued.length > 0 ? { queued } : {}),
  };
  try {
    storage?.setItem(key, JSON.stringify(stored));
  } catch {
    // Quota or privacy mode: the chat still works, it just starts fresh next time.
  }
}

export function forgetSession(storage: Storage | null, key: string): void {
  try {
    storage?.removeItem(key);
  } catch {
    // Nothing stored that we could reach, so nothing to forget.
  }
}

function isStoredSession(value: unknown): value is StoredSession {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.userId === 'string' &&
    typeof v.token === 'string' &&
    typeof v.lastSeq === 'number' &&
    Array.isArray(v.items) &&
    v.items.every(isItem) &&
    (v.queued === undefined || (Array.isArray(v.queued) && v.queued.every(isQueued)))
  );
}

const MESSAGE_TYPES = new Set(['text', 'image', 'carousel', 'notice', 'postback', 'dialog']);

/** Shape only; the renderer treats every string as untrusted text anyway. */
function isItem(value: unknown): value is TranscriptItem {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  const message = v.message as Record<string, unknown> | null | undefined;
  return (
    typeof v.seq === 'number' &&
    (v.from === 'user' || v.from === 'bot') &&
    typeof message === 'object' &&
    message !== null &&
    typeof message.type === 'string' &&
    MESSAGE_TYPES.has(message.type)
  );
}

function isQueued(value: unknown): value is QueuedMessage {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.clientId === 'string' && typeof v.text === 'string';
}

/** The storage to use, or null where the page forbids it (sandboxed iframes throw on access). */
export function defaultStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}
