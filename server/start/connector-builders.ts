import type { ChannelConnectorName } from '../../shared/studio-channels.ts';
import type { Config } from '../config.ts';
import type { WhatsAppTemplate } from '../definition/whatsapp-template.ts';
import { channelUserId, type Connector } from '../channels/connector/connector.ts';
import { botToken } from '../channels/botframework/bot-token.ts';
import { connectorApi } from '../channels/botframework/connector-api.ts';
import { requestTokenCheck } from '../channels/botframework/request-token.ts';
import { referenceFrom, TEAMS, teamsConnector } from '../channels/botframework/teams-connector.ts';
import { messengerApi } from '../channels/messenger/messenger-api.ts';
import { MESSENGER, messengerConnector } from '../channels/messenger/messenger-connector.ts';
import { slackApi } from '../channels/slack/slack-api.ts';
import { SLACK, slackConnector } from '../channels/slack/slack-connector.ts';
import { telegramApi } from '../channels/telegram/telegram-api.ts';
import { telegramConnector } from '../channels/telegram/telegram-connector.ts';
import { twilioApi } from '../channels/twilio/twilio-api.ts';
import { TWILIO_CHANNELS, twilioConnector } from '../channels/twilio/twilio-connector.ts';
import { twilioKeywordLog, twilioStatusLog } from '../channels/twilio/twilio-status-log.ts';
import { whatsAppApi } from '../channels/whatsapp/whatsapp-api.ts';
import { WHATSAPP, whatsAppConnector } from '../channels/whatsapp/whatsapp-connector.ts';
import { whatsAppStatusLog } from '../channels/whatsapp/whatsapp-status-log.ts';
import type { Logger } from '../ports/logger.ts';
import type { OpenedStore } from './open-store.ts';

/** Builds a connector's channels from its settings (all required ones are set when it is called). */
export type Build = (settings: Config, parts: BuildParts) => ReadonlyArray<readonly [string, Connector]>;
export interface BuildParts {
  readonly store: OpenedStore;
  readonly logger: Logger;
  readonly now: () => number;
  /** A dialog's WhatsApp template in the definition the bot runs now. */
  readonly dialogTemplate: (dialogId: string) => WhatsAppTemplate | undefined;
}

/** How each vendor's connectors are built from its settings. */
const VENDOR_BUILDERS: Record<ChannelConnectorName, Build> = {
  telegram: (s) => {
    const token = s.TELEGRAM_BOT_TOKEN!;
    const call = telegramApi({ token, apiUrl: s.TELEGRAM_API_URL });
    return [['telegram', telegramConnector({ call, secret: s.TELEGRAM_WEBHOOK_SECRET!, token })]];
  },
  teams: (s, { store, now }) => {
    const token = botToken({
      appId: s.BOTFRAMEWORK_APP_ID!,
      appPassword: s.BOTFRAMEWORK_APP_PASSWORD!,
      tokenUrl: s.BOTFRAMEWORK_TOKEN_URL,
      now,
    });
    const connector = teamsConnector({
      checkToken: requestTokenCheck({ appId: s.BOTFRAMEWORK_APP_ID!, openIdUrl: s.BOTFRAMEWORK_OPENID_URL }),
      sendActivity: connectorApi(token, s.BOTFRAMEWORK_SERVICE_URLS),
      reference: async (address) => referenceFrom(await store.getUser(channelUserId(TEAMS, address))),
      serviceUrls: s.BOTFRAMEWORK_SERVICE_URLS,
      appPassword: s.BOTFRAMEWORK_APP_PASSWORD!,
    });
    return [[TEAMS, connector]];
  },
  whatsapp: (s, { store, logger, now, dialogTemplate }) => {
    const send = whatsAppApi({
      accessToken: s.WHATSAPP_ACCESS_TOKEN!,
      phoneNumberId: s.WHATSAPP_PHONE_NUMBER_ID!,
      apiUrl: s.WHATSAPP_API_URL,
      apiVersion: s.WHATSAPP_API_VERSION,
    });
    const connector = whatsAppConnector({
      send,
      phoneNumberId: s.WHATSAPP_PHONE_NUMBER_ID!,
      accessToken: s.WHATSAPP_ACCESS_TOKEN!,
      appSecret: s.WHATSAPP_APP_SECRET!,
      verifyToken: s.WHATSAPP_VERIFY_TOKEN!,
      onStatus: whatsAppStatusLog(store, logger, now),
      dialogTemplate,
    });
    return [[WHATSAPP, connector]];
  },
  messenger: (s, { store, logger, now }) => {
    const token = s.MESSENGER_PAGE_ACCESS_TOKEN!;
    const connector = messengerConnector({
      send: messengerApi({ pageAccessToken: token, apiUrl: s.MESSENGER_API_URL, apiVersion: s.MESSENGER_API_VERSION }),
      lastMessageAt: async (address) => (await store.getUser(channelUserId(MESSENGER, address)))?.lastMessageAt ?? null,
      pageAccessToken: token,
      appSecret: s.MESSENGER_APP_SECRET!,
      verifyToken: s.MESSENGER_VERIFY_TOKEN!,
      ...(s.MESSENGER_MESSAGE_TAG ? { messageTag: s.MESSENGER_MESSAGE_TAG } : {}),
      ...(s.MESSENGER_PAGE_ID ? { pageId: s.MESSENGER_PAGE_ID } : {}),
      onOtherPage: (pageId) =>
        logger.warn(
          { event: 'messenger_other_page', pageId },
          `a Messenger webhook entry for page ${pageId} was ignored: this bot answers for MESSENGER_PAGE_ID only`,
        ),
      now,
    });
    return [[MESSENGER, connector]];
  },
  twilio: (s, { store, logger, now, dialogTemplate }) => {
    const common = {
      send: twilioApi({ accountSid: s.TWILIO_ACCOUNT_SID!, authToken: s.TWILIO_AUTH_TOKEN!, apiUrl: s.TWILIO_API_URL }),
      accountSid: s.TWILIO_ACCOUNT_SID!,
      authToken: s.TWILIO_AUTH_TOKEN!,
      publicUrl: s.PUBLIC_URL!,
      onStatus: twilioStatusLog(store, logger, now),
      onKeyword: twilioKeywordLog(store, logger, now),
      dialogTemplate,
    };
    const senders = { sms: s.TWILIO_SMS_FROM, whatsapp: s.TWILIO_WHATSAPP_FROM };
    return (['sms', 'whatsapp'] as const).flatMap((flavour) => {
      const from = senders[flavour];
      return from ? [[TWILIO_CHANNELS[flavour], twilioConnector({ ...common, flavour, from })] as const] : [];
    });
  },
  slack: (s, { now }) => {
    const call = slackApi({ token: s.SLACK_BOT_TOKEN!, apiUrl: s.SLACK_API_URL });
    return [[SLACK, slackConnector({ call, signingSecret: s.SLACK_SIGNING_SECRET!, token: s.SLACK_BOT_TOKEN!, now })]];
  },
};

/**
 * The connector with the server's public address in its capabilities: an image a bot gives by its path
 * (`/images/a.png`) reaches the vendor as an absolute address on it (connector/image-address.ts).
 */
function withPublicUrl(connector: Connector, settings: Config): Connector {
  if (settings.PUBLIC_URL === undefined) return connector;
  return { ...connector, capabilities: { ...connector.capabilities, publicUrl: settings.PUBLIC_URL } };
}

/** How each connector is built from its settings, with the server's public address its images are fetched from. */
export const BUILDERS = Object.fromEntries(
  Object.entries(VENDOR_BUILDERS).map(([name, build]): [string, Build] => [
    name,
    (settings, parts) =>
      build(settings, parts).map(([channel, connector]) => [channel, withPublicUrl(connector, settings)]),
  ]),
) as Record<ChannelConnectorName, Build>;
