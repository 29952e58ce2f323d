import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { clientIp, compileProxyTrust, rateLimitKey } from './client-ip.ts';

const from = (peer: string, forwarded?: string) =>
  ({
    socket: { remoteAddress: peer },
    headers: forwarded === undefined ? {} : { 'x-forwarded-for': forwarded },
  }) as unknown as IncomingMessage;

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

describe('client address with TRUST_PROXY', () => {
  const ip = (setting: string, peer: string, forwarded?: string) =>
    clientIp(from(peer, forwarded), compileProxyTrust(setting));

  it('when TRUST_PROXY is a hop count, then that many proxies are believed and a client-sent address further left is not', () => {
    expect(ip('1', '10.0.0.2', '203.0.113.66, 198.51.100.4')).toBe('198.51.100.4');
    expect(ip('2', '10.0.0.2', '203.0.113.66, 198.51.100.4, 10.0.0.3')).toBe('198.51.100.4');
    expect(ip('0', '10.0.0.2', '198.51.100.4')).toBe('10.0.0.2');
  });

  it('when TRUST_PROXY lists addresses and subnets, then only those proxies are believed, IPv4 and IPv6, mapped or not', () => {
    expect(ip('10.0.0.0/8, 2001:db8::1', '::ffff:10.1.2.3', '198.51.100.4')).toBe('198.51.100.4');
    expect(ip('10.0.0.0/8, 2001:db8::1', '2001:db8::1', '198.51.100.4, 10.9.9.9')).toBe('198.51.100.4');
    expect(ip('10.0.0.0/8', '192.168.1.1', '198.51.100.4')).toBe('192.168.1.1');
    expect(ip('uniquelocal', '192.168.1.1', '198.51.100.4')).toBe('198.51.100.4');
  });

  it('when TRUST_PROXY is true or false, then every hop or none is believed', () => {
    expect(ip('true', '198.51.100.4', '203.0.113.9, 10.0.0.1')).toBe('203.0.113.9');
    expect(ip('false', '127.0.0.1', '203.0.113.9')).toBe('127.0.0.1');
  });

  it('when TRUST_PROXY holds something else, then the error says what it may be and names the bad part', () => {
    expect(() => compileProxyTrust('loopback, 10.0.0.0/33')).toThrow(
      /^must be true, false, a number of proxy hops, or a comma-separated list .*"10.0.0.0\/33" is none of these$/,
    );
    expect(() => compileProxyTrust('nginx')).toThrow(/"nginx"/);
    expect(() => compileProxyTrust('1000')).toThrow(/hops from 0 to 100/);
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
