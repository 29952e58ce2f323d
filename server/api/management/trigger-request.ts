import { z } from 'zod';
import { checkJsonBounds, describeJsonExcess } from '../../../shared/json-bounds.ts';
import { TRIGGER_BODY_BOUNDS, bodyBoundsError } from './body-bounds.ts';
import { HttpError } from '../../ports/http-error.ts';

/** Largest trigger body (decisions.md). */
export const MAX_TRIGGER_BODY = 64 * 1024;

/** The spec's user address object (section 2). */
export const addressSchema = z.object({
  bot: z.string().min(1).max(256),
  user: z.string().min(1).max(256),
  channelId: z.string().min(1).max(256),
  conversation: z.union([z.string(), z.record(z.string(), z.unknown())]).optional(),
});
export type UserAddress = z.infer<typeof addressSchema>;

const invalidAddress = (message: string) =>
  new HttpError(
    400,
    'invalid_address',
    `${message} The address must be the JSON user address {"bot","user","channelId"} in base64.`,
  );

/**
 * Decodes `address_base64`: standard or URL-safe alphabet, padding optional.
 * (Percent-encoding, e.g. a standard `/` sent as %2F, is undone by the router
 * before this sees the segment.) Anything that is not canonical base64 of a
 * JSON object with string bot, user and channelId is a 400 invalid_address.
 */
export function decodeAddress(segment: string): UserAddress {
  const unpadded = segment.replace(/=+$/, '');
  if (unpadded === '' || !/^[A-Za-z0-9+/_-]+$/.test(unpadded) || unpadded.length % 4 === 1) {
    throw invalidAddress('address_base64 is not base64.');
  }
  const standard = unpadded.replace(/-/g, '+').replace(/_/g, '/');
  const bytes = Buffer.from(standard, 'base64');
  // Buffer ignores stray bits; only a round trip proves the text was base64 of these bytes.
  if (bytes.toString('base64').replace(/=+$/, '') !== standard) throw invalidAddress('address_base64 is not base64.');
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw invalidAddress('address_base64 decodes to something that is not JSON.');
  }
  // "conversation" may be any object: bound it before the schema walks it.
  const excess = checkJsonBounds(parsed);
  if (excess)
    throw invalidAddress(`address_base64 decodes to JSON that is refused because ${describeJsonExcess(excess)}.`);
  const address = addressSchema.safeParse(parsed);
  if (!address.success) {
    const issue = address.error.issues[0];
    const where = issue?.path.length ? `"${issue.path.join('.')}"` : 'the decoded value';
    throw invalidAddress(`In the address, ${where} is not valid (${issue?.message ?? 'unknown problem'}).`);
  }
  return address.data;
}

/**
 * The trigger body: absent (no bytes), or a JSON object sent as application/json,
 * within TRIGGER_BODY_BOUNDS. It becomes the user-data field triggerData.
 */
export function parseTriggerBody(raw: Buffer | undefined, contentType: string | undefined): Record<string, unknown> {
  if (!raw || raw.length === 0) return {};
  if (!contentType || !/^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(contentType)) {
    throw new HttpError(
      415,
      'unsupported_media_type',
      'Send the trigger body as JSON with Content-Type: application/json, or send no body.',
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(raw));
  } catch {
    throw new HttpError(400, 'invalid_body', 'The request body is not valid JSON.');
  }
  const excess = bodyBoundsError(parsed, TRIGGER_BODY_BOUNDS);
  if (excess) throw excess;
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new HttpError(400, 'invalid_body', 'The request body must be a JSON object, e.g. {"transactionId": "T-1"}.');
  }
  return parsed as Record<string, unknown>;
}

export function parseMode(mode: string | undefined): 'clear' | null {
  if (mode === undefined) return null;
  if (mode === 'clear') return 'clear';
  throw new HttpError(
    400,
    'invalid_parameter',
    `mode must be "clear" or left out (got ${JSON.stringify(mode.slice(0, 40))}).`,
    { parameter: 'mode' },
  );
}
