import { describe, expect, it } from 'vitest';
import { createLinkSigner } from './url-tracker.ts';

const OLD = 'old-session-secret-0123456789abcdef0123';
const NEW = 'new-session-secret-0123456789abcdef0123';
const tokenOf = (link: string) => link.slice(link.lastIndexOf('/r/') + 3);

describe('tracked link signatures across a secret rotation', () => {
  const sent = tokenOf(createLinkSigner(OLD, () => 'https://bot.example.com').link('u1', 'https://shop.example.com/a'));

  it('when SESSION_SECRET rotates with SESSION_SECRET_PREVIOUS set, then links already sent still open', () => {
    const rotated = createLinkSigner(NEW, () => 'https://bot.example.com', OLD);
    expect(rotated.verify(sent)).toEqual({ userId: 'u1', url: 'https://shop.example.com/a' });
    expect(rotated.verify(tokenOf(rotated.link('u2', 'https://shop.example.com/b')))).toEqual({
      userId: 'u2',
      url: 'https://shop.example.com/b',
    });
  });

  it('when the previous secret is dropped, then links it signed are refused, and a tampered link never verifies', () => {
    expect(createLinkSigner(NEW, () => 'https://bot.example.com').verify(sent)).toBeNull();
    const [body, mac] = sent.split('.');
    const other = Buffer.from(JSON.stringify(['u1', 'https://evil.example.com'])).toString('base64url');
    expect(createLinkSigner(NEW, () => '', OLD).verify(`${other}.${mac}`)).toBeNull();
    expect(createLinkSigner(NEW, () => '', OLD).verify(`${body}.${mac}x`)).toBeNull();
  });
});
