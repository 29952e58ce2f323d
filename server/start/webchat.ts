import { clientIp } from '../settings/client-ip.ts';
import type { AppDeps } from '../app/deps.ts';
import { originPolicy } from '../channels/webchat/origin-policy.ts';
import { SessionTokens } from '../channels/webchat/session-tokens.ts';
import { attachWebchat, type ChatServer } from '../channels/webchat/socket-server.ts';
import type { Cluster } from '../cluster/cluster.ts';
import type { Config } from '../config.ts';

/** The web chat channel on the socket.io server: session tokens, origins, rate limits. */
export function wireWebchat(
  io: ChatServer,
  deps: AppDeps,
  options: {
    readonly config: Config;
    readonly sessionSecret: string;
    readonly cluster?: Cluster;
    /** The server's own origins, known once it listens (they are always allowed). */
    readonly ownOrigins: () => readonly string[];
    readonly draining: () => boolean;
  },
): void {
  const { config, cluster } = options;
  const sessions = new SessionTokens({
    secret: options.sessionSecret,
    previousSecret: config.SESSION_SECRET_PREVIOUS,
    ttlMs: config.SESSION_TTL,
    now: () => deps.clock.now(),
  });
  attachWebchat(io, deps, sessions, deps.logger, {
    identitySecret: config.BOT_IDENTITY_SECRET,
    linkByPhone: config.BOT_IDENTITY_LINK_PHONE === true,
    rateLimitPerMinute: config.WEBCHAT_RATE_LIMIT,
    clientIp: (req) => clientIp(req, config.TRUST_PROXY),
    checkOrigin: originPolicy({ allowed: config.ALLOWED_ORIGINS, own: options.ownOrigins, logger: deps.logger }),
    presence: cluster?.presence,
    userLimit: cluster ? sharedUserLimit(cluster, config.WEBCHAT_RATE_LIMIT) : undefined,
    draining: options.draining,
  });
}

/** WEBCHAT_RATE_LIMIT per user over every node: the per-connection bucket alone would let a user's tabs on several nodes add up. */
function sharedUserLimit(cluster: Cluster, perMinute: number): (userId: string) => Promise<boolean> {
  const limiter = cluster.limiter('webchat', perMinute, 60_000);
  return async (userId) => (await limiter.take(userId)).allowed;
}
