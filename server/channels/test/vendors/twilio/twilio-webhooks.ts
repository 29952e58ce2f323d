/**
 * The webhook posts Twilio sends a messaging webhook (an incoming SMS or WhatsApp message, a status
 * callback), as a test posts them to the connector: the form Twilio's messaging webhook documentation
 * lists, signed with X-Twilio-Signature over the PUBLIC URL Twilio was given, which behind a proxy is
 * not the URL the server sees.
 */
import { randomBytes } from 'node:crypto';
import {
  signTwilioRequest,
  twilioFormBody,
  twilioSignatureHeader,
  type TwilioParams,
} from '../signatures/twilio-signature.ts';

export function newMessageSid(): string {
  return `SM${randomBytes(16).toString('hex')}`;
}

export interface IncomingTwilioMessage {
  readonly accountSid: string;
  /** The user: `+15551234567` for SMS, `whatsapp:+15551234567` for WhatsApp. */
  readonly from: string;
  /** The business number the user wrote to, on the same channel as `from`. */
  readonly to: string;
  readonly body: string;
  /** Pass a MessageSid again to redeliver the same message. */
  readonly messageSid?: string;
  /** The WhatsApp profile name (WhatsApp only). */
  readonly profileName?: string;
  /** A quick-reply button the user tapped (WhatsApp only). */
  readonly button?: { readonly text: string; readonly payload: string };
  readonly mediaUrls?: readonly { readonly url: string; readonly contentType: string }[];
}

/** The parameters of one incoming message. */
export function incomingTwilioMessage(message: IncomingTwilioMessage): Record<string, string> {
  const sid = message.messageSid ?? newMessageSid();
  const media = message.mediaUrls ?? [];
  const whatsApp = message.from.startsWith('whatsapp:');
  return {
    AccountSid: message.accountSid,
    ApiVersion: '2010-04-01',
    Body: message.body,
    From: message.from,
    To: message.to,
    MessageSid: sid,
    SmsMessageSid: sid,
    SmsSid: sid,
    SmsStatus: 'received',
    NumMedia: String(media.length),
    NumSegments: '1',
    ...Object.fromEntries(
      media.flatMap((item, index) => [
        [`MediaUrl${index}`, item.url],
        [`MediaContentType${index}`, item.contentType],
      ]),
    ),
    ...(whatsApp
      ? { WaId: message.from.replace(/^whatsapp:\+?/, ''), ProfileName: message.profileName ?? '' }
      : { FromCountry: 'US', ToCountry: 'US' }),
    ...(message.button ? { ButtonText: message.button.text, ButtonPayload: message.button.payload } : {}),
  };
}

/**
 * Posts `params` to `localUrl` (where the test server listens) signed over `publicUrl` (the URL Twilio
 * was configured with), as Twilio does behind a proxy. `signature` overrides the header for forgery tests.
 */
export async function postTwilioWebhook(
  localUrl: string,
  publicUrl: string,
  params: TwilioParams,
  authToken: string,
  options: { signature?: string | null } = {},
): Promise<Response> {
  const signature =
    options.signature === undefined ? signTwilioRequest(authToken, publicUrl, params) : options.signature;
  return fetch(localUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(signature === null ? {} : { [twilioSignatureHeader]: signature }),
    },
    body: twilioFormBody(params),
  });
}
