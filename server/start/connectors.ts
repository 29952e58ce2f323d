import type { Config } from '../config.ts';
import type { WhatsAppTemplate } from '../definition/whatsapp-template.ts';
import type { AppDeps } from '../app/deps.ts';
import { channelUserId, type Connector } from '../channels/connector/connector.ts';
import { TURN_JOB, turnJobHandler } from '../channels/connector/inbound-job.ts';
import { SEND_JOB, connectorDelivery, sendJobHandler } from '../channels/connector/outbound.ts';
import { webhookHandler } from '../channels/connector/webhook.ts';
import { botToken } from '../channels/botframework/bot-token.ts';
import { connectorApi } from '../channels/botframework/connector-api.ts';
import { requestTokenCheck } from '../channels/botframework/request-token.ts';
import { referenceFrom, TEAMS, teamsConnector } from '../channels/botframework/teams-connector.ts';
import { messengerApi } from '../channels/messenger/messenger-api.ts';
import { MESSENGER, messengerConnector } from '../channels/messenger/messenger-connector.ts';
import { slackApi } from '../channels/slack/slack-api.ts';
import { SLACK, slackConnector } from '../channels/slack/slack-connector.ts';
import { telegramApi } from '../channels/telegram/telegram-api.ts';
import { twilioApi } from '../channels/twilio/twilio-api.ts';
import { TWILIO_CHANNELS, twilioConnector } from '../channels/twilio/twilio-connector.ts';
import { twilioKeywordLog, twilioStatusLog } from '../channels/twilio/twilio-status-log.ts';
import { whatsAppApi } from '../channels/whatsapp/whatsapp-api.ts';
import { WHATSAPP, whatsAppConnector } from '../channels/whatsapp/whatsapp-connector.ts';
import { whatsAppStatusLog } from '../channels/whatsapp/whatsapp-status-log.ts';
import { telegramConnector } from '../channels/telegram/telegram-connector.ts';
import type { JobRunner } from '../jobs/job-runner.ts';
import type { ChannelInbox } from '../ports/channel-inbox.ts';
import type { Delivery } from '../ports/delivery.ts';
import type { Logger } from '../ports/logger.ts';
import type { WebhookHandler } from '../ports/webhook-request.ts';
import { storeParts, type OpenedStore } from './open-store.ts';

/** A vendor redelivers for a day at most: inbound events are remembered a week, then forgotten. */
const INBOX_KEEP_MS = 7 * 24 * 3_600_000;
const INBOX_PURGE_EVERY_MS = 3_600_000;

/** The connectors the environment configures (docs/channels.md), with what the server needs of them. */
export interface ConnectorWiring {
  readonly connectors: ReadonlyMap<string, Connector>;
  /** Each connector's delivery, by channel name, for the delivery router. */
  readonly deliveries: ReadonlyMap<string, Delivery>;
  /** Values never to log. */
  readonly secrets: readonly string[];
  /** The webhooks' handler, once the job runner exists. */
  webhooks(jobs: JobRunner): WebhookHandler;
  /** Registers the turn and send jobs. */
  register(jobs: JobRunner, deps: () => AppDeps): void;
  close(): void;
}

/** Builds the configured connectors; none configured costs nothing (no inbox opened, no route served). */
export async function wireConnectors(
  config: Config,
  store: OpenedStore,
  logger: Logger,
  now: () => number,
  /** A dialog's WhatsApp template in the definition the bot runs now. */
  dialogTemplate: (dialogId: string) => WhatsAppTemplate | undefined = () => undefined,
): Promise<ConnectorWiring | undefined> {
  const connectors = new Map<string, Connector>();
  if (config.TELEGRAM_BOT_TOKEN && config.TELEGRAM_WEBHOOK_SECRET) {
    const call = telegramApi({ token: config.TELEGRAM_BOT_TOKEN, apiUrl: config.TELEGRAM_API_URL });
    connectors.set(
      'telegram',
      telegramConnector({ call, secret: config.TELEGRAM_WEBHOOK_SECRET, token: config.TELEGRAM_BOT_TOKEN }),
    );
  }
  if (config.BOTFRAMEWORK_APP_ID && config.BOTFRAMEWORK_APP_PASSWORD) {
    const token = botToken({
      appId: config.BOTFRAMEWORK_APP_ID,
      appPassword: config.BOTFRAMEWORK_APP_PASSWORD,
      tokenUrl: config.BOTFRAMEWORK_TOKEN_URL,
      now,
    });
    connectors.set(
      TEAMS,
      teamsConnector({
        checkToken: requestTokenCheck({ appId: config.BOTFRAMEWORK_APP_ID, openIdUrl: config.BOTFRAMEWORK_OPENID_URL }),
        sendActivity: connectorApi(token, config.BOTFRAMEWORK_SERVICE_URLS),
        reference: async (address) => referenceFrom(await store.getUser(channelUserId(TEAMS, address))),
        serviceUrls: config.BOTFRAMEWORK_SERVICE_URLS,
        appPassword: config.BOTFRAMEWORK_APP_PASSWORD,
      }),
    );
  }
  if (
    config.WHATSAPP_ACCESS_TOKEN &&
    config.WHATSAPP_PHONE_NUMBER_ID &&
    config.WHATSAPP_APP_SECRET &&
    config.WHATSAPP_VERIFY_TOKEN
  ) {
    const send = whatsAppApi({
      accessToken: config.WHATSAPP_ACCESS_TOKEN,
      phoneNumberId: config.WHATSAPP_PHONE_NUMBER_ID,
      apiUrl: config.WHATSAPP_API_URL,
      apiVersion: config.WHATSAPP_API_VERSION,
    });
    const onStatus = whatsAppStatusLog(store, logger, now);
    connectors.set(
      WHATSAPP,
      whatsAppConnector({
        send,
        phoneNumberId: config.WHATSAPP_PHONE_NUMBER_ID,
        accessToken: config.WHATSAPP_ACCESS_TOKEN,
        appSecret: config.WHATSAPP_APP_SECRET,
        verifyToken: config.WHATSAPP_VERIFY_TOKEN,
        onStatus,
        dialogTemplate,
      }),
    );
  }
  if (config.MESSENGER_PAGE_ACCESS_TOKEN && config.MESSENGER_APP_SECRET && config.MESSENGER_VERIFY_TOKEN) {
    const token = config.MESSENGER_PAGE_ACCESS_TOKEN;
    connectors.set(
      MESSENGER,
      messengerConnector({
        send: messengerApi({
          pageAccessToken: token,
          apiUrl: config.MESSENGER_API_URL,
          apiVersion: config.MESSENGER_API_VERSION,
        }),
        lastMessageAt: async (address) =>
          (await store.getUser(channelUserId(MESSENGER, address)))?.lastMessageAt ?? null,
        pageAccessToken: token,
        appSecret: config.MESSENGER_APP_SECRET,
        verifyToken: config.MESSENGER_VERIFY_TOKEN,
        ...(config.MESSENGER_MESSAGE_TAG ? { messageTag: config.MESSENGER_MESSAGE_TAG } : {}),
        ...(config.MESSENGER_PAGE_ID ? { pageId: config.MESSENGER_PAGE_ID } : {}),
        onOtherPage: (pageId) =>
          logger.warn(
            { event: 'messenger_other_page', pageId },
            `a Messenger webhook entry for page ${pageId} was ignored: this bot answers for MESSENGER_PAGE_ID only`,
          ),
        now,
      }),
    );
  }
  if (config.TWILIO_ACCOUNT_SID && config.TWILIO_AUTH_TOKEN && config.PUBLIC_URL) {
    const send = twilioApi({
      accountSid: config.TWILIO_ACCOUNT_SID,
      authToken: config.TWILIO_AUTH_TOKEN,
      apiUrl: config.TWILIO_API_URL,
    });
    const senders = { sms: config.TWILIO_SMS_FROM, whatsapp: config.TWILIO_WHATSAPP_FROM };
    for (const flavour of ['sms', 'whatsapp'] as const) {
      const from = senders[flavour];
      if (!from) continue;
      const common = {
        send,
        accountSid: config.TWILIO_ACCOUNT_SID,
        authToken: config.TWILIO_AUTH_TOKEN,
        publicUrl: config.PUBLIC_URL,
      };
      connectors.set(
        TWILIO_CHANNELS[flavour],
        twilioConnector({
          ...common,
          flavour,
          from,
          onStatus: twilioStatusLog(store, logger, now),
          onKeyword: twilioKeywordLog(store, logger, now),
          dialogTemplate,
        }),
      );
    }
  }
  if (config.SLACK_BOT_TOKEN && config.SLACK_SIGNING_SECRET) {
    const call = slackApi({ token: config.SLACK_BOT_TOKEN, apiUrl: config.SLACK_API_URL });
    connectors.set(
      SLACK,
      slackConnector({ call, signingSecret: config.SLACK_SIGNING_SECRET, token: config.SLACK_BOT_TOKEN, now }),
    );
  }
  if (connectors.size === 0) return undefined;
  for (const name of connectors.keys()) {
    if (config.REST_CHANNELS.some((channel) => channel.name === name))
      throw new Error(`REST_CHANNELS: the name "${name}" belongs to the ${name} channel; choose another`);
  }
  const inbox: ChannelInbox = await storeParts(store).channelInbox();
  const purge = setInterval(() => {
    inbox
      .purge(now() - INBOX_KEEP_MS)
      .catch((error: unknown) =>
        logger.warn(
          { event: 'channel_inbox_purge_failed', err: error },
          'could not forget old inbound events; trying again in an hour',
        ),
      );
  }, INBOX_PURGE_EVERY_MS);
  purge.unref();
  logger.info(
    { event: 'channels', channels: [...connectors.keys()] },
    `channels: ${[...connectors.keys()].join(', ')} (webhooks at /api/webhooks/{channel})`,
  );
  return {
    connectors,
    deliveries: new Map([...connectors].map(([name, connector]) => [name, connectorDelivery(connector, now)])),
    secrets: [...connectors.values()].flatMap((connector) => connector.secrets),
    webhooks: (jobs) => webhookHandler({ connectors, inbox, scheduler: jobs, store, now }),
    register(jobs, deps) {
      jobs.register(TURN_JOB, turnJobHandler({ connectors, deps }));
      jobs.register(
        SEND_JOB,
        sendJobHandler({ store, scheduler: jobs, connectors, logger, now, events: () => deps().events }),
      );
    },
    close: () => clearInterval(purge),
  };
}
