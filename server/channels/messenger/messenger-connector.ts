import { HttpError } from '../../ports/http-error.ts';
import { SendFailure, type Connector } from '../connector/connector.ts';
import { truncate } from '../connector/graphemes.ts';
import type { Capabilities, RenderedButton, RenderedCard, RenderedPart } from '../connector/ladder.ts';
import { metaWebhook } from '../meta/meta-webhook.ts';
import type { MessengerBotTag } from '../../settings/messenger-tags.ts';
import type { MessengerSend } from './messenger-api.ts';
import { CHOICE_PAYLOAD, parseMessengerWebhook } from './messenger-inbound.ts';

/** The channel's name: the users' channelId and the webhook's path (/api/webhooks/messenger). */
export const MESSENGER = 'messenger';

/** Messenger's standard messaging window: a page answers freely this long after the person's last message. */
export const MESSENGER_WINDOW_MS = 24 * 3_600_000;

/** A button template's text holds at most 640 characters (a text message 2000). */
const BUTTON_TEMPLATE_TEXT_MAX = 640;
/** A generic template element's title and subtitle hold 80 characters each. */
const ELEMENT_TEXT_MAX = 80;

/**
 * Messenger's limits (the Send API reference): text 2000; a button template ≤ 3 buttons (postback or
 * web_url, titles ≤ 20); quick replies ≤ 13 (titles ≤ 20, payload ≤ 1000). More choices than three
 * buttons go as quick replies (the ladder's "list" rung), then as numbered text. A carousel is a
 * generic template of up to 10 elements (title and subtitle of 80 each, up to 3 buttons, and more than
 * a title); the following cards go in the next one. A card that does not fit (four buttons or more, a
 * title alone, an image without an http(s) address) goes on its own: with an image, a one-element
 * generic template.
 */
export const MESSENGER_CAPABILITIES: Capabilities = {
  textMax: 2000,
  captionMax: 2 * ELEMENT_TEXT_MAX + 1,
  buttons: { max: 3, titleMax: 20, idMaxBytes: 1000 - CHOICE_PAYLOAD.length, url: true },
  list: { max: 13, titleMax: 20, idMaxBytes: 1000 - CHOICE_PAYLOAD.length, buttonTitle: '' },
  quickReplies: { max: 13, titleMax: 20 },
  images: true,
  cards: {
    max: 10,
    titleMax: ELEMENT_TEXT_MAX,
    subtitleMax: ELEMENT_TEXT_MAX,
    buttons: 3,
    buttonTitleMax: 20,
    idMaxBytes: 1000 - CHOICE_PAYLOAD.length,
    titleOnly: false,
  },
};

export interface MessengerConnectorOptions {
  readonly send: MessengerSend;
  /** When the person last wrote (null: never, or unknown): decides the messaging type of each send. */
  readonly lastMessageAt: (address: string) => Promise<number | null>;
  readonly pageAccessToken: string;
  /** The app secret Meta signs webhooks with (App settings → Basic). */
  readonly appSecret: string;
  /** The token typed into the webhook's settings at Meta, echoed back in the subscription handshake. */
  readonly verifyToken: string;
  /** The tag messages outside the 24-hour window go with; none: nothing is sent outside it. */
  readonly messageTag?: MessengerBotTag;
  /** The page this bot answers for (MESSENGER_PAGE_ID); none: every page the app is subscribed to. */
  readonly pageId?: string;
  /** Told of each webhook entry of another page than `pageId`, which is not answered. */
  readonly onOtherPage?: (pageId: string) => void;
  readonly now: () => number;
}

const SETTING_NAMES = { appSecret: 'MESSENGER_APP_SECRET', verifyToken: 'MESSENGER_VERIFY_TOKEN' };

const outsideWindow = (last: number | null, now: number) => last === null || now - last >= MESSENGER_WINDOW_MS;

/**
 * Facebook Messenger (a page's conversations) as a connector: Meta's handshake and signature
 * (meta/), messages, quick-reply taps and postbacks in (echoes of the page's own messages skipped),
 * and out texts, button templates, quick replies, generic templates and images through the Send API.
 * Outside the 24-hour window only a message tag allowed for a bot may carry a message (MESSENGER_MESSAGE_TAG).
 */
export function messengerConnector(options: MessengerConnectorOptions): Connector {
  const tag = options.messageTag;
  return {
    name: MESSENGER,
    capabilities: MESSENGER_CAPABILITIES,
    secrets: [options.pageAccessToken, options.appSecret, options.verifyToken],
    ...metaWebhook(options, SETTING_NAMES),
    parse(body) {
      const parsed = parseMessengerWebhook(body, options.pageId);
      for (const page of parsed.otherPages) options.onOtherPage?.(page);
      return parsed.messages;
    },
    refuseSend(user, now) {
      // Unknown (null) is not "closed": a new person's greeting may be sent before the turn of their first message has stored its time.
      const last = user?.lastMessageAt ?? null;
      if (last === null || !outsideWindow(last, now) || tag) return undefined;
      return new SendFailure(
        'permanent',
        '10',
        `not sent: outside Messenger's 24-hour window (the person last wrote at ${new Date(last).toISOString()}) and no MESSENGER_MESSAGE_TAG is set`,
        undefined,
        'me/messages',
      );
    },
    admitTrigger(user, dialogId, now) {
      const last = user?.lastMessageAt ?? null;
      if (!outsideWindow(last, now) || (tag && last !== null)) return;
      const who =
        last === null ? 'this person has never written' : `this person last wrote at ${new Date(last).toISOString()}`;
      throw new HttpError(
        409,
        'messenger_window_closed',
        last === null
          ? `Messenger lets a page write only to a person who has written to it, and ${who}: dialog "${dialogId}" was not started.`
          : `Messenger delivers messages a person did not ask for only within 24 hours of their last message, and ${who}. Outside it only a message tag allowed for a bot may carry a message (MESSENGER_MESSAGE_TAG, not set): dialog "${dialogId}" was not started.`,
        { channel: MESSENGER, lastMessageAt: last === null ? null : new Date(last).toISOString() },
      );
    },
    async send(address, part) {
      const last = await options.lastMessageAt(address);
      const kind =
        last !== null && outsideWindow(last, options.now()) && tag
          ? { messaging_type: 'MESSAGE_TAG', tag }
          : { messaging_type: 'RESPONSE' };
      await options.send({ recipient: { id: address }, ...kind, message: messageFor(part) });
    },
  };
}

const templateButtons = (buttons: readonly RenderedButton[]) =>
  buttons.map((button) =>
    button.kind === 'url'
      ? { type: 'web_url', title: button.title, url: button.url }
      : { type: 'postback', title: button.title, payload: `${CHOICE_PAYLOAD}${button.id}` },
  );

/** A choice's number as the ladder gives it: its id is `<seq>.<index>` and it is the index-th + 1 of its message. */
const numberOf = (button: RenderedButton) => Number(button.kind === 'choice' ? button.id.split('.')[1] : NaN) + 1;

/** A card as a generic template element (title and subtitle already within 80). */
const element = (card: RenderedCard) => ({
  title: card.title,
  ...(card.subtitle ? { subtitle: card.subtitle } : {}),
  ...(card.imageUrl ? { image_url: card.imageUrl } : {}),
  ...(card.buttons?.length ? { buttons: templateButtons(card.buttons) } : {}),
});

const genericTemplate = (cards: readonly RenderedCard[]) => ({
  attachment: { type: 'template', payload: { template_type: 'generic', elements: cards.map(element) } },
});

/** An image with a caption or buttons (a card on its own) as a card: its caption's first line the title, the rest the subtitle. */
function imageCard(part: Extract<RenderedPart, { kind: 'image' }>): RenderedCard {
  const [first = '', ...rest] = (part.caption ?? '').split('\n');
  const title = truncate(first.trim() === '' ? (part.alt ?? '…') : first, ELEMENT_TEXT_MAX) || '…';
  const subtitle = truncate(rest.join(' ').trim(), ELEMENT_TEXT_MAX);
  return {
    title,
    ...(subtitle ? { subtitle } : {}),
    imageUrl: part.url,
    ...(part.buttons ? { buttons: part.buttons } : {}),
  };
}

/**
 * One rendered part as the `message` of a Send API call. Buttons make a button template (text ≤ 640:
 * a longer text goes with its choices as numbered lines, answered by number or title); a list is
 * quick replies carrying their choice; an image alone is an attachment; a card set, or a card on its
 * own, a generic template.
 */
export function messageFor(part: RenderedPart): Record<string, unknown> {
  if (part.kind === 'cards') return genericTemplate(part.cards);
  if (part.kind === 'image') {
    if (!part.caption && !part.buttons?.length)
      return { attachment: { type: 'image', payload: { url: part.url, is_reusable: true } } };
    return genericTemplate([imageCard(part)]);
  }
  if (part.list)
    return {
      text: part.text,
      quick_replies: part.list.rows.flatMap((row) =>
        row.kind === 'choice'
          ? [{ content_type: 'text', title: row.title, payload: `${CHOICE_PAYLOAD}${row.id}` }]
          : [],
      ),
    };
  if (part.quickReplies?.length)
    return {
      text: part.text,
      // Answered by its title, which Messenger sends back as the message's text.
      quick_replies: part.quickReplies.map((title, index) => ({
        content_type: 'text',
        title,
        payload: `reply:${index}`,
      })),
    };
  const buttons = part.buttons ?? [];
  if (buttons.length === 0) return { text: part.text };
  if (part.text.length > BUTTON_TEMPLATE_TEXT_MAX) {
    const lines = buttons.map((button) =>
      button.kind === 'choice' ? `${numberOf(button)}. ${button.title}` : `${button.title}: ${button.url}`,
    );
    const joined = lines.join('\n');
    return { text: `${truncate(part.text, MESSENGER_CAPABILITIES.textMax - joined.length - 2)}\n\n${joined}` };
  }
  return {
    attachment: {
      type: 'template',
      payload: { template_type: 'button', text: part.text, buttons: templateButtons(buttons) },
    },
  };
}
