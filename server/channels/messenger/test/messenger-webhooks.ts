/**
 * What Messenger posts to a page's webhook (Webhooks for Messenger,
 * https://developers.facebook.com/docs/messenger-platform/webhooks and
 * …/reference/webhook-events/messages, …/messaging_postbacks), as a test posts it to the connector:
 * `object: "page"`, an entry per page with its `messaging` events, signed over the exact bytes sent.
 */
import { randomBytes } from 'node:crypto';
import { metaSignatureHeader, signMetaBody } from '../../test/vendors/signatures/meta-signature.ts';

export const PAGE_ID = '104211998765432';

/** A new message id of the shape Messenger uses, so redelivery tests can reuse one on purpose. */
export const newMid = () => `m_${randomBytes(24).toString('base64url')}`;

type Event =
  | { message: { mid: string; text?: string; quick_reply?: { payload: string }; is_echo?: boolean; app_id?: number } }
  | { postback: { mid: string; title: string; payload: string } };

/** One webhook post: `events` from the person `psid` to the page (an echo goes from the page to the person). */
export function pageWebhook(psid: string, ...events: Event[]) {
  const timestamp = Date.now();
  return {
    object: 'page',
    entry: [
      {
        id: PAGE_ID,
        time: timestamp,
        messaging: events.map((event) => {
          const echo = 'message' in event && event.message.is_echo === true;
          return {
            sender: { id: echo ? PAGE_ID : psid },
            recipient: { id: echo ? psid : PAGE_ID },
            timestamp,
            ...event,
          };
        }),
      },
    ],
  };
}

export const textEvent = (text: string, mid = newMid()): Event => ({ message: { mid, text } });

export function postMessengerWebhook(url: string, payload: unknown, appSecret: string): Promise<Response> {
  const raw = JSON.stringify(payload);
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [metaSignatureHeader]: signMetaBody(appSecret, raw) },
    body: raw,
  });
}

/** Meta's subscription check: GET with hub.mode, hub.verify_token and hub.challenge. */
export async function verifyMessengerWebhook(url: string, verifyToken: string) {
  const challenge = randomBytes(8).toString('hex');
  const query = new URLSearchParams({
    'hub.mode': 'subscribe',
    'hub.verify_token': verifyToken,
    'hub.challenge': challenge,
  });
  return { response: await fetch(`${url}?${query}`), challenge };
}
