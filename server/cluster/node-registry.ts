import type { RedisClient } from './redis-client.ts';

const NODES_KEY = 'chatbot:nodes';
/** A node that has not said it is alive for this long is counted out (SIGKILL, power cut). */
export const NODE_TTL_MS = 10_000;
const BEAT_MS = 3_000;

/**
 * Which nodes are alive: each writes its id with an expiry into one sorted set every few
 * seconds. It gives the node count the rate limits' shares follow, and lets presence ignore
 * the sockets of a node that died without saying goodbye.
 */
export class NodeRegistry {
  private timer: NodeJS.Timeout | undefined;
  private count = 1;

  constructor(
    private readonly client: RedisClient,
    readonly nodeId: string,
    private readonly now: () => number = Date.now,
  ) {}

  async start(): Promise<void> {
    await this.beat();
    this.timer = setInterval(() => void this.beat().catch(() => undefined), BEAT_MS);
    this.timer.unref();
  }

  /** Nodes alive as last seen (at least 1: this one). */
  nodes(): number {
    return this.count;
  }

  /** The ids among `ids` of nodes alive now. */
  async alive(ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const scores = await this.client.zmScore(NODES_KEY, [...ids]);
    const now = this.now();
    return new Set(ids.filter((_id, i) => (scores[i] ?? 0) > now));
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.client.zRem(NODES_KEY, this.nodeId).catch(() => undefined);
  }

  private async beat(): Promise<void> {
    const now = this.now();
    const [, , count] = await this.client
      .multi()
      .zAdd(NODES_KEY, { score: now + NODE_TTL_MS, value: this.nodeId })
      .zRemRangeByScore(NODES_KEY, 0, now)
      .zCard(NODES_KEY)
      .exec();
    this.count = Math.max(1, Number(count));
  }
}
