import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { TRUST_LOOPBACK, type ProxyTrust } from '../settings/client-ip.ts';
import { isLoopbackHost } from './metrics-access.ts';

/** A host as a URL may carry it: a name or an address, with an optional port. Anything else is not believed. */
const HOST =
  /^(?:[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?)*|\[[0-9a-f:.]{2,45}\])(?::\d{1,5})?$/;
/** The addresses a server listens on to mean "every interface": never a place to send anyone. */
const UNSPECIFIED = /^(?:0\.0\.0\.0|\[::\]|\[0:0:0:0:0:0:0:0\])(?::\d+)?$/;

/** The first value of a header that may be repeated or a comma list (each proxy appends; the first is the client's). */
function first(value: string | string[] | undefined): string | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  return text?.split(',')[0]?.trim().toLowerCase() || undefined;
}

/**
 * The origin a client reached the server by, as it named it: from a TCP peer TRUST_PROXY
 * believes, X-Forwarded-Host (else Host, which proxies such as docs/reverse-proxy/nginx.conf
 * pass on) and X-Forwarded-Proto; from any other peer the Host header, https when the
 * connection itself is TLS. `proxied` says a trusted proxy forwarded the request. Undefined when
 * the host is missing, malformed or the "every interface" address. Whoever sent the request
 * chose the name (a proxy passes the visitor's): it only ever shapes that visitor's own links.
 */
export function publicOrigin(
  req: IncomingMessage,
  trust: ProxyTrust = TRUST_LOOPBACK,
): { readonly origin: string; readonly proxied: boolean } | undefined {
  const peer = req.socket.remoteAddress ?? '';
  const fromProxy = trust(peer, 0);
  const forwardedHost = fromProxy ? first(req.headers['x-forwarded-host']) : undefined;
  const forwardedProto = fromProxy ? first(req.headers['x-forwarded-proto']) : undefined;
  const host = forwardedHost ?? first(req.headers.host);
  if (host === undefined || !HOST.test(host) || UNSPECIFIED.test(host)) return undefined;
  const tls = (req.socket as Partial<TLSSocket>).encrypted === true;
  const scheme = forwardedProto === 'https' || forwardedProto === 'http' ? forwardedProto : tls ? 'https' : 'http';
  return { origin: `${scheme}://${host}`, proxied: forwardedHost !== undefined || forwardedProto !== undefined };
}

/** Users whose origin is remembered; past it the memory starts over (links then use the fallback until they reconnect). */
const MAX_USERS = 100_000;

export interface PublicBasesOptions {
  /** PUBLIC_URL: when set, every link uses it and nothing is learned. */
  readonly configured: string | undefined;
  /** What links use when nothing better is known: the listen address, never the "every interface" one. */
  readonly fallback: () => string;
  /**
   * Called once, for the first visitor a trusted proxy forwards while PUBLIC_URL is unset: the
   * public name is known for connected visitors only, and an operator should hear so.
   */
  readonly onProxied?: (origin: string) => void;
}

/**
 * The base of the links the bot sends (URL buttons' tracked links, links in SMS), built from
 * the public name rather than the listen address. PUBLIC_URL wins. Without it: the origin the
 * user's widget connected by, remembered per user (a name a visitor sent shapes only that
 * visitor's own links, never another user's); for a user who never connected to this process
 * (a trigger or timer for someone away, a REST channel user), the fallback, about which
 * start-up (linkBaseWarning) or the first proxied visit (onProxied) warns.
 */
export class PublicBases {
  private readonly byUser = new Map<string, string>();
  private warned = false;

  constructor(private readonly options: PublicBasesOptions) {}

  /** A user connected by `seen` (publicOrigin of their handshake). */
  remember(userId: string, seen: { readonly origin: string; readonly proxied: boolean } | undefined): void {
    if (this.options.configured !== undefined || seen === undefined) return;
    if (this.byUser.size >= MAX_USERS) this.byUser.clear();
    this.byUser.set(userId, seen.origin);
    if (seen.proxied && !this.warned) {
      this.warned = true;
      this.options.onProxied?.(seen.origin);
    }
  }

  /** The base for links sent to `userId`, without a trailing slash. */
  baseFor(userId: string): string {
    const base = this.options.configured ?? this.byUser.get(userId) ?? this.options.fallback();
    return base.replace(/\/+$/, '');
  }
}

/**
 * Start-up's warning when links may point where users cannot follow: PUBLIC_URL unset while the
 * server listens beyond this machine (HOST not loopback), so the public name is known only from
 * connections. Undefined when there is nothing to say.
 */
export function linkBaseWarning(settings: {
  readonly publicUrl: string | undefined;
  readonly host: string;
  readonly fallback: string;
}): string | undefined {
  if (settings.publicUrl !== undefined || isLoopbackHost(settings.host)) return undefined;
  return (
    `PUBLIC_URL is unset while HOST=${settings.host} accepts connections from other machines: links the bot sends (URL buttons, links in SMS) ` +
    "are built from the address each visitor's widget connected by (X-Forwarded-Host and X-Forwarded-Proto from a proxy TRUST_PROXY believes, else the Host header), " +
    `and where there is none (a trigger or timer for a visitor who has not connected since the server started, a REST channel user) from ${settings.fallback}, which users elsewhere cannot open. ` +
    'Set PUBLIC_URL to the address users reach the bot by, e.g. PUBLIC_URL=https://bot.example.com.'
  );
}

/** The warning for the first visit through a proxy while PUBLIC_URL is unset (see PublicBasesOptions.onProxied). */
export function proxiedWarning(origin: string, fallback: string): string {
  return (
    `Visitors reach this server through a proxy as ${origin}, but PUBLIC_URL is unset: a visitor's links are built from the name their widget connected by, ` +
    `while links for users who have not connected since the server started (triggers, timers, REST channel users) use ${fallback}. ` +
    `Set PUBLIC_URL to the address users reach the bot by (e.g. PUBLIC_URL=${origin}).`
  );
}

/** The listen URL with the "every interface" address swapped for localhost: a link may be wrong, but never to 0.0.0.0. */
export function listenFallback(listenUrl: string): string {
  const url = new URL(listenUrl);
  if (url.hostname === '0.0.0.0' || url.hostname === '[::]' || url.hostname === '[0:0:0:0:0:0:0:0]')
    url.hostname = 'localhost';
  return url.origin;
}
