import type { z } from 'zod';
import {
  CHANNEL_CONNECTOR_NAMES,
  CHANNEL_CONNECTORS,
  type ChannelConnectorName,
} from '../../shared/studio-channels.ts';
import { configSchema, type Config } from '../config.ts';
import type { WhatsAppTemplate } from '../definition/whatsapp-template.ts';
import type { AppDeps } from '../app/deps.ts';
import { SendFailure, type Connector } from '../channels/connector/connector.ts';
import { TURN_JOB, turnJobHandler } from '../channels/connector/inbound-job.ts';
import { SEND_JOB, connectorDelivery, sendJobHandler } from '../channels/connector/outbound.ts';
import { webhookHandler } from '../channels/connector/webhook.ts';
import type { JobRunner } from '../jobs/job-runner.ts';
import { INBOX_KEEP_MS, type ChannelInbox } from '../ports/channel-inbox.ts';
import type { Delivery } from '../ports/delivery.ts';
import type { Logger } from '../ports/logger.ts';
import type { WebhookHandler } from '../ports/webhook-request.ts';
import { connectorSettings } from '../settings/channel-settings.ts';
import type { RunningConnectors, TestOutcome } from '../studio-server/channels/channel-settings.ts';
import { BUILDERS, type BuildParts } from './connector-builders.ts';
import { storeParts, type OpenedStore } from './open-store.ts';

/** Inbound events older than INBOX_KEEP_MS are forgotten once an hour. */
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

/**
 * The studio's value of a setting (as typed there), or undefined; with `revision`, a number that
 * changes whenever any value may have (equal revisions: nothing to compare again).
 */
export type StudioSettingLookup = ((variable: string) => string | undefined) & { readonly revision?: () => number };

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
  /** A dialog's WhatsApp template in the definition the bot runs now. */
  dialogTemplate: (dialogId: string) => WhatsAppTemplate | undefined = () => undefined,
): Promise<ConnectorWiring> {
  const live = liveConnectors(config, { store, logger, now, dialogTemplate }, studio);
  const { connectors } = live;
  for (const name of connectors.keys()) {
    if (config.REST_CHANNELS.some((channel) => channel.name === name))
      throw new Error(`REST_CHANNELS: the name "${name}" belongs to the ${name} channel; choose another`);
  }
  const inbox = lazyInbox(store, logger, now);
  // A store that cannot open the inbox stops start-up when a channel is configured, as before.
  if (connectors.size > 0) {
    await inbox.open();
    logger.info(
      { event: 'channels', channels: [...connectors.keys()] },
      `channels: ${[...connectors.keys()].join(', ')} (webhooks at /api/webhooks/{channel})`,
    );
  }
  return {
    connectors,
    deliveries: channelDeliveries(connectors, now),
    secrets: live.secrets,
    webhooks: (jobs) => webhookHandler({ connectors, inbox: inbox.inbox, scheduler: jobs, store, now }),
    register(jobs, deps) {
      // Both handlers read their payload through a schema (a copy of it): the runner need not copy it first.
      jobs.register(TURN_JOB, turnJobHandler({ connectors, deps }), { copiesPayload: true });
      jobs.register(
        SEND_JOB,
        sendJobHandler({
          ...{ store, scheduler: jobs, connectors, logger, now },
          events: () => deps().events,
          identityLinks: () => deps().identityLinks,
        }),
        { copiesPayload: true },
      );
    },
    settings: live.settings,
    check: (variable, value) => parseSetting(variable, value).problem,
    refusal: (connector) => {
      const taken = CHANNEL_CONNECTORS[connector].channels.find((channel) =>
        config.REST_CHANNELS.some((rest) => rest.name === channel),
      );
      return taken ? `REST_CHANNELS holds a channel named "${taken}"; rename it there first` : undefined;
    },
    sendTest: (channel, address, text) => sendTest(connectors.get(channel), { channel, address, text }, logger),
    close: inbox.close,
  };
}

/**
 * The connectors that are on, kept in line with their settings: a live view (and the live list of
 * their secrets) that compares the studio's values with those it was built from at each read, and
 * rebuilds only a connector whose settings changed.
 */
function liveConnectors(config: Config, parts: BuildParts, studio: StudioSettingLookup) {
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
  let seenRevision: number | undefined;
  const refresh = () => {
    // Every webhook, turn and send reads the connectors: with a revision, the settings are compared only once it moved.
    const revision = studio.revision?.();
    if (revision !== undefined && revision === seenRevision) return live;
    seenRevision = revision;
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
        parts.logger.info(
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
  return {
    connectors: liveView(refresh),
    secrets: secrets as readonly string[],
    settings: () => {
      refresh();
      return resolve();
    },
  };
}

/** The inbound events' inbox, opened at its first use (or at start when a channel is on), then purged hourly. */
function lazyInbox(store: OpenedStore, logger: Logger, now: () => number) {
  let opening: Promise<ChannelInbox> | undefined;
  let purge: NodeJS.Timeout | undefined;
  const open = () =>
    (opening ??= Promise.resolve(storeParts(store).channelInbox()).then((opened) => {
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
  const inbox: ChannelInbox = {
    accept: async (event) => (await open()).accept(event),
    purge: async (before) => (await open()).purge(before),
  };
  return { inbox, open, close: () => clearInterval(purge) };
}

/**
 * A delivery for every connector's channel, whether it is on or not, so that the delivery router
 * knows them all from the start: each finds the channel's connector when used (its settings may have
 * changed since). A channel turned off keeps its messages in the transcript; nothing is queued for it.
 */
function channelDeliveries(connectors: ReadonlyMap<string, Connector>, now: () => number): Map<string, Delivery> {
  const deliveriesOf = new WeakMap<Connector, Delivery>();
  const deliveryNow = (channel: string) => {
    const connector = connectors.get(channel);
    if (!connector) return undefined;
    let delivery = deliveriesOf.get(connector);
    if (!delivery) deliveriesOf.set(connector, (delivery = connectorDelivery(connector, now)));
    return delivery;
  };
  return new Map(
    CHANNEL_CONNECTOR_NAMES.flatMap((name) => CHANNEL_CONNECTORS[name].channels).map((channel) => [
      channel,
      {
        admitTrigger: (user, channelId, dialogId, at) =>
          deliveryNow(channel)?.admitTrigger?.(user, channelId, dialogId, at),
        handOff: (user, turn) => deliveryNow(channel)?.handOff?.(user, turn) ?? [],
        deliver: (userId, entries) => deliveryNow(channel)?.deliver(userId, entries),
        erasing: (userId, begins) => deliveryNow(channel)?.erasing?.(userId, begins),
        typing: () => undefined,
        event: () => undefined,
        reach: () => 'callback',
      } satisfies Delivery,
    ]),
  );
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
  test: { readonly channel: string; readonly address: string; readonly text: string },
  logger: Logger,
): Promise<TestOutcome> {
  const { channel } = test;
  if (!connector) return { channel, delivered: false, vendorCode: null, vendorAnswer: 'The channel is off.' };
  try {
    await connector.send(test.address, { kind: 'text', text: test.text });
    return { channel, delivered: true, vendorCode: null, vendorAnswer: 'The vendor accepted the message.' };
  } catch (error) {
    if (error instanceof SendFailure)
      return { channel, delivered: false, vendorCode: error.vendorCode, vendorAnswer: error.message };
    // Only a SendFailure's words are known to hold no credential: anything else is named by its kind.
    const kind = error instanceof Error ? error.name : 'error';
    logger.warn({ event: 'channel_test_failed', channel, kind }, `a test message on ${channel} failed (${kind})`);
    return {
      channel,
      delivered: false,
      vendorCode: null,
      vendorAnswer: `The connector failed before the vendor answered (${kind}).`,
    };
  }
}
