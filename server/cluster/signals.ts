import type { Logger } from '../ports/logger.ts';
import type { RedisClient } from './redis-client.ts';

const PREFIX = 'chatbot:signal:';

/**
 * Fire-and-forget notes between nodes over Redis pub/sub ("dataset X changed"). A note lost
 * while Redis is away is acceptable by design: each one only says "read the store again", and
 * the store stays the truth.
 */
export class Signals {
  private readonly listeners = new Map<string, Array<(message: string) => void>>();

  constructor(
    private readonly publisher: RedisClient,
    private readonly subscriber: RedisClient,
    private readonly logger: Logger,
  ) {}

  async subscribe(topic: string, listener: (message: string) => void): Promise<void> {
    const known = this.listeners.get(topic);
    if (known) {
      known.push(listener);
      return;
    }
    this.listeners.set(topic, [listener]);
    await this.subscriber.subscribe(PREFIX + topic, (message: string) => {
      for (const each of this.listeners.get(topic) ?? []) {
        try {
          each(message);
        } catch (error) {
          this.logger.error(
            { event: 'cluster_signal_failed', topic, err: error },
            'a listener of a cluster signal failed',
          );
        }
      }
    });
  }

  async publish(topic: string, message: string): Promise<void> {
    await this.publisher.publish(PREFIX + topic, message);
  }
}
