import { createHmac, timingSafeEqual } from 'node:crypto';
import { HttpError } from '../../ports/http-error.ts';
import type { WebhookRequest } from '../../ports/webhook-request.ts';

/** Slack refuses to be believed past this skew: an older request is a replay (Slack's own rule: five minutes). */
export const SLACK_MAX_SKEW_MS = 5 * 60_000;
const SIGNATURE = /^v0=([0-9a-f]{64})$/;

/**
 * Slack's request signing (version v0): `X-Slack-Signature: v0=<hex HMAC-SHA256(signing secret,
 * "v0:" + X-Slack-Request-Timestamp + ":" + raw body)>`. The timestamp is inside the signed text,
 * so a captured request replayed more than five minutes later is refused however well signed; within
 * those minutes a replay repeats an event id already stored, which changes nothing. Compared in
 * constant time, over the bytes as received.
 */
export function verifySlackSignature(request: WebhookRequest, raw: Buffer, signingSecret: string, now: number): void {
  const signature = request.headers['x-slack-signature'];
  const timestamp = request.headers['x-slack-request-timestamp'];
  if (typeof signature !== 'string' || typeof timestamp !== 'string' || signature === '' || timestamp === '') {
    throw new HttpError(
      401,
      'unauthorized',
      "The X-Slack-Signature or X-Slack-Request-Timestamp header is missing: Slack signs every request it sends to an app's Request URL.",
    );
  }
  const seconds = /^\d{1,12}$/.test(timestamp) ? Number(timestamp) : NaN;
  if (!Number.isSafeInteger(seconds) || Math.abs(now - seconds * 1000) > SLACK_MAX_SKEW_MS) {
    throw new HttpError(
      403,
      'forbidden',
      "The X-Slack-Request-Timestamp is more than five minutes away from this server's clock: the request is refused as a replay (check the server's clock if every request is refused).",
    );
  }
  const given = SIGNATURE.exec(signature)?.[1];
  const expected = createHmac('sha256', signingSecret).update(`v0:${timestamp}:`).update(raw).digest();
  if (given === undefined || !timingSafeEqual(Buffer.from(given, 'hex'), expected)) {
    throw new HttpError(
      403,
      'forbidden',
      'The X-Slack-Signature does not match the body signed with SLACK_SIGNING_SECRET.',
    );
  }
}
