import type { Request, Response } from 'express';

/**
 * The session cookie: `__Host-studio` when the request came over HTTPS (directly, or through a
 * proxy TRUST_PROXY believes, which Express's req.secure reflects) — the prefix makes the browser
 * insist on Secure, Path=/ and no Domain — else `studio_session` for plain-HTTP development.
 * HttpOnly (no script reads it), SameSite=Strict (no other site's page sends it).
 */
export const SECURE_COOKIE = '__Host-studio';
export const PLAIN_COOKIE = 'studio_session';

export const cookieName = (req: Request): string => (req.secure ? SECURE_COOKIE : PLAIN_COOKIE);

/** The session cookie's value, or undefined; a malformed header yields undefined, never an error. */
export function readSessionCookie(req: Request): string | undefined {
  return sessionCookieIn(req.headers.cookie, req.secure);
}

/** The session cookie's value in a Cookie header (also a socket handshake's), by the name `secure` decides. */
export function sessionCookieIn(header: unknown, secure: boolean): string | undefined {
  if (typeof header !== 'string' || header.length > 8192) return undefined;
  const name = secure ? SECURE_COOKIE : PLAIN_COOKIE;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at < 0 || part.slice(0, at).trim() !== name) continue;
    const value = part.slice(at + 1).trim();
    return /^[A-Za-z0-9_-]{20,100}$/.test(value) ? value : undefined;
  }
  return undefined;
}

export function setSessionCookie(req: Request, res: Response, value: string, maxAgeMs: number): void {
  res.append(
    'Set-Cookie',
    `${cookieName(req)}=${value}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${Math.floor(maxAgeMs / 1000)}${req.secure ? '; Secure' : ''}`,
  );
}

export function clearSessionCookie(req: Request, res: Response): void {
  res.append(
    'Set-Cookie',
    `${cookieName(req)}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0${req.secure ? '; Secure' : ''}`,
  );
}
