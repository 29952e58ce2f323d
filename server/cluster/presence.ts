import type { NodeRegistry } from './node-registry.ts';
import type { RedisClient } from './redis-client.ts';

/** A user with no socket for this long loses the key anyway (a node that died mid-session leaves entries). */
const PRESENCE_TTL_S = 86_400;
const key = (userId: string) => `chatbot:presence:${userId}`;

/**
 * Which users have an open widget on some node: one hash per user, socket id → node id.
 * A trigger's 202 says `live` from it; delivery itself does not depend on it (the socket.io
 * adapter reaches every node, and replay from the store covers the rest).
 */
export class Presence {
  constructor(
    private readonly client: RedisClient,
    private readonly registry: NodeRegistry,
  ) {}

  async connected(userId: string, socketId: string): Promise<void> {
    await this.client
      .multi()
      .hSet(key(userId), socketId, this.registry.nodeId)
      .expire(key(userId), PRESENCE_TTL_S)
      .exec();
  }

  async disconnected(userId: string, socketId: string): Promise<void> {
    await this.client.hDel(key(userId), socketId);
  }

  /** True when a socket of the user is open on a node that is alive. */
  async isOnline(userId: string): Promise<boolean> {
    const nodes = Object.values(await this.client.hGetAll(key(userId)));
    if (nodes.length === 0) return false;
    return (await this.registry.alive([...new Set(nodes)])).size > 0;
  }
}
