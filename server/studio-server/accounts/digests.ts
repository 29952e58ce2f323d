import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** SHA-256 in hex: how session cookies, setup links and API tokens are looked up without storing them. */
export const digest = (value: string): string => createHash('sha256').update(value, 'utf8').digest('hex');

/** 256 random bits, URL-safe. */
export const randomSecret = (): string => randomBytes(32).toString('base64url');

/** API tokens carry a prefix, so secret scanners and people recognise one in a paste. */
export const TOKEN_PREFIX = 'cbst_';
export const newApiToken = (): string => `${TOKEN_PREFIX}${randomSecret()}`;

/** Compares two strings in constant time (of their digests). */
export function sameSecret(a: string, b: string): boolean {
  return timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());
}

export const newId = (): string => randomBytes(12).toString('base64url');
