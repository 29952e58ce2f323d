import { HttpError } from '../../ports/http-error.ts';
import type { WebhookRequest } from '../../ports/webhook-request.ts';
import { SendFailure, type Connector } from '../connector/connector.ts';
import { utf8Bytes } from '../connector/graphemes.ts';
import { type Capabilities, type RenderedButton, type RenderedCard, type RenderedPart } from '../connector/ladder.ts';
import { incomingActivitySchema, TEAMS_FACTS, toInbound } from './activity.ts';
import type { OutgoingActivity, SendActivity } from './connector-api.ts';
import type { RequestTokenCheck } from './request-token.ts';
import { serviceUrlAllowed, type ServiceUrlRule } from '../../settings/service-urls.ts';

/** The channel's name: the users' channelId and the webhook's path (/api/webhooks/teams). */
export const TEAMS = 'teams';

/**
 * Teams refuses a message over 28 KB, counted with what the Bot Framework adds to the activity (its
 * sender, recipient and conversation): a card set's activity is kept to 24 KB of JSON.
 */
const CARD_SET_MAX_BYTES = 24 * 1024;

/**
 * What Teams shows: a hero card with up to six buttons (messageBack for a choice, openUrl for a
 * link), suggested actions (up to six, imBack: a tap sends the title) for quick replies, images
 * in a hero card, and a carousel as hero cards side by side (`attachmentLayout: 'carousel'`, up to
 * ten). A message is kept far below Teams' 28 KB: 4000 characters of text (at most 12 KB of UTF-8),
 * 1000 under an image; a card set by its size (CARD_SET_MAX_BYTES).
 */
export const TEAMS_CAPABILITIES: Capabilities = {
  textMax: 4000,
  captionMax: 1000,
  buttons: { max: 6, titleMax: 50, idMaxBytes: 64, url: true },
  list: null,
  quickReplies: { max: 6, titleMax: 50 },
  images: true,
  cards: {
    max: 10,
    titleMax: 80,
    subtitleMax: 400,
    buttons: 6,
    buttonTitleMax: 50,
    idMaxBytes: 64,
    titleOnly: true,
    fits: (cards) => utf8Bytes(JSON.stringify(toActivity({ kind: 'cards', cards }))) <= CARD_SET_MAX_BYTES,
  },
};

/** Where a Teams user's conversation lives: read from their record when the bot sends (a proactive message included). */
export type ConversationReference = (address: string) => Promise<{ readonly serviceUrl: string } | null>;

export interface TeamsConnectorOptions {
  readonly checkToken: RequestTokenCheck;
  readonly sendActivity: SendActivity;
  readonly reference: ConversationReference;
  readonly serviceUrls: readonly ServiceUrlRule[];
  readonly appPassword: string;
}

/**
 * Microsoft Teams through the Bot Framework (Azure Bot Service) as a connector. Each request
 * carries the Bot Framework's signed token, checked against its published keys; the token's
 * `serviceUrl` claim must be the activity's, and that serviceUrl an allowed origin. The user is the
 * conversation (`teams:<conversation id>`); its serviceUrl is kept as the user fact
 * `teamsServiceUrl`, so answers and triggers alike know where to go.
 */
export function teamsConnector(options: TeamsConnectorOptions): Connector {
  return {
    name: TEAMS,
    capabilities: TEAMS_CAPABILITIES,
    // An activity with its entities and channel data is a few KB; Teams' own messages stop at 28 KB.
    maxBodyBytes: 256 * 1024,
    secrets: [options.appPassword],
    bodyFormat: 'json',
    async verify(request: WebhookRequest, raw: Buffer) {
      const { serviceUrl, channelId } = routingOf(raw);
      const claims = await options.checkToken(request.headers.authorization, channelId);
      // The token vouches for one serviceUrl: an activity naming another was not sent by the Bot Framework as it is.
      if (serviceUrl === undefined || claims.serviceUrl !== serviceUrl)
        throw new HttpError(
          403,
          'forbidden',
          "The activity's serviceUrl is not the one the Bot Framework token was issued for.",
        );
      if (!serviceUrlAllowed(serviceUrl, options.serviceUrls))
        throw new HttpError(403, 'forbidden', "The activity's serviceUrl is not among BOTFRAMEWORK_SERVICE_URLS.");
    },
    parse(body) {
      const activity = incomingActivitySchema.safeParse(body);
      if (!activity.success)
        throw new HttpError(
          400,
          'invalid_body',
          'The body is not a Bot Framework activity (type, serviceUrl and conversation.id are needed).',
        );
      if (activity.data.type === 'message' && !activity.data.id)
        throw new HttpError(400, 'invalid_body', 'A message activity needs an id.');
      return toInbound(activity.data);
    },
    admitTrigger(user, dialogId) {
      // Teams lets a bot write only where it has a conversation: refused now rather than a 202 that fails at send.
      if (referenceFrom(user)) return;
      throw new HttpError(
        409,
        'teams_no_conversation',
        `The bot has no conversation with this Teams user yet: Teams lets a bot write only to someone who installed it or wrote to it. Dialog "${dialogId}" was not started.`,
        { channel: TEAMS },
      );
    },
    async send(address, part) {
      const reference = await options.reference(address);
      if (!reference)
        throw new SendFailure(
          'permanent',
          'no_reference',
          'the bot has no conversation with this Teams user yet: a user must install the bot or write to it first',
          undefined,
          'activities',
        );
      await options.sendActivity(reference.serviceUrl, address, toActivity(part));
    },
  };
}

/** The activity's serviceUrl and channel, read from the raw body (before the token is trusted, for checking it only). */
function routingOf(raw: Buffer): { serviceUrl?: string; channelId?: string } {
  try {
    const body = JSON.parse(raw.toString('utf8')) as { serviceUrl?: unknown; channelId?: unknown };
    return {
      ...(typeof body.serviceUrl === 'string' ? { serviceUrl: body.serviceUrl } : {}),
      ...(typeof body.channelId === 'string' ? { channelId: body.channelId } : {}),
    };
  } catch {
    return {};
  }
}

/**
 * A rendered part as a Teams message: text, a hero card for an image or buttons, suggested actions for
 * quick replies, a carousel of hero cards for a card set.
 */
export function toActivity(part: RenderedPart): OutgoingActivity {
  if (part.kind === 'cards')
    return { type: 'message', attachmentLayout: 'carousel', attachments: part.cards.map(cardAttachment) };
  if (part.kind === 'image') {
    return {
      type: 'message',
      attachments: [
        heroCard({
          images: [{ url: part.url }],
          ...(part.caption ? { text: part.caption } : {}),
          ...buttonsOf(part.buttons),
        }),
      ],
    };
  }
  if (part.buttons && part.buttons.length > 0)
    return { type: 'message', attachments: [heroCard({ text: part.text, ...buttonsOf(part.buttons) })] };
  return {
    type: 'message',
    text: part.text,
    textFormat: 'plain',
    ...(part.quickReplies && part.quickReplies.length > 0
      ? { suggestedActions: { actions: part.quickReplies.map((title) => ({ type: 'imBack', title, value: title })) } }
      : {}),
  };
}

/** A card of a card set as a hero card: its title, subtitle, image and buttons. */
const cardAttachment = (card: RenderedCard) =>
  heroCard({
    title: card.title,
    ...(card.subtitle ? { subtitle: card.subtitle } : {}),
    ...(card.imageUrl ? { images: [{ url: card.imageUrl, ...(card.imageAlt ? { alt: card.imageAlt } : {}) }] } : {}),
    ...buttonsOf(card.buttons),
  });

const heroCard = (content: Record<string, unknown>) => ({
  contentType: 'application/vnd.microsoft.card.hero',
  content,
});

function buttonsOf(buttons: readonly RenderedButton[] | undefined): { buttons?: unknown[] } {
  if (!buttons || buttons.length === 0) return {};
  return {
    buttons: buttons.map((button) =>
      button.kind === 'url'
        ? { type: 'openUrl', title: button.title, value: button.url }
        : // messageBack: the title shows in the chat as the user's answer; the value names the choice exactly.
          {
            type: 'messageBack',
            title: button.title,
            text: button.title,
            displayText: button.title,
            value: { choice: button.id },
          },
    ),
  };
}

/** A user's conversation reference from their stored facts (see TEAMS_FACTS). */
export function referenceFrom(
  user: {
    readonly userData: Readonly<Record<string, unknown>>;
    readonly variables: Readonly<Record<string, unknown>>;
  } | null,
): { serviceUrl: string } | null {
  const serviceUrl = user?.userData[TEAMS_FACTS.serviceUrl] ?? user?.variables[TEAMS_FACTS.serviceUrl];
  return typeof serviceUrl === 'string' ? { serviceUrl } : null;
}
