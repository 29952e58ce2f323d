import type { BotMessage } from '../../shared/protocol.ts';
import {
  PREVIEW_CHANNELS,
  type ChannelButtonView,
  type ChannelPartView,
  type ChannelRendering,
  type PreviewChannel,
} from '../../shared/studio-channel-preview.ts';
import { TEAMS_CAPABILITIES } from '../channels/botframework/teams-connector.ts';
import {
  renderMessage,
  type Capabilities,
  type RenderedButton,
  type RenderedPart,
} from '../channels/connector/ladder.ts';
import { MESSENGER_CAPABILITIES } from '../channels/messenger/messenger-connector.ts';
import { SLACK_CAPABILITIES } from '../channels/slack/slack-blocks.ts';
import { TELEGRAM_CAPABILITIES } from '../channels/telegram/telegram-connector.ts';
import { TWILIO_CAPABILITIES } from '../channels/twilio/twilio-connector.ts';
import { WHATSAPP_CAPABILITIES } from '../channels/whatsapp/whatsapp-connector.ts';

/** What each connector shows natively: the ladder takes its rungs from these, as the connectors' sends do. */
const CAPABILITIES: Readonly<Record<PreviewChannel, Capabilities>> = {
  telegram: TELEGRAM_CAPABILITIES,
  whatsapp: WHATSAPP_CAPABILITIES,
  'twilio-sms': TWILIO_CAPABILITIES.sms,
  slack: SLACK_CAPABILITIES,
  messenger: MESSENGER_CAPABILITIES,
  teams: TEAMS_CAPABILITIES,
};

const buttonView = (button: RenderedButton): ChannelButtonView =>
  button.kind === 'url' ? { title: button.title, url: button.url } : { title: button.title };

/** A rendered part without what only the vendor sees (the choices' ids). */
function partView(part: RenderedPart): ChannelPartView {
  if (part.kind === 'cards')
    return {
      kind: 'cards',
      cards: part.cards.map((card) => ({
        ...card,
        ...(card.buttons && card.buttons.length > 0 ? { buttons: card.buttons.map(buttonView) } : {}),
      })),
    };
  const buttons = part.buttons && part.buttons.length > 0 ? { buttons: part.buttons.map(buttonView) } : {};
  if (part.kind === 'image')
    return {
      kind: 'image',
      url: part.url,
      ...(part.alt ? { alt: part.alt } : {}),
      ...(part.caption ? { caption: part.caption } : {}),
      ...buttons,
    };
  return {
    kind: 'text',
    text: part.text,
    ...buttons,
    ...(part.list ? { list: { button: part.list.button, rows: part.list.rows.map((row) => row.title) } } : {}),
    ...(part.quickReplies && part.quickReplies.length > 0 ? { quickReplies: part.quickReplies } : {}),
  };
}

/**
 * One bot message through each connector's rendering ladder, for the studio preview's channel view;
 * `publicUrl` (PUBLIC_URL) as the connectors have it, for images given by their path.
 */
export function renderOnChannels(message: BotMessage, publicUrl?: string): ChannelRendering[] {
  return PREVIEW_CHANNELS.map((channel) => {
    const caps = publicUrl === undefined ? CAPABILITIES[channel] : { ...CAPABILITIES[channel], publicUrl };
    const rendered = renderMessage(message, caps, 1);
    return { channel, degraded: rendered.degraded, parts: rendered.parts.map(partView) };
  });
}
