import { deliveryByChannel } from '../channels/delivery-by-channel.ts';
import { warnRefusedCallbacks } from '../channels/rest/callback-url-check.ts';
import { restDelivery, type RestDelivery } from '../channels/rest/rest-delivery.ts';
import { CHANNEL_ID as WEBCHAT, socketDelivery, type ChatServer } from '../channels/webchat/socket-server.ts';
import type { Cluster } from '../cluster/cluster.ts';
import type { Config } from '../config.ts';
import type { BotDefinition } from '../definition/schema.ts';
import { SafeHttpClient } from '../integrations/http/safe-http-client.ts';
import type { JobRunner } from '../jobs/job-runner.ts';
import type { Clock } from '../ports/clock.ts';
import type { Delivery } from '../ports/delivery.ts';
import type { Logger } from '../ports/logger.ts';
import { channelSettingKey } from '../studio-server/channels/channel-settings.ts';
import { wireConnectors, type ConnectorWiring } from './connectors.ts';
import type { OpenedStore } from './open-store.ts';
import type { Studio } from './studio-server.ts';

export type ChannelDelivery = ReturnType<typeof deliveryByChannel>;

/** The channels besides the web chat: the generic REST channels and the vendors' connectors, and how a turn reaches each. */
export interface Channels {
  readonly restDeliveries: ReadonlyMap<string, RestDelivery>;
  readonly connectors: ConnectorWiring;
  /** The guarded client REST callbacks and event subscriptions leave through. */
  readonly callbackClient: SafeHttpClient;
  /** A user's channel, remembered for deliveries (once the socket server exists). */
  remember(userId: string, channelId: string): void;
  /** Each user's deliveries go to their channel; the web chat's sockets are the fallback. */
  delivery(io: ChatServer): ChannelDelivery;
  close(): void;
}

/** The channels' parts; the job runner is read when a delivery is scheduled (it is built after the channels). */
export async function openChannels(
  config: Config,
  store: OpenedStore,
  setup: {
    readonly logger: Logger;
    readonly clock: Clock;
    readonly cluster?: Cluster | undefined;
    readonly jobs: () => JobRunner;
    /** The definition the bot runs now (it changes when a version goes into service). */
    readonly definition?: () => BotDefinition;
    /** Where Settings → Channels keeps the connectors' settings (the environment's win). */
    readonly studio?: Pick<Studio, 'secrets'>;
  },
): Promise<Channels> {
  const { logger, clock, cluster } = setup;
  const now = () => clock.now();
  const scheduler = {
    schedule: (job: Parameters<JobRunner['schedule']>[0]) => setup.jobs().schedule(job),
    cancel: (id: string) => setup.jobs().cancel(id),
  };
  // The generic bot REST channels: each with its delivery; users are routed to theirs by channelId.
  const restDeliveries = new Map<string, RestDelivery>(
    config.REST_CHANNELS.map((channel) => [channel.name, restDelivery(channel, scheduler, logger, now)]),
  );
  // The vendors' channels (Telegram, …): each a connector over the one connector core, set in the environment or the studio.
  const secrets = setup.studio?.secrets;
  const connectors = await wireConnectors(
    config,
    store,
    logger,
    now,
    Object.assign((variable: string) => secrets?.value(channelSettingKey(variable)), {
      revision: () => secrets?.revision() ?? 0,
    }),
    (dialogId) => setup.definition?.().dialogs.find((dialog) => dialog.id === dialogId)?.whatsappTemplate,
  );
  warnImagePaths(config, [...connectors.connectors.keys()], logger);
  const callbackClient = new SafeHttpClient({ allowedHosts: config.INTEGRATION_ALLOWED_HOSTS });
  // A callbackUrl those rules refuse is said at start-up (in the background: a name may take a moment to resolve).
  void warnRefusedCallbacks(config.REST_CHANNELS, (url) => callbackClient.refusal(url), logger);
  let delivery: ChannelDelivery | undefined;
  return {
    restDeliveries,
    connectors,
    callbackClient,
    remember: (userId, channelId) => delivery?.remember(userId, channelId),
    delivery(io) {
      delivery = deliveryByChannel(
        store,
        {
          channels: new Map<string, Delivery>([...restDeliveries, ...connectors.deliveries]),
          fallback: socketDelivery(io, cluster?.presence),
        },
        logger,
      );
      // A connected web chat user's channel is known: their deliveries need no lookup.
      io.on('connection', (socket) => delivery?.remember(socket.data.userId, WEBCHAT));
      return delivery;
    },
    close() {
      connectors.close();
      callbackClient.close();
    },
  };
}

/**
 * Said once at start: without PUBLIC_URL, an image a bot gives by its path (`/images/a.png`) cannot
 * reach a vendor's channel, which fetches images itself from an absolute address; it goes as its
 * description instead (connector/image-address.ts).
 */
function warnImagePaths(config: Config, channels: readonly string[], logger: Logger): void {
  if (config.PUBLIC_URL !== undefined || channels.length === 0) return;
  logger.warn(
    { event: 'channel_image_paths_unresolved', setting: 'PUBLIC_URL', channels },
    `PUBLIC_URL is not set: an image the bot gives by its path (/images/…) cannot be sent to ${channels.join(', ')} (a vendor fetches an image from an absolute https address), so it goes as its description and a card without its image. Set PUBLIC_URL to the https address this server is reached by.`,
  );
}
