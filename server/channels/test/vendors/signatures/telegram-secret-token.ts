/**
 * Telegram signs nothing: `setWebhook(url, secret_token)` makes the Bot API send the secret back in
 * `X-Telegram-Bot-Api-Secret-Token` on every update. The Bot API allows 1–256 characters of A–Z, a–z,
 * 0–9, `_` and `-`; a test sends what Telegram would.
 */
import { randomBytes } from 'node:crypto';

export const telegramSecretTokenHeader = 'x-telegram-bot-api-secret-token';

const allowedSecretToken = /^[A-Za-z0-9_-]{1,256}$/;

export function isValidTelegramSecretToken(secret: string): boolean {
  return allowedSecretToken.test(secret);
}

/** A fresh secret of the kind a person would pass to setWebhook (base64url draws only allowed characters). */
export function newTelegramSecretToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** The headers of one webhook update as Telegram sends it. */
export function telegramWebhookHeaders(secret: string): Record<string, string> {
  if (!isValidTelegramSecretToken(secret))
    throw new Error('A Telegram secret token has 1–256 characters of A–Z, a–z, 0–9, _ and -.');
  return { 'content-type': 'application/json', [telegramSecretTokenHeader]: secret };
}
