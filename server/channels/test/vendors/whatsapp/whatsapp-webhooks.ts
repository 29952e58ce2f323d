/**
 * The webhook posts the WhatsApp Cloud API sends a business (incoming messages and status updates), as a
 * test posts them to the connector: the JSON Meta documents, signed over the exact bytes sent.
 */
import { randomBytes } from 'node:crypto';
import { metaSignatureHeader, signMetaBody } from '../signatures/meta-signature.ts';
import type { WhatsAppStatusUpdate } from './whatsapp-cloud-stand-in.ts';

export interface WhatsAppBusinessNumber {
  readonly wabaId: string;
  readonly phoneNumberId: string;
  readonly displayPhoneNumber: string;
}

export interface WhatsAppSender {
  /** The user's WhatsApp id: their number in international form, digits only. */
  readonly waId: string;
  readonly name: string;
}

type IncomingContent =
  | { type: 'text'; text: { body: string } }
  | {
      type: 'interactive';
      interactive:
        | { type: 'button_reply'; button_reply: { id: string; title: string } }
        | { type: 'list_reply'; list_reply: { id: string; title: string; description?: string } };
    }
  | { type: 'image'; image: { id: string; mime_type: string; sha256: string; caption?: string } }
  /** A tapped quick-reply button of a template message. */
  | { type: 'button'; button: { text: string; payload: string } };

function envelope(number: WhatsAppBusinessNumber, value: Record<string, unknown>) {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: number.wabaId,
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: number.displayPhoneNumber, phone_number_id: number.phoneNumberId },
              ...value,
            },
          },
        ],
      },
    ],
  };
}

/** A new message id of the shape the Cloud API uses, so redelivery tests can reuse one on purpose. */
export function newWhatsAppMessageId(): string {
  return `wamid.${randomBytes(24).toString('base64url')}`;
}

/** One incoming message from `sender`; pass `id` to send the same message again (a redelivery). */
export function incomingMessage(
  number: WhatsAppBusinessNumber,
  sender: WhatsAppSender,
  content: IncomingContent,
  options: { id?: string; at?: Date; replyTo?: string } = {},
) {
  const message = {
    from: sender.waId,
    id: options.id ?? newWhatsAppMessageId(),
    timestamp: String(Math.floor((options.at ?? new Date()).getTime() / 1000)),
    ...(options.replyTo ? { context: { from: number.displayPhoneNumber, id: options.replyTo } } : {}),
    ...content,
  };
  return envelope(number, { contacts: [{ profile: { name: sender.name }, wa_id: sender.waId }], messages: [message] });
}

/** Status updates (sent, delivered, read, failed) for messages the business sent. */
export function statusUpdates(number: WhatsAppBusinessNumber, statuses: readonly WhatsAppStatusUpdate[]) {
  return envelope(number, { statuses });
}

/** Posts `payload` to a connector's webhook as Meta does: raw JSON bytes and their X-Hub-Signature-256. */
export async function postWhatsAppWebhook(
  url: string,
  payload: unknown,
  appSecret: string,
  options: { signature?: string } = {},
): Promise<Response> {
  const raw = JSON.stringify(payload);
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      [metaSignatureHeader]: options.signature ?? signMetaBody(appSecret, raw),
    },
    body: raw,
  });
}

/** The GET Meta makes when a person saves the webhook URL in the app dashboard. */
export async function verifyWhatsAppWebhook(
  url: string,
  verifyToken: string,
  challenge = randomBytes(8).toString('hex'),
): Promise<{ response: Response; challenge: string }> {
  const target = new URL(url);
  target.searchParams.set('hub.mode', 'subscribe');
  target.searchParams.set('hub.verify_token', verifyToken);
  target.searchParams.set('hub.challenge', challenge);
  return { response: await fetch(target), challenge };
}
