import { lookup as dnsLookup } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { IntegrationError } from './integration-error.ts';

/**
 * Addresses an integration may not reach unless its host is explicitly allowed:
 * loopback, private, link-local (cloud metadata lives there), carrier-grade NAT,
 * multicast and reserved ranges. A BlockList from node:net does the matching.
 */
const internal = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  internal.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const) {
  internal.addSubnet(network, prefix, 'ipv6');
}

/** True for an address that belongs to this machine or a private network. */
export function isInternalAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return internal.check(mapped[1], 'ipv4');
  const family = isIP(address);
  if (family === 4) return internal.check(address, 'ipv4');
  if (family === 6) return internal.check(address, 'ipv6');
  return true; // not an address at all: refuse rather than guess
}

export interface DestinationPolicyOptions {
  /**
   * INTEGRATION_ALLOWED_HOSTS: when given, only these hosts may be called, and
   * they may resolve to private or loopback addresses (that is how the demo
   * reaches its own API). Unset: any public host, no internal ones.
   */
  readonly allowedHosts?: readonly string[];
}

/** Decides which hosts and resolved addresses an outbound call may use. */
export class DestinationPolicy {
  private readonly allowed: ReadonlySet<string> | undefined;

  constructor(options: DestinationPolicyOptions = {}) {
    this.allowed = options.allowedHosts ? new Set(options.allowedHosts.map(normalizeHost)) : undefined;
  }

  /** Checks the host name of a URL before any connection; throws forbidden_destination. */
  checkHost(hostname: string): void {
    const host = normalizeHost(hostname);
    if (this.allowed && !this.allowed.has(host)) {
      throw new IntegrationError(
        'forbidden_destination',
        `The host ${host} is not in INTEGRATION_ALLOWED_HOSTS; add it there to let integrations call it.`,
      );
    }
    if (isIP(host) && !this.internalAllowed(host) && isInternalAddress(host)) throw internalRefused(host);
  }

  /**
   * A `lookup` for node:http that resolves the name, refuses it when any
   * address is internal (unless the host is allowed), and hands the socket the
   * very address it checked, so a second DNS answer cannot slip past (rebinding).
   */
  lookupFor(hostname: string): LookupFunction {
    const host = normalizeHost(hostname);
    return (name, options, callback) => {
      dnsLookup(name, { all: true, family: options.family, hints: options.hints }, (error, addresses) => {
        if (error) return callback(error, '', 4);
        if (!this.internalAllowed(host)) {
          const bad = addresses.find((entry) => isInternalAddress(entry.address));
          if (bad) return callback(internalRefused(host), '', 4);
        }
        const first = addresses[0];
        if (!first) return callback(Object.assign(new Error(`${name} has no address`), { code: 'ENOTFOUND' }), '', 4);
        if (options.all) return callback(null, [first] as never, first.family);
        callback(null, first.address, first.family);
      });
    };
  }

  /**
   * Whether a call to `url` would be refused, found out ahead of time (a start-up check):
   * the refusal, or undefined when it would be let through or the name does not resolve now
   * (a DNS failure may pass; the call itself checks again). Waits at most `timeoutMs` for DNS.
   */
  async refusal(url: string, timeoutMs = 3000): Promise<IntegrationError | undefined> {
    let host: string;
    try {
      host = normalizeHost(new URL(url).hostname);
      this.checkHost(host);
    } catch (error) {
      return error instanceof IntegrationError ? error : undefined;
    }
    if (isIP(host) || this.internalAllowed(host)) return undefined;
    const addresses = await new Promise<readonly string[]>((resolve) => {
      const timer = setTimeout(() => resolve([]), timeoutMs);
      timer.unref();
      dnsLookup(host, { all: true }, (error, found) => {
        clearTimeout(timer);
        resolve(error ? [] : found.map((entry) => entry.address));
      });
    });
    return addresses.some(isInternalAddress) ? internalRefused(host) : undefined;
  }

  private internalAllowed(host: string): boolean {
    return this.allowed?.has(host) ?? false;
  }
}

function internalRefused(host: string): IntegrationError {
  return new IntegrationError(
    'forbidden_destination',
    `The host ${host} points to a private or loopback address, which integrations may not call; list it in INTEGRATION_ALLOWED_HOSTS if it is meant to be reached.`,
  );
}

function normalizeHost(host: string): string {
  return host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');
}

/** Names that always mean this machine or a private network, whatever a resolver says. */
const INTERNAL_NAME = /(^|\.)(localhost|local|internal|localdomain|home\.arpa)$/i;

/**
 * Why the integration client would refuse to call `url`, or undefined when it may: a host outside
 * INTEGRATION_ALLOWED_HOSTS, a private, loopback or link-local address as written, or a name
 * that is one by definition (localhost, *.local, *.internal). For checking an address when it is
 * given (an event subscription's target), without a DNS lookup that could stall the request:
 * other names are checked on each call, against the address they resolve to then.
 */
export function destinationProblem(url: string, options: DestinationPolicyOptions = {}): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `"${url.slice(0, 100)}" is not an absolute URL.`;
  }
  const host = parsed.hostname
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '')
    .toLowerCase();
  try {
    new DestinationPolicy(options).checkHost(host);
  } catch (error) {
    return (error as Error).message;
  }
  const listed = options.allowedHosts?.map((h) => h.trim().toLowerCase()).includes(host) ?? false;
  if (!listed && !isIP(host) && INTERNAL_NAME.test(host)) {
    return `The host ${host} names this machine or a private network, which integrations may not call; list it in INTEGRATION_ALLOWED_HOSTS if it is meant to be reached.`;
  }
  return undefined;
}
