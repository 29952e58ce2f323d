import type { Server as HttpServer } from 'node:http';
import { Server } from 'socket.io';
import type { createMetrics } from '../api/metrics.ts';
import { publicOrigin, type PublicBases } from '../api/public-origin.ts';
import type { BotService } from '../bot/bot-service.ts';
import type { ChatServer } from '../channels/webchat/socket-server.ts';
import type { Cluster } from '../cluster/cluster.ts';
import type { Config } from '../config.ts';
import type { Clock } from '../ports/clock.ts';
import type { Store } from '../ports/store.ts';

/** The socket.io server on the HTTP server: the web chat's and the studio preview's namespaces live on it. */
export function socketServer(http: HttpServer, cluster: Cluster | undefined): ChatServer {
  return new Server(http, {
    // CORS lets every page read the answer, so a refused origin learns why (attachWebchat's
    // checkOrigin refuses it with a code); it grants nothing, as no cookie is ever involved.
    cors: { origin: true, credentials: false },
    maxHttpBufferSize: 64 * 1024,
    // Cluster mode: rooms span every node, so a turn on any node reaches the user's widgets on all.
    ...(cluster ? { adapter: cluster.adapter } : {}),
  });
}

/**
 * What /metrics reads (due jobs, datasets' ages, sockets and connected users), and each socket's
 * public origin for the links the bot sends. Registered before the channel's own handler, which
 * may already send the greeting's links.
 */
export function watchSockets(
  io: ChatServer,
  parts: {
    readonly metrics: ReturnType<typeof createMetrics>;
    readonly bases: PublicBases;
    readonly store: Store;
    readonly bot: BotService;
    readonly clock: Clock;
    readonly config: Pick<Config, 'TRUST_PROXY'>;
  },
): void {
  const { metrics, store, bot, clock } = parts;
  metrics.watch({
    dueJobs: () => store.dueJobs(clock.now()),
    datasets: async () =>
      Promise.all(
        bot.current.runtime.datasets
          .names()
          .map(async (name) => ({ name, updatedAt: (await store.datasetInfo(name))?.updatedAt ?? null })),
      ),
    now: () => clock.now(),
  });
  io.on('connection', (socket) => {
    parts.bases.remember(socket.data.userId, publicOrigin(socket.request, parts.config.TRUST_PROXY));
    metrics.socketConnected();
    socket.on('disconnect', (reason) => metrics.socketDisconnected(reason));
  });
  metrics.countConnectedUsers(() => new Set([...io.of('/').sockets.values()].map((socket) => socket.data.userId)).size);
}
