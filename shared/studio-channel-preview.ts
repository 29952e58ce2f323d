import { z } from 'zod';
import { PREVIEW_TEXT_MAX } from './channel-preview-limits.ts';
import type { BotMessage } from './protocol.ts';

/**
 * The studio preview's channel view: one bot message as each vendor channel shows it, after that
 * connector's rendering ladder (native buttons, a list, numbered text, cut titles and texts).
 */

/** The channels the preview shows a message on, besides the web chat (the connectors' names). */
export const PREVIEW_CHANNELS = ['telegram', 'whatsapp', 'twilio-sms', 'slack', 'messenger', 'teams'] as const;
export type PreviewChannel = (typeof PREVIEW_CHANNELS)[number];

/** A button as the channel shows it: a choice to tap, or a link (present on a link button). */
const channelButtonView = z.strictObject({ title: z.string(), url: z.string().optional() }).readonly();

/** One message the channel receives, as its user reads it. */
const channelPartView = z.discriminatedUnion('kind', [
  z
    .strictObject({
      kind: z.literal('text'),
      text: z.string(),
      buttons: z.array(channelButtonView).readonly().optional(),
      /** A list to pick a row from, opened by a button titled `button` (WhatsApp). */
      list: z
        .strictObject({ button: z.string(), rows: z.array(z.string()).readonly() })
        .readonly()
        .optional(),
      /** One-tap answers under the message (Telegram's reply keyboard, Messenger's quick replies). */
      quickReplies: z.array(z.string()).readonly().optional(),
    })
    .readonly(),
  z
    .strictObject({
      kind: z.literal('image'),
      url: z.string(),
      alt: z.string().optional(),
      caption: z.string().optional(),
      buttons: z.array(channelButtonView).readonly().optional(),
    })
    .readonly(),
  /** Several cards side by side in one message (Messenger's carousel). */
  z
    .strictObject({
      kind: z.literal('cards'),
      cards: z
        .array(
          z
            .strictObject({
              title: z.string(),
              subtitle: z.string().optional(),
              imageUrl: z.string().optional(),
              imageAlt: z.string().optional(),
              buttons: z.array(channelButtonView).readonly().optional(),
            })
            .readonly(),
        )
        .readonly(),
    })
    .readonly(),
]);
export type ChannelPartView = z.infer<typeof channelPartView>;
export type ChannelButtonView = z.infer<typeof channelButtonView>;

const channelRendering = z
  .strictObject({
    channel: z.enum(PREVIEW_CHANNELS),
    /** The message did not fit the channel's native form and went in a simpler one. */
    degraded: z.boolean(),
    parts: z.array(channelPartView).readonly(),
  })
  .readonly();
export type ChannelRendering = z.infer<typeof channelRendering>;

/** The answer of the preview's channel view: the message on each channel. */
export const channelPreviews = z
  .strictObject({ channels: z.array(channelRendering).readonly() })
  .readonly()
  .meta({ id: 'ChannelPreviews' });
export type ChannelPreviews = z.infer<typeof channelPreviews>;

const label = z.string().min(1).max(1000);
const button = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('postback'), label, payload: z.string().max(1000) }),
  z.strictObject({ kind: z.literal('url'), label, url: z.string().min(1).max(2000) }),
  z.strictObject({ kind: z.literal('dialog'), label, dialogId: z.string().min(1).max(64) }),
]);
const buttons = z.array(button).max(100).readonly().optional();

/** A bot message as the web chat received it (shared/protocol.ts's BotMessage), bounded. */
export const previewedMessage = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('text'),
    text: z.string().max(PREVIEW_TEXT_MAX),
    buttons,
    quickReplies: z
      .array(z.strictObject({ label, payload: z.string().max(1000) }))
      .max(100)
      .readonly()
      .optional(),
  }),
  z.strictObject({ type: z.literal('image'), url: z.string().min(1).max(2000), alt: z.string().max(1000) }),
  z.strictObject({
    type: z.literal('carousel'),
    cards: z
      .array(
        z.strictObject({
          title: z.string().max(1000),
          subtitle: z.string().max(1000).optional(),
          imageUrl: z.string().max(2000).optional(),
          imageAlt: z.string().max(1000).optional(),
          buttons,
        }),
      )
      .min(1)
      .max(10)
      .readonly(),
  }),
  z.strictObject({
    type: z.literal('notice'),
    level: z.enum(['fatal', 'info']),
    text: z.string().max(PREVIEW_TEXT_MAX),
  }),
]) satisfies z.ZodType<BotMessage>;
