import type { z } from 'zod';
import {
  CHANNEL_CONNECTOR_NAMES,
  CHANNEL_CONNECTORS,
  type ChannelConnectorName,
} from '../../shared/studio-channels.ts';
import { configSchema, type Config } from '../config.ts';
import type { AppDeps } from '../app/deps.ts';
import { channelUserId, SendFailure, type Connector } from '../channels/connector/connector.ts';
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
import { connectorSettings } from '../settings/channel-settings.ts';
import type { RunningConnectors, TestOutcome } from '../studio-server/channels/channel-settings.ts';
import { storeParts, type OpenedStore } from './open-store.ts';

/** A vendor redelivers for a day at most: inbound events are remembered a week, then forgotten. */
const INBOX_KEEP_MS = 7 * 24 * 3_600_000;
const INBOX_PURGE_EVERY_MS = 3_600_000;

/** The connectors, read from a source that can change (docs/channels.md), with what the server and Settings → Channels need of them. */
export interface ConnectorWiring extends RunningConnectors {
  /** The connectors on now, by channel name: a live view that follows a change of their settings. */
  readonly connectors: ReadonlyMap<string, Connector>;
  /** A delivery for every connector's channel, by name, for the delivery router; each finds its connector when used. */
  readonly deliveries: ReadonlyMap<string, Delivery>;
  /** Values never to log: a live list, kept to the settings in use. */
  readonly secrets: readonly string[];
  /** The webhooks' handler, once the job runner exists. */
  webhooks(jobs: JobRunner): WebhookHandler;
  /** Registers the turn and send jobs. */
  register(jobs: JobRunner, deps: () => AppDeps): void;
  close(): void;
}

/** The studio's value of a setting (as typed there), or undefined. */
export type StudioSettingLookup = (variable: string) => string | undefined;

type Build = (settings: Config, parts: BuildParts) => ReadonlyArray<readonly [string, Connector]>;
interface BuildParts {
  readonly store: OpenedStore;
  readonly logger: Logger;
  readonly now: () => number;
}

/** How each connector is built from its settings (all required ones are set when it is called). */
const BUILDERS: Record<ChannelConnectorName, Build> = {
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
  whatsapp: (s, { store, logger, now }) => {
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
    });
    return [[WHATSAPP, connector]];
  },
  messenger: (s, { store, now }) => {
    const token = s.MESSENGER_PAGE_ACCESS_TOKEN!;
    const connector = messengerConnector({
      send: messengerApi({ pageAccessToken: token, apiUrl: s.MESSENGER_API_URL, apiVersion: s.MESSENGER_API_VERSION }),
      lastMessageAt: async (address) => (await store.getUser(channelUserId(MESSENGER, address)))?.lastMessageAt ?? null,
      pageAccessToken: token,
      appSecret: s.MESSENGER_APP_SECRET!,
      verifyToken: s.MESSENGER_VERIFY_TOKEN!,
      ...(s.MESSENGER_MESSAGE_TAG ? { messageTag: s.MESSENGER_MESSAGE_TAG } : {}),
      now,
    });
    return [[MESSENGER, connector]];
  },
  twilio: (s, { store, logger, now }) => {
    const common = {
      send: twilioApi({ accountSid: s.TWILIO_ACCOUNT_SID!, authToken: s.TWILIO_AUTH_TOKEN!, apiUrl: s.TWILIO_API_URL }),
      accountSid: s.TWILIO_ACCOUNT_SID!,
      authToken: s.TWILIO_AUTH_TOKEN!,
      publicUrl: s.PUBLIC_URL!,
      onStatus: twilioStatusLog(store, logger, now),
      onKeyword: twilioKeywordLog(store, logger, now),
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

const SETTING_SCHEMAS = configSchema.shape as unknown as Record<string, z.ZodType>;

/** A value as the environment would take it: the same schema, so a setting means the same wherever it is set. */
function parseSetting(variable: string, raw: string): { value?: string; problem?: string } {
  const parsed = SETTING_SCHEMAS[variable]?.safeParse(raw);
  if (!parsed) return { problem: 'is not a setting of this connector' };
  if (!parsed.success) return { problem: parsed.error.issues[0]?.message ?? 'is not valid' };
  return typeof parsed.data === 'string' ? { value: parsed.data } : {};
}

/**
 * Builds the connectors from their settings (docs/channels.md): the environment's, else the studio's
 * (Settings → Channels). A connector is rebuilt when its settings change, on every node, without a
 * restart: each use compares the studio's values with those it was built from (a node learns of a
 * change when its studio secrets are read again, server/start/studio-server.ts). The webhook route is
 * served always (a channel set up in the studio answers at once); the inbox opens at the first webhook.
 */
export async function wireConnectors(
  config: Config,
  store: OpenedStore,
  logger: Logger,
  now: () => number,
  studio: StudioSettingLookup = () => undefined,
): Promise<ConnectorWiring> {
  const parts: BuildParts = { store, logger, now };
  const variables = CHANNEL_CONNECTOR_NAMES.flatMap((name) => CHANNEL_CONNECTORS[name].settings.map((s) => s.variable));
  const environment = (variable: string) =>
    (config as unknown as Record<string, unknown>)[variable] as string | undefined;
  const studioValue = (variable: string) => {
    const raw = studio(variable);
    return raw === undefined ? undefined : parseSetting(variable, raw).value;
  };
  const resolve = () =>
    CHANNEL_CONNECTOR_NAMES.map((name) =>
      connectorSettings(name, { environment, studio: studioValue, publicUrl: config.PUBLIC_URL }),
    );

  const live = new Map<string, Connector>();
  const secrets: string[] = [];
  const built = new Map<ChannelConnectorName, { key: string; channels: readonly string[] }>();
  let seen: string | undefined;
  /** Brings the connectors in line with their settings; costs a comparison when nothing changed. */
  const refresh = () => {
    const current = variables.map((variable) => studio(variable) ?? '').join('\u0000');
    if (current === seen) return live;
    seen = current;
    for (const settings of resolve()) {
      const key = settings.on ? JSON.stringify(settings.values) : '';
      const before = built.get(settings.connector);
      if (before?.key === key) continue;
      for (const channel of before?.channels ?? []) live.delete(channel);
      const made = settings.on ? BUILDERS[settings.connector]({ ...config, ...settings.values } as Config, parts) : [];
      for (const [channel, connector] of made) live.set(channel, connector);
      built.set(settings.connector, { key, channels: made.map(([channel]) => channel) });
      if (before)
        logger.info(
          {
            event: 'channel_settings_applied',
            connector: settings.connector,
            source: settings.source,
            on: settings.on,
          },
          `${settings.connector}: settings applied (${settings.on ? `on: ${settings.channels.join(', ')}` : 'off'})`,
        );
    }
    // In place: the request log holds this very list.
    secrets.splice(0, secrets.length, ...[...live.values()].flatMap((connector) => connector.secrets));
    return live;
  };
  refresh();
  for (const name of live.keys()) {
    if (config.REST_CHANNELS.some((channel) => channel.name === name))
      throw new Error(`REST_CHANNELS: the name "${name}" belongs to the ${name} channel; choose another`);
  }
  const connectors = liveView(refresh);

  let inbox: Promise<ChannelInbox> | undefined;
  let purge: NodeJS.Timeout | undefined;
  const openInbox = () =>
    (inbox ??= Promise.resolve(storeParts(store).channelInbox()).then((opened) => {
      purge = setInterval(() => {
        opened
          .purge(now() - INBOX_KEEP_MS)
          .catch((error: unknown) =>
            logger.warn(
              { event: 'channel_inbox_purge_failed', err: error },
              'could not forget old inbound events; trying again in an hour',
            ),
          );
      }, INBOX_PURGE_EVERY_MS);
      purge.unref();
      return opened;
    }));
  const lazyInbox: ChannelInbox = {
    accept: async (event) => (await openInbox()).accept(event),
    purge: async (before) => (await openInbox()).purge(before),
  };
  // A store that cannot open the inbox stops start-up when a channel is configured, as before.
  if (live.size > 0) {
    await openInbox();
    logger.info(
      { event: 'channels', channels: [...live.keys()] },
      `channels: ${[...live.keys()].join(', ')} (webhooks at /api/webhooks/{channel})`,
    );
  }

  const deliveriesOf = new WeakMap<Connector, Delivery>();
  const deliveryNow = (channel: string) => {
    const connector = connectors.get(channel);
    if (!connector) return undefined;
    let delivery = deliveriesOf.get(connector);
    if (!delivery) deliveriesOf.set(connector, (delivery = connectorDelivery(connector, now)));
    return delivery;
  };
  const deliveries = new Map<string, Delivery>(
    CHANNEL_CONNECTOR_NAMES.flatMap((name) => CHANNEL_CONNECTORS[name].channels).map((channel) => [
      channel,
      {
        admitTrigger: (user, channelId, dialogId, at) =>
          deliveryNow(channel)?.admitTrigger?.(user, channelId, dialogId, at),
        // A channel turned off keeps its messages in the transcript; nothing is queued for it.
        handOff: (user, turn) => deliveryNow(channel)?.handOff?.(user, turn) ?? [],
        deliver: () => undefined,
        typing: () => undefined,
        event: () => undefined,
        reach: () => 'callback',
      } satisfies Delivery,
    ]),
  );

  return {
    connectors,
    deliveries,
    secrets,
    webhooks: (jobs) => webhookHandler({ connectors, inbox: lazyInbox, scheduler: jobs, store, now }),
    register(jobs, deps) {
      jobs.register(TURN_JOB, turnJobHandler({ connectors, deps }));
      jobs.register(
        SEND_JOB,
        sendJobHandler({ store, scheduler: jobs, connectors, logger, now, events: () => deps().events }),
      );
    },
    settings: () => {
      refresh();
      return resolve();
    },
    check: (variable, value) => parseSetting(variable, value).problem,
    refusal: (connector) => {
      const taken = CHANNEL_CONNECTORS[connector].channels.find((channel) =>
        config.REST_CHANNELS.some((rest) => rest.name === channel),
      );
      return taken ? `REST_CHANNELS holds a channel named "${taken}"; rename it there first` : undefined;
    },
    sendTest: (channel, address, text) => sendTest(connectors.get(channel), channel, address, text),
    close: () => {
      if (purge) clearInterval(purge);
    },
  };
}

/** A read-only map that is brought up to date before each read. */
function liveView<V>(current: () => ReadonlyMap<string, V>): ReadonlyMap<string, V> {
  return {
    get: (key) => current().get(key),
    has: (key) => current().has(key),
    get size() {
      return current().size;
    },
    forEach: (callback, thisArg) => current().forEach(callback, thisArg),
    entries: () => current().entries(),
    keys: () => current().keys(),
    values: () => current().values(),
    [Symbol.iterator]: () => current()[Symbol.iterator](),
  };
}

/** One text part down the connector's real send, outside the queue, so the vendor's answer can be told at once. */
async function sendTest(
  connector: Connector | undefined,
  channel: string,
  address: string,
  text: string,
): Promise<TestOutcome> {
  if (!connector) return { channel, delivered: false, vendorCode: null, vendorAnswer: 'The channel is off.' };
  try {
    await connector.send(address, { kind: 'text', text });
    return { channel, delivered: true, vendorCode: null, vendorAnswer: 'The vendor accepted the message.' };
  } catch (error) {
    if (error instanceof SendFailure)
      return { channel, delivered: false, vendorCode: error.vendorCode, vendorAnswer: error.message };
    throw error;
  }
}
