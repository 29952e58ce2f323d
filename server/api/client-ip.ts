import { isIPv4, isIPv6 } from 'node:net';
import type { IncomingMessage } from 'node:http';

const isLoopback = (ip: string) => ip === '::1' || ip.startsWith('127.') || ip.startsWith('::ffff:127.');

/**
 * The client's address as Express computes it with `trust proxy: loopback`: a
 * reverse proxy on this machine may name the client in X-Forwarded-For; any
 * other peer is the client itself. Hops are read right to left while they are
 * loopback, so a client cannot pick its own address by sending the header.
 */
export function clientIp(req: IncomingMessage): string {
  const peer = req.socket.remoteAddress ?? '';
  if (!isLoopback(peer)) return peer;
  const forwarded = req.headers['x-forwarded-for'];
  if (typeof forwarded !== 'string') return peer;
  const hops = forwarded.split(',');
  let ip = peer;
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i]!.trim();
    if (hop === '') continue;
    ip = hop;
    if (!isLoopback(hop)) break;
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
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  const hex = groups.slice(0, 4).map((g) => g.padStart(4, '0'));
  return `${hex.slice(0, 3).join(':')}:${hex[3]!.slice(0, 2)}00::/56`;
}
