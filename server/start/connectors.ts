import type { Config } from '../config.ts';
import type { AppDeps } from '../app/deps.ts';
import type { Connector } from '../channels/connector/connector.ts';
import { TURN_JOB, turnJobHandler } from '../channels/connector/inbound-job.ts';
import { SEND_JOB, connectorDelivery, sendJobHandler } from '../channels/connector/outbound.ts';
import { webhookHandler } from '../channels/connector/webhook.ts';
import { slackApi } from '../channels/slack/slack-api.ts';
import { SLACK, slackConnector } from '../channels/slack/slack-connector.ts';
import { telegramApi } from '../channels/telegram/telegram-api.ts';
import { telegramConnector } from '../channels/telegram/telegram-connector.ts';
import type { JobRunner } from '../jobs/job-runner.ts';
import type { ChannelInbox } from '../ports/channel-inbox.ts';
import type { Delivery } from '../ports/delivery.ts';
import type { Logger } from '../ports/logger.ts';
import type { WebhookHandler } from '../ports/webhook-request.ts';
import type { MongoStore } from '../stores/mongo/mongo-store.ts';
import { mongoChannelInbox } from '../stores/mongo/mongo-channel-inbox.ts';
import type { SqliteStore } from '../stores/sqlite/sqlite-store.ts';
import { sqliteChannelInbox } from '../stores/sqlite/sqlite-channel-inbox.ts';

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
export async function wireConnectors(config: Config, store: SqliteStore | MongoStore, logger: Logger, now: () => number): Promise<ConnectorWiring | undefined> {
  const connectors = new Map<string, Connector>();
  if (config.TELEGRAM_BOT_TOKEN && config.TELEGRAM_WEBHOOK_SECRET) {
    const call = telegramApi({ token: config.TELEGRAM_BOT_TOKEN, apiUrl: config.TELEGRAM_API_URL });
    connectors.set('telegram', telegramConnector({ call, secret: config.TELEGRAM_WEBHOOK_SECRET, token: config.TELEGRAM_BOT_TOKEN }));
  }
  if (config.SLACK_BOT_TOKEN && config.SLACK_SIGNING_SECRET) {
    const call = slackApi({ token: config.SLACK_BOT_TOKEN, apiUrl: config.SLACK_API_URL });
    connectors.set(SLACK, slackConnector({ call, signingSecret: config.SLACK_SIGNING_SECRET, token: config.SLACK_BOT_TOKEN, now }));
  }
  if (connectors.size === 0) return undefined;
  for (const name of connectors.keys()) {
    if (config.REST_CHANNELS.some((channel) => channel.name === name)) throw new Error(`REST_CHANNELS: the name "${name}" belongs to the ${name} channel; choose another`);
  }
  const inbox: ChannelInbox = store.kind === 'sqlite' ? sqliteChannelInbox(store.db) : await mongoChannelInbox(store.db);
  const purge = setInterval(() => {
    inbox.purge(now() - INBOX_KEEP_MS).catch((error: unknown) => logger.warn({ event: 'channel_inbox_purge_failed', err: error }, 'could not forget old inbound events; trying again in an hour'));
  }, INBOX_PURGE_EVERY_MS);
  purge.unref();
  logger.info({ event: 'channels', channels: [...connectors.keys()] }, `channels: ${[...connectors.keys()].join(', ')} (webhooks at /api/webhooks/{channel})`);
  return {
    connectors,
    deliveries: new Map([...connectors].map(([name, connector]) => [name, connectorDelivery(connector, now)])),
    secrets: [...connectors.values()].flatMap((connector) => connector.secrets),
    webhooks: (jobs) => webhookHandler({ connectors, inbox, scheduler: jobs, store, now }),
    register(jobs, deps) {
      jobs.register(TURN_JOB, turnJobHandler({ connectors, deps }));
      jobs.register(SEND_JOB, sendJobHandler({ store, scheduler: jobs, connectors, logger, now }));
    },
    close: () => clearInterval(purge),
  };
}
