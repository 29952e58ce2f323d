import type { Connector } from '../connector/connector.ts';
import { truncate } from '../connector/graphemes.ts';
import { textOrImage, type Capabilities, type RenderedButton, type RenderedPart } from '../connector/ladder.ts';
import { metaWebhook } from '../meta/meta-webhook.ts';
import { WHATSAPP_WINDOW_MS, type FilledTemplate } from '../meta/whatsapp-template.ts';
import { whatsAppWindow } from '../meta/whatsapp-window.ts';
import type { WhatsAppTemplate } from '../../definition/whatsapp-template.ts';
import type { WhatsAppSend } from './whatsapp-api.ts';
import { parseWhatsAppWebhook, type WhatsAppStatus } from './whatsapp-inbound.ts';

/** The channel's name: the users' channelId and the webhook's path (/api/webhooks/whatsapp). */
export const WHATSAPP = 'whatsapp';

export { WHATSAPP_WINDOW_MS };

/** An interactive message's body holds at most 1024 characters (Meta's BodyObject). */
const INTERACTIVE_BODY_MAX = 1024;

/**
 * The Cloud API's limits (Meta's reference: text 4096, caption 1024; reply buttons ≤ 3 with titles
 * ≤ 20 and ids ≤ 256; a list ≤ 10 rows with titles ≤ 24 and ids ≤ 200, opened by a button of ≤ 20).
 * Link buttons are a separate message kind of one button each (cta_url): links go as text lines.
 */
export const WHATSAPP_CAPABILITIES: Capabilities = {
  textMax: 4096,
  captionMax: 1024,
  buttons: { max: 3, titleMax: 20, idMaxBytes: 256, url: false },
  list: { max: 10, titleMax: 24, idMaxBytes: 200, buttonTitle: 'Choose' },
  quickReplies: null,
  images: true,
};

export interface WhatsAppConnectorOptions {
  readonly send: WhatsAppSend;
  readonly phoneNumberId: string;
  readonly accessToken: string;
  /** The app secret Meta signs webhooks with (App settings → Basic). */
  readonly appSecret: string;
  /** The token typed into the webhook's settings at Meta, echoed back in the subscription handshake. */
  readonly verifyToken: string;
  /** Where the statuses of the bot's messages go (sent, delivered, read, failed with Meta's code). */
  readonly onStatus: (status: WhatsAppStatus) => void;
  /** The approved template a dialog of the running bot opens with outside the 24-hour window (its `whatsappTemplate`); none: such a trigger is refused. */
  readonly dialogTemplate?: (dialogId: string) => WhatsAppTemplate | undefined;
}

const SETTING_NAMES = { appSecret: 'WHATSAPP_APP_SECRET', verifyToken: 'WHATSAPP_VERIFY_TOKEN' };

/**
 * WhatsApp through Meta's Cloud API as a connector: the webhook's subscription handshake
 * (hub.verify_token, compared in constant time), every POST checked against X-Hub-Signature-256 over
 * the raw bytes, texts, reply buttons and list replies in, and out texts, reply buttons (≤ 3), lists
 * (≤ 10 rows) and images. Statuses of sent messages go to the log.
 */
export function whatsAppConnector(options: WhatsAppConnectorOptions): Connector {
  return {
    name: WHATSAPP,
    capabilities: WHATSAPP_CAPABILITIES,
    secrets: [options.accessToken, options.appSecret, options.verifyToken],
    ...metaWebhook(options, SETTING_NAMES),
    parse(body: unknown) {
      const parsed = parseWhatsAppWebhook(body, options.phoneNumberId);
      for (const status of parsed.statuses) options.onStatus(status);
      return parsed.messages;
    },
    ...whatsAppWindow({
      channel: WHATSAPP,
      vendorCode: '131047',
      endpoint: 'messages',
      refusal: 'Meta accepts anything else and reports it failed later, 131047',
      template: (dialogId) => options.dialogTemplate?.(dialogId),
      templateName: (template) => `"${template.name}"`,
      sendTemplate: (address, template) => options.send(templateMessage(address, template)),
    }),
    async send(address: string, part: RenderedPart) {
      for (const message of messagesFor(address, part)) await options.send(message);
    },
  };
}

/** A template message as the Cloud API takes it: the approved template by name and language, its body's parameters as texts. */
export function templateMessage(to: string, template: FilledTemplate): Record<string, unknown> {
  const parameters = template.parameters.map((text) => ({ type: 'text', text }));
  return {
    to,
    type: 'template',
    template: {
      name: template.name,
      language: { policy: 'deterministic', code: template.language },
      ...(parameters.length > 0 ? { components: [{ type: 'body', parameters }] } : {}),
    },
  };
}

const replyButtons = (buttons: readonly RenderedButton[]) =>
  buttons.flatMap((button) =>
    button.kind === 'choice' ? [{ type: 'reply', reply: { id: button.id, title: button.title } }] : [],
  );

/** A choice's number as the ladder gives it: its id is `<seq>.<index>` and it is the index-th + 1 of its message. */
const numberOf = (button: RenderedButton) => Number(button.kind === 'choice' ? button.id.split('.')[1] : NaN) + 1;

/**
 * One rendered part as Cloud API messages. An interactive message's body holds 1024 characters where
 * a text holds 4096: a longer text goes as one text with its choices as numbered lines, which the
 * user answers by number or title. (Two messages, text then buttons, could send the text twice when
 * the second fails and the part is sent again.)
 */
export function messagesFor(to: string, rendered: RenderedPart): Record<string, unknown>[] {
  const part = textOrImage(rendered);
  if (part.kind === 'image') {
    const choices = replyButtons(part.buttons ?? []);
    if (choices.length === 0)
      return [{ to, type: 'image', image: { link: part.url, ...(part.caption ? { caption: part.caption } : {}) } }];
    return [
      {
        to,
        type: 'interactive',
        interactive: {
          type: 'button',
          header: { type: 'image', image: { link: part.url } },
          body: { text: part.caption || '…' },
          action: { buttons: choices },
        },
      },
    ];
  }
  const buttons = replyButtons(part.buttons ?? []);
  const interactive = buttons.length > 0 || part.list !== undefined;
  if (!interactive) return [{ to, type: 'text', text: { body: part.text, preview_url: false } }];
  if (part.text.length > INTERACTIVE_BODY_MAX) {
    const choices = [...(part.buttons ?? []), ...(part.list?.rows ?? [])].filter((button) => button.kind === 'choice');
    const lines = choices.map((choice) => `${numberOf(choice)}. ${choice.title}`).join('\n');
    const text = truncate(part.text, WHATSAPP_CAPABILITIES.textMax - lines.length - 2);
    return [{ to, type: 'text', text: { body: `${text}\n\n${lines}`, preview_url: false } }];
  }
  const body = part.text.trim() === '' ? '…' : part.text;
  if (part.list) {
    const rows = part.list.rows.flatMap((row) => (row.kind === 'choice' ? [{ id: row.id, title: row.title }] : []));
    return [
      {
        to,
        type: 'interactive',
        interactive: {
          type: 'list',
          body: { text: body },
          action: { button: truncate(part.list.button, 20), sections: [{ rows }] },
        },
      },
    ];
  }
  return [{ to, type: 'interactive', interactive: { type: 'button', body: { text: body }, action: { buttons } } }];
}
