import { t } from './strings.ts';

/** The channels the server has connectors for, by their `channelId`, with the words people read for each. */
const NAMES = {
  webchat: 'channelWebchat',
  telegram: 'channelTelegram',
  whatsapp: 'channelWhatsapp',
  'twilio-sms': 'channelTwilioSms',
  'twilio-whatsapp': 'channelTwilioWhatsapp',
  slack: 'channelSlack',
  messenger: 'channelMessenger',
  teams: 'channelTeams',
} as const;

/** The built-in channels' ids, in the order the pickers list them. */
export const KNOWN_CHANNELS: readonly string[] = Object.keys(NAMES);

/** A channel in words ("Web chat", "Telegram"); a REST channel by its configured name. */
export function channelName(channelId: string): string {
  const key = NAMES[channelId as keyof typeof NAMES];
  return key ? t(key) : t('channelOther', { id: channelId });
}
