import { BlockList, isIP, isIPv4, isIPv6 } from 'node:net';
import type { IncomingMessage } from 'node:http';

/**
 * Whether the address `hop` steps away from this server (0 = the peer of the TCP
 * connection, 1 = the address that peer names last in X-Forwarded-For, …) is a proxy
 * of ours, so the address it names may be believed. Express takes the same function
 * as its `trust proxy` setting, so req.ip and clientIp() always agree.
 */
export type ProxyTrust = (address: string, hop: number) => boolean;

/** Names TRUST_PROXY accepts for well-known ranges, as Express does. */
const NAMED_RANGES: Readonly<Record<string, readonly string[]>> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

const unmapped = (ip: string) => (ip.startsWith('::ffff:') && isIPv4(ip.slice(7)) ? ip.slice(7) : ip);

/**
 * Reads a TRUST_PROXY value: `true` (every hop: only when nothing reaches the server but
 * through its proxies), `false` or `0` (none: the peer is the client), a whole number of
 * proxy hops in front of the server, or a comma list of addresses, subnets in CIDR notation
 * and the names `loopback`, `linklocal`, `uniquelocal`. Throws an Error whose message says
 * what is wrong, for config.ts to turn into its one line.
 */
export function compileProxyTrust(setting: string): ProxyTrust {
  const text = setting.trim().toLowerCase();
  if (text === 'true') return () => true;
  if (text === 'false') return () => false;
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops > 100) throw new Error('must be a number of proxy hops from 0 to 100');
    return (_address, hop) => hop < hops;
  }
  const trusted = new BlockList();
  for (const entry of text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    for (const range of NAMED_RANGES[entry] ?? [entry]) addRange(trusted, range);
  }
  return (address) => {
    const ip = unmapped(address);
    const family = isIP(ip);
    return family !== 0 && trusted.check(ip, family === 4 ? 'ipv4' : 'ipv6');
  };
}

function addRange(list: BlockList, range: string): void {
  const [address = '', prefix, ...rest] = range.split('/');
  const ip = unmapped(address);
  const family = isIP(ip);
  const bits = family === 4 ? 32 : 128;
  const length = prefix === undefined ? bits : /^\d{1,3}$/.test(prefix) ? Number(prefix) : NaN;
  if (family === 0 || rest.length > 0 || !(length >= 0 && length <= bits)) {
    throw new Error(
      `must be true, false, a number of proxy hops, or a comma-separated list of addresses, subnets (10.0.0.0/8) and loopback, linklocal, uniquelocal; "${range}" is none of these`,
    );
  }
  list.addSubnet(ip, length, family === 4 ? 'ipv4' : 'ipv6');
}

/** The default, as Express's `trust proxy: loopback`: a reverse proxy on this machine may name the client. */
export const TRUST_LOOPBACK: ProxyTrust = compileProxyTrust('loopback');

/**
 * The client's address as Express computes it with the same `trust`: starting at the
 * TCP peer, each trusted hop hands over to the address it names in X-Forwarded-For
 * (read right to left); the first untrusted one is the client. A client therefore
 * cannot pick its own address by sending the header: only our proxies are believed.
 */
export function clientIp(req: IncomingMessage, trust: ProxyTrust = TRUST_LOOPBACK): string {
  const peer = req.socket.remoteAddress ?? '';
  const forwarded = req.headers['x-forwarded-for'];
  if (typeof forwarded !== 'string') return peer;
  const hops = forwarded
    .split(',')
    .map((hop) => hop.trim())
    .filter((hop) => hop !== '')
    .reverse();
  let ip = peer;
  for (let hop = 0; hop < hops.length; hop++) {
    if (!trust(ip, hop)) return ip;
    ip = hops[hop]!;
  }
  return ip;
}

/**
 * The key a client is counted under. An IPv6 client usually owns a whole /56 or
 * /64 and could rotate addresses within it, so IPv6 is counted per /56 prefix.
 */
export function rateLimitKey(ip: string): string {
  if (ip.startsWith('::ffff:') && isIPv4(ip.slice(7))) return ip.slice(7);
  const bare = ip.split('%')[0]!;
  if (!isIPv6(bare)) return ip;
  const [head = '', tail] = bare.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups =
    tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  const hex = groups.slice(0, 4).map((g) => g.padStart(4, '0'));
  return `${hex.slice(0, 3).join(':')}:${hex[3]!.slice(0, 2)}00::/56`;
}
