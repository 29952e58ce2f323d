import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { clientIp, rateLimitKey } from './client-ip.ts';

const from = (peer: string, forwarded?: string) =>
  ({ socket: { remoteAddress: peer }, headers: forwarded === undefined ? {} : { 'x-forwarded-for': forwarded } }) as unknown as IncomingMessage;

describe('client address', () => {
  it('when a remote peer sends X-Forwarded-For, then it is ignored: a client cannot choose its own address', () => {
    expect(clientIp(from('198.51.100.4', '203.0.113.9'))).toBe('198.51.100.4');
  });

  it('when a proxy on this machine forwards, then the nearest address that is not loopback is the client', () => {
    expect(clientIp(from('127.0.0.1', '203.0.113.9, 198.51.100.4'))).toBe('198.51.100.4');
    expect(clientIp(from('::ffff:127.0.0.1', '203.0.113.9, 127.0.0.1'))).toBe('203.0.113.9');
    expect(clientIp(from('::1'))).toBe('::1');
  });
});

describe('rate limit key', () => {
  it('when an IPv6 client changes address within its /56, then it is still counted once', () => {
    expect(rateLimitKey('2001:db8:abcd:1200::1')).toBe(rateLimitKey('2001:db8:abcd:12ff:ffff::9'));
    expect(rateLimitKey('2001:db8:abcd:1200::1')).not.toBe(rateLimitKey('2001:db8:abcd:1300::1'));
    expect(rateLimitKey('2001:db8::1')).toBe('2001:0db8:0000:0000::/56');
  });

  it('when the address is IPv4, plain or mapped, then it is counted as itself', () => {
    expect(rateLimitKey('203.0.113.9')).toBe('203.0.113.9');
    expect(rateLimitKey('::ffff:203.0.113.9')).toBe('203.0.113.9');
  });
});
