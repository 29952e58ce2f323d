import { describe, expect, it } from 'vitest';
import {
  isValidTelegramSecretToken,
  newTelegramSecretToken,
  telegramSecretTokenHeader,
  telegramWebhookHeaders,
} from './telegram-secret-token.ts';

describe('Telegram webhook secret token (test helper)', () => {
  it('when a secret is drawn, then it is one the Bot API accepts for setWebhook', () => {
    for (let draw = 0; draw < 50; draw += 1) expect(isValidTelegramSecretToken(newTelegramSecretToken())).toBe(true);
    expect(isValidTelegramSecretToken('a'.repeat(256))).toBe(true);
  });

  it('when a secret is empty, over 256 characters or has other characters, then the helper refuses to send it', () => {
    for (const secret of ['', 'a'.repeat(257), 'has space', 'slash/', 'plus+', 'ümlaut']) {
      expect(isValidTelegramSecretToken(secret)).toBe(false);
      expect(() => telegramWebhookHeaders(secret)).toThrow(/1–256 characters/);
    }
  });

  it('when the headers are built, then the secret travels in X-Telegram-Bot-Api-Secret-Token with a JSON body type', () => {
    expect(telegramWebhookHeaders('s3cr3t_-')).toEqual({
      'content-type': 'application/json',
      [telegramSecretTokenHeader]: 's3cr3t_-',
    });
  });
});
