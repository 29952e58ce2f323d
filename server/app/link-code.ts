import { createHash, randomInt } from 'node:crypto';
import type { BotDefinition } from '../definition/schema.ts';

/**
 * The one-time codes of "link channels": eight characters of an alphabet without look-alikes
 * (no 0/O, 1/I/L), shown as ABCD-EFGH. 31^8 ≈ 8.5·10^11 codes: with a few wrong tries allowed per
 * address and window (link-channels.ts), guessing a live code is hopeless, which a six-digit code
 * would not be against an attacker who opens many web chat sessions.
 */
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const HALF = `[${ALPHABET}]{4}`;
/** A message that is a code and nothing else, the dash or a space optional, any case. */
const CODE_MESSAGE = new RegExp(`^\\s*(${HALF})[\\s-]?(${HALF})\\s*$`);

/** A fresh code, as the bot shows it. */
export function drawLinkCode(): string {
  const chars = Array.from({ length: 8 }, () => ALPHABET[randomInt(ALPHABET.length)]!);
  return `${chars.slice(0, 4).join('')}-${chars.slice(4).join('')}`;
}

/** The code a user's message is, normalised (upper case, no dash); null for any other message. */
export function linkCodeIn(text: string): string | null {
  const match = CODE_MESSAGE.exec(text.toUpperCase());
  return match ? `${match[1]}${match[2]}` : null;
}

/**
 * What the store keeps of a code: its SHA-256 with the bot's id, so a code shown by one bot never
 * opens another's, and the store never holds a code that works. (The bot's message that showed
 * it stays in the transcript, as every bot message does; it works once and for minutes.)
 */
export function hashLinkCode(botId: string, code: string): string {
  const normalised = linkCodeIn(code) ?? code;
  return createHash('sha256').update(`${botId}:${normalised}`).digest('hex');
}

const hasLinkStep = new WeakMap<BotDefinition, boolean>();

/** Whether the bot has a link-channels step: only then does a turn draw a code, or a message look for one. */
export function linksChannels(definition: BotDefinition): boolean {
  let has = hasLinkStep.get(definition);
  if (has === undefined) {
    has = definition.dialogs.some((dialog) => dialog.steps.some((step) => step.type === 'linkChannels'));
    hasLinkStep.set(definition, has);
  }
  return has;
}
