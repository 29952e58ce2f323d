import type { Session, TranscriptItem } from '../../shared/protocol.ts';

/** What survives a page load: who the user is, and what the widget has shown them. */
export interface StoredSession {
  readonly userId: string;
  readonly token: string;
  readonly lastSeq: number;
  /** The shown transcript, so lastSeq ("highest seq shown") stays true after a reload. */
  readonly items: readonly TranscriptItem[];
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
): void {
  const stored: StoredSession = { userId: session.userId, token: session.token, lastSeq, items: items.slice(-MAX_STORED_ITEMS) };
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
    v.items.every(isItem)
  );
}

function isItem(value: unknown): value is TranscriptItem {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  const message = v.message as Record<string, unknown> | null | undefined;
  return (
    typeof v.seq === 'number' &&
    (v.from === 'user' || v.from === 'bot') &&
    typeof message === 'object' &&
    message !== null &&
    message.type === 'text' &&
    typeof message.text === 'string'
  );
}

/** The storage to use, or null where the page forbids it (sandboxed iframes throw on access). */
export function defaultStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}
