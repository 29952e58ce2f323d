import type { Logger } from '../../ports/logger.ts';

/**
 * The code a widget receives, as `connect_error` `data.code`, when the page it runs on
 * may not open the chat. Not a ProtocolErrorCode: it is decided before any protocol
 * is spoken, and only the widget's connection controller needs to know it.
 */
export const ORIGIN_NOT_ALLOWED = 'origin_not_allowed';

/** The setting an operator changes to let a refused page in; named in the log and the refusal. */
export const ORIGINS_SETTING = 'ALLOWED_ORIGINS';

/** What the widget receives with a refused origin: a developer's sentence, never shown to visitors as is. */
export interface OriginRefusal {
  readonly code: typeof ORIGIN_NOT_ALLOWED;
  readonly message: string;
  readonly origin: string;
  readonly setting: typeof ORIGINS_SETTING;
}

export interface OriginPolicyOptions {
  /** ALLOWED_ORIGINS as normalised origins; undefined = any origin may open the widget. */
  readonly allowed: readonly string[] | undefined;
  /** Origins that are always allowed: the server's own address and PUBLIC_URL's (known only once listening). */
  readonly own: () => readonly string[];
  readonly logger: Logger;
}

/** Origins remembered for "log once": a flood of made-up origins must not grow memory without bound. */
const REMEMBERED = 1000;

/**
 * Decides whether a page may open the widget's socket. Unset ALLOWED_ORIGINS lets any
 * origin in: the session token, not the origin, protects a conversation. Set, only the
 * listed origins, the server's own and PUBLIC_URL's pass. A request without an Origin
 * header is not a browser page and passes (an origin check protects visitors' browsers,
 * nothing else). Returns null when allowed, else the refusal to send.
 */
export function originPolicy(
  options: OriginPolicyOptions,
): (origin: string | undefined, host: string | undefined) => OriginRefusal | null {
  const logged = new Set<string>();
  return (origin, host) => {
    if (origin === undefined || options.allowed === undefined) return null;
    const normalised = normalise(origin);
    if (normalised !== undefined) {
      // Same host as the request: the bot's own page, whichever name or address it was opened by.
      if (host !== undefined && new URL(normalised).host === host.toLowerCase()) return null;
      if (options.allowed.includes(normalised) || options.own().includes(normalised)) return null;
    }
    // A header anyone can send: bounded before it reaches a log line or the answer.
    const shown = origin.slice(0, 256);
    if (!logged.has(shown)) {
      if (logged.size >= REMEMBERED) logged.delete(logged.values().next().value as string);
      logged.add(shown);
      options.logger.warn(
        { event: 'origin_refused', origin: shown, setting: ORIGINS_SETTING },
        `a page on ${shown} tried to open the chat and was refused: add the origin to ${ORIGINS_SETTING} to allow it (logged once per origin)`,
      );
    } else {
      options.logger.debug?.(
        { event: 'origin_refused', origin: shown, setting: ORIGINS_SETTING, repeated: true },
        `a page on ${shown} was refused again`,
      );
    }
    return {
      code: ORIGIN_NOT_ALLOWED,
      message: `This page's origin (${shown}) may not open this chat: add it to ${ORIGINS_SETTING} on the chat server.`,
      origin: shown,
      setting: ORIGINS_SETTING,
    };
  };
}

function normalise(origin: string): string | undefined {
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}
