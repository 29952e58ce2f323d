/**
 * What every webhook of Meta's platform shares (WhatsApp Cloud API, Messenger): the subscription
 * handshake a GET answers, and the signature every POST carries over its raw bytes.
 */
import { hash, timingSafeEqual } from 'node:crypto';
import { HttpError } from '../../ports/http-error.ts';
import type { WebhookRequest } from '../../ports/webhook-request.ts';
import type { Connector } from '../connector/connector.ts';
import { isValidMetaSignature, metaSignatureHeader } from './meta-signature.ts';

/** The names of a channel's settings, for the refusals: the operator reads which one to check. */
export interface MetaSettingNames {
  readonly appSecret: string;
  readonly verifyToken: string;
}

const digest = (value: string) => hash('sha256', value, 'buffer');
const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/**
 * Answers Meta's webhook verification: `hub.mode=subscribe`, the verify token typed at Meta
 * (compared in constant time, as digests of equal length) and `hub.challenge`, echoed as it came.
 */
export function metaHandshake(
  verifyToken: string,
  names: MetaSettingNames,
): (request: WebhookRequest) => { status: number; body: string } {
  const expected = digest(verifyToken);
  return (request) => {
    const mode = request.query.get('hub.mode');
    const token = request.query.get('hub.verify_token') ?? '';
    const challenge = request.query.get('hub.challenge') ?? '';
    if (mode !== 'subscribe' || !/^[A-Za-z0-9_-]{1,128}$/.test(challenge)) {
      throw new HttpError(
        400,
        'invalid_parameter',
        "This address answers Meta's webhook verification: hub.mode=subscribe with hub.verify_token and hub.challenge (1 to 128 of A-Z a-z 0-9 _ -).",
        { parameter: 'hub.mode' },
      );
    }
    if (!timingSafeEqual(digest(token), expected))
      throw new HttpError(403, 'forbidden', `hub.verify_token does not match ${names.verifyToken}.`);
    return { status: 200, body: challenge };
  };
}

/** Refuses a POST whose X-Hub-Signature-256 is missing (401) or is not the app secret's over the raw bytes (403). */
export function verifyMetaSignature(
  appSecret: string,
  names: MetaSettingNames,
): (request: WebhookRequest, raw: Buffer) => void {
  return (request, raw) => {
    const signature = first(request.headers[metaSignatureHeader]);
    if (!signature)
      throw new HttpError(
        401,
        'unauthorized',
        'The X-Hub-Signature-256 header is missing: Meta signs every webhook with the app secret.',
      );
    if (!isValidMetaSignature(appSecret, raw, signature))
      throw new HttpError(
        403,
        'forbidden',
        `The X-Hub-Signature-256 header does not match the body signed with ${names.appSecret}.`,
      );
  };
}

/**
 * The webhook side every Meta product's connector shares: JSON bodies of at most a megabyte (Meta
 * batches a few events per post; a megabyte is far beyond any genuine one), the handshake and the signature.
 */
export function metaWebhook(
  secrets: { readonly appSecret: string; readonly verifyToken: string },
  names: MetaSettingNames,
): Pick<Connector, 'maxBodyBytes' | 'bodyFormat' | 'handshake' | 'verify'> {
  return {
    maxBodyBytes: 1024 * 1024,
    bodyFormat: 'json',
    handshake: metaHandshake(secrets.verifyToken, names),
    verify: verifyMetaSignature(secrets.appSecret, names),
  };
}
