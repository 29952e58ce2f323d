import { HttpError } from '../../ports/http-error.ts';
import type { WebhookRequest } from '../../ports/webhook-request.ts';
import { SendFailure, type Connector, type InboundMessage } from '../connector/connector.ts';
import { textOrImage, type Capabilities, type RenderedPart } from '../connector/ladder.ts';
import type { WhatsAppTemplate } from '../../definition/whatsapp-template.ts';
import { whatsAppWindow } from '../meta/whatsapp-window.ts';
import { carrierKeyword, type CarrierKeyword } from './opt-out-keywords.ts';
import type { TwilioSend } from './twilio-api.ts';
import { isValidTwilioSignature, twilioSignatureHeader, type TwilioWebhookParams } from './twilio-signature.ts';

/** SMS and WhatsApp through Twilio: two channels, each with its own webhook and sender. */
export type TwilioFlavour = 'sms' | 'whatsapp';
export const TWILIO_CHANNELS: Readonly<Record<TwilioFlavour, string>> = {
  sms: 'twilio-sms',
  whatsapp: 'twilio-whatsapp',
};

/**
 * A message holds 1600 characters (Twilio's Body limit). SMS has no buttons: choices go as numbered
 * text the user answers by number or label, and an image as its address (MMS reaches few countries).
 * WhatsApp through Twilio shows images; free-form buttons need Twilio's content templates, so its
 * choices are numbered too.
 */
export const TWILIO_CAPABILITIES: Readonly<Record<TwilioFlavour, Capabilities>> = {
  sms: { textMax: 1600, captionMax: 0, buttons: null, list: null, quickReplies: null, images: false },
  whatsapp: { textMax: 1600, captionMax: 1600, buttons: null, list: null, quickReplies: null, images: true },
};

/** A status callback: Twilio reports that a message queued, left, arrived, was read or failed (with its code). */
export interface TwilioStatus {
  readonly messageSid: string;
  readonly status: string;
  readonly to: string;
  readonly errorCode?: string;
}

export interface TwilioConnectorOptions {
  readonly flavour: TwilioFlavour;
  readonly send: TwilioSend;
  readonly accountSid: string;
  readonly authToken: string;
  /** The Twilio number (SMS) or WhatsApp sender the bot writes from, as +15551234567. */
  readonly from: string;
  /** PUBLIC_URL: what Twilio calls, and so what it signs; never the address this server sees behind a proxy. */
  readonly publicUrl: string;
  readonly onStatus: (channel: string, status: TwilioStatus) => void;
  /**
   * An SMS user sent STOP, START or HELP: Twilio answers it and the connector runs no dialog; this
   * records it (the opt-out a trigger checks) before the webhook is answered.
   */
  readonly onKeyword: (channel: string, address: string, keyword: CarrierKeyword) => Promise<void>;
  /**
   * WhatsApp only: the approved template a dialog of the running bot opens with outside the 24-hour
   * window (its `whatsappTemplate`), sent by its `contentSid`; none, or one without a Content SID:
   * such a trigger is refused.
   */
  readonly dialogTemplate?: (dialogId: string) => WhatsAppTemplate | undefined;
}

/** The conversation variable that holds an SMS user's opt-out (true after STOP, false after START). */
export const SMS_OPTED_OUT = 'smsOptedOut';

/** Statuses Twilio posts to a StatusCallback; an incoming message says `received`. */
const OUTBOUND_STATUSES = new Set([
  'accepted',
  'scheduled',
  'queued',
  'sending',
  'sent',
  'delivered',
  'undelivered',
  'failed',
  'read',
  'canceled',
  'partially_delivered',
]);

/** The webhook URL of a Twilio channel, as Twilio is told it and signs it. */
export const twilioWebhookUrl = (publicUrl: string, flavour: TwilioFlavour) =>
  `${publicUrl.replace(/\/+$/, '')}/api/webhooks/${TWILIO_CHANNELS[flavour]}`;

function formParams(form: URLSearchParams): Record<string, string | string[]> {
  const params: Record<string, string | string[]> = {};
  for (const [name, value] of form) {
    const before = params[name];
    params[name] = before === undefined ? value : [...(Array.isArray(before) ? before : [before]), value];
  }
  return params;
}

/** How Twilio writes a sender of the flavour: WhatsApp numbers as `whatsapp:+…`, SMS numbers bare. */
const senderPrefix = (flavour: TwilioFlavour) => (flavour === 'whatsapp' ? 'whatsapp:' : '');

const single = (params: TwilioWebhookParams, name: string): string | undefined => {
  const value = params[name];
  return typeof value === 'string' ? value : value?.[0];
};

/**
 * Twilio as a connector for SMS or for WhatsApp: every webhook checked against X-Twilio-Signature over
 * PUBLIC_URL and the sorted parameters, each message taken once under its MessageSid, choices
 * rendered as numbered text, STOP/START/HELP left to Twilio's carrier handling, status callbacks
 * (with Twilio's error codes) to the log.
 */
export function twilioConnector(options: TwilioConnectorOptions): Connector {
  const name = TWILIO_CHANNELS[options.flavour];
  const webhookUrl = twilioWebhookUrl(options.publicUrl, options.flavour);
  const prefix = senderPrefix(options.flavour);
  const customerWindow = whatsAppWindow({
    channel: name,
    vendorCode: '63016',
    endpoint: 'Messages',
    refusal: 'Twilio refuses anything else, error 63016',
    // Twilio sends a template by its Content SID: one without it is no template here.
    template: (dialogId) => {
      const template = options.dialogTemplate?.(dialogId);
      return template?.contentSid === undefined ? undefined : template;
    },
    templateName: (template) => template.contentSid ?? template.name,
    sendTemplate: (address, template) =>
      options.send({
        To: prefix + address,
        From: prefix + options.from,
        StatusCallback: webhookUrl,
        ContentSid: template.contentSid!,
        ...(template.parameters.length > 0
          ? {
              ContentVariables: JSON.stringify(
                Object.fromEntries(template.parameters.map((text, index) => [String(index + 1), text])),
              ),
            }
          : {}),
      }),
  });
  return {
    name,
    capabilities: TWILIO_CAPABILITIES[options.flavour],
    // A message's form with ten media is a few KB.
    maxBodyBytes: 64 * 1024,
    secrets: [options.authToken],
    bodyFormat: 'form',
    verify: (request: WebhookRequest, raw: Buffer) => verifySignature(request, raw, options.authToken, webhookUrl),
    parse: (body: unknown) => readWebhook(options, body as URLSearchParams),
    refuseSend(user, now) {
      if (options.flavour === 'sms') {
        return user?.variables[SMS_OPTED_OUT] === true
          ? new SendFailure(
              'permanent',
              '21610',
              'not sent: the number texted STOP and has not texted START since',
              undefined,
              'Messages',
            )
          : undefined;
      }
      return customerWindow.refuseSend(user, now);
    },
    admitTrigger(user, dialogId, now) {
      if (options.flavour === 'sms') {
        if (user?.variables[SMS_OPTED_OUT] !== true) return;
        throw new HttpError(
          409,
          'sms_opted_out',
          `This number texted STOP: carriers allow no more messages to it until it texts START, and Twilio refuses them (error 21610). Dialog "${dialogId}" was not started.`,
          { channel: name },
        );
      }
      customerWindow.admitTrigger(user, dialogId, now);
    },
    replaceSend: (user, now, message) =>
      options.flavour === 'whatsapp' ? customerWindow.replaceSend(user, now, message) : undefined,
    async send(address: string, part: RenderedPart) {
      const base = { To: prefix + address, From: prefix + options.from, StatusCallback: webhookUrl };
      await options.send({ ...base, ...contentOf(part) });
    },
  };
}

/**
 * Checks X-Twilio-Signature: Twilio signs the URL it was given (PUBLIC_URL + the route, the query
 * exactly as received) and the sorted form parameters with the account's auth token.
 */
function verifySignature(request: WebhookRequest, raw: Buffer, authToken: string, webhookUrl: string): void {
  const header = request.headers[twilioSignatureHeader];
  const signature = Array.isArray(header) ? header[0] : header;
  if (!signature)
    throw new HttpError(
      401,
      'unauthorized',
      "The X-Twilio-Signature header is missing: Twilio signs every webhook with the account's auth token.",
    );
  // The query exactly as received (Twilio signs the URL it was given, query included), after PUBLIC_URL + the route.
  const queryStart = request.url.indexOf('?');
  const query = queryStart === -1 ? '' : request.url.slice(queryStart);
  const params = formParams(new URLSearchParams(raw.toString('utf8')));
  if (!isValidTwilioSignature({ authToken, publicUrl: webhookUrl + query, params, signature })) {
    throw new HttpError(
      403,
      'forbidden',
      `The X-Twilio-Signature header does not match: Twilio signs the URL it was given (${webhookUrl}, from PUBLIC_URL) with TWILIO_AUTH_TOKEN.`,
    );
  }
}

/**
 * A webhook's form as the messages to run: none for a status callback (logged), nor for a carrier
 * keyword (STOP, START, HELP: Twilio's to answer) or an empty text; else the sender's text.
 */
async function readWebhook(options: TwilioConnectorOptions, form: URLSearchParams): Promise<InboundMessage[]> {
  const params = formParams(form);
  const name = TWILIO_CHANNELS[options.flavour];
  const prefix = senderPrefix(options.flavour);
  if (single(params, 'AccountSid') !== options.accountSid)
    throw new HttpError(403, 'forbidden', 'The webhook is for another Twilio account than TWILIO_ACCOUNT_SID.');
  const sid = single(params, 'MessageSid') ?? single(params, 'SmsSid');
  if (!sid) throw new HttpError(400, 'invalid_body', 'A Twilio message webhook needs a MessageSid.');
  const status = single(params, 'MessageStatus') ?? single(params, 'SmsStatus') ?? '';
  if (OUTBOUND_STATUSES.has(status)) {
    const errorCode = single(params, 'ErrorCode');
    options.onStatus(name, {
      messageSid: sid,
      status,
      to: single(params, 'To') ?? '',
      ...(errorCode ? { errorCode } : {}),
    });
    return [];
  }
  const from = single(params, 'From') ?? '';
  if (prefix !== '' ? !from.startsWith(prefix) : from.includes(':')) {
    const other = TWILIO_CHANNELS[options.flavour === 'sms' ? 'whatsapp' : 'sms'];
    throw new HttpError(
      400,
      'invalid_body',
      `This webhook is the ${name} channel's; this message belongs at /api/webhooks/${other} (set it as the sender's webhook at Twilio, docs/channels.md).`,
    );
  }
  const address = from.slice(prefix.length);
  if (!/^\+?[0-9A-Za-z]{2,20}$/.test(address))
    throw new HttpError(400, 'invalid_body', "The webhook's From is not a phone number.");
  const text = single(params, 'ButtonText') ?? single(params, 'Body') ?? '';
  if (options.flavour === 'sms') {
    const keyword = carrierKeyword(text);
    if (keyword) {
      await options.onKeyword(name, address, keyword);
      return [];
    }
  }
  if (text.trim() === '') return [];
  const profileName = single(params, 'ProfileName');
  const userData: Record<string, string> = {
    phoneNumber: address,
    ...(profileName ? { whatsappName: profileName.slice(0, 200) } : {}),
  };
  const message: InboundMessage = {
    eventId: sid,
    address,
    input: { kind: 'text', text: text.slice(0, 4096) },
    userData,
  };
  return [message];
}

/** A rendered part as a message's content: an image as its MediaUrl (its caption the Body), a text as the Body. */
function contentOf(rendered: RenderedPart): { Body?: string; MediaUrl?: string[] } {
  const part = textOrImage(rendered);
  return part.kind === 'image'
    ? { MediaUrl: [part.url], ...(part.caption ? { Body: part.caption } : {}) }
    : { Body: part.text };
}
