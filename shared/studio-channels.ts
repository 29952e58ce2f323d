/**
 * The vendors' connectors as Settings → Channels shows them: each with the settings it reads, named
 * as the environment names them (docs/channels.md), so that one name means one setting whether it
 * is set in the environment or in the studio. Plain data, no zod: the server builds its routes'
 * schemas from it (studio-api.ts), the studio web app its forms.
 */

/** A setting of a connector. */
export interface ChannelSetting {
  /** The environment variable that sets it. */
  readonly variable: string;
  /** A credential: write-only in the studio (shown as set or not set, never read back). */
  readonly secret: boolean;
  /** The connector is off until it is set. */
  readonly required: boolean;
}

const setting = (variable: string, secret: boolean, required = true): ChannelSetting => ({
  variable,
  secret,
  required,
});

/**
 * The connectors, each with its settings and the channels it serves (a channel's name is its users'
 * channelId and its webhook's path segment, /api/webhooks/{channel}). Twilio serves SMS and WhatsApp
 * from one account: each of the two channels is on when its sender is set.
 */
export const CHANNEL_CONNECTORS = {
  telegram: {
    channels: ['telegram'],
    settings: [setting('TELEGRAM_BOT_TOKEN', true), setting('TELEGRAM_WEBHOOK_SECRET', true)],
  },
  whatsapp: {
    channels: ['whatsapp'],
    settings: [
      setting('WHATSAPP_PHONE_NUMBER_ID', false),
      setting('WHATSAPP_ACCESS_TOKEN', true),
      setting('WHATSAPP_APP_SECRET', true),
      setting('WHATSAPP_VERIFY_TOKEN', true),
    ],
  },
  twilio: {
    channels: ['twilio-sms', 'twilio-whatsapp'],
    settings: [
      setting('TWILIO_ACCOUNT_SID', false),
      setting('TWILIO_AUTH_TOKEN', true),
      setting('TWILIO_SMS_FROM', false, false),
      setting('TWILIO_WHATSAPP_FROM', false, false),
    ],
  },
  slack: {
    channels: ['slack'],
    settings: [setting('SLACK_BOT_TOKEN', true), setting('SLACK_SIGNING_SECRET', true)],
  },
  messenger: {
    channels: ['messenger'],
    settings: [
      setting('MESSENGER_PAGE_ACCESS_TOKEN', true),
      setting('MESSENGER_APP_SECRET', true),
      setting('MESSENGER_VERIFY_TOKEN', true),
      setting('MESSENGER_MESSAGE_TAG', false, false),
    ],
  },
  teams: {
    channels: ['teams'],
    settings: [setting('BOTFRAMEWORK_APP_ID', false), setting('BOTFRAMEWORK_APP_PASSWORD', true)],
  },
} as const satisfies Record<
  string,
  { readonly channels: readonly string[]; readonly settings: readonly ChannelSetting[] }
>;

export type ChannelConnectorName = keyof typeof CHANNEL_CONNECTORS;
export const CHANNEL_CONNECTOR_NAMES = Object.keys(CHANNEL_CONNECTORS) as ChannelConnectorName[];

/** Where a connector's settings come from: the environment wins over the studio, for the whole connector. */
export type ChannelSettingsSource = 'environment' | 'studio' | 'none';

/** The settings of a connector that the studio keeps, by variable; `null` removes one. */
export type ChannelSettingsChange = Readonly<Record<string, string | null>>;

/** The longest value a setting takes (an access token of Meta's is the longest, 1024 characters). */
export const MAX_CHANNEL_SETTING = 1024;
