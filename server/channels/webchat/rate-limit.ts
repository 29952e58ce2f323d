/**
 * A token bucket per connection: bursts of up to `burst` events, refilled at
 * `perMinute` a minute. One noisy or scripted widget cannot flood the bot,
 * while a person typing fast never notices.
 */
export class TokenBucket {
  private tokens: number;
  private updatedAt: number;
  private readonly capacity: number;

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number,
    burst = 10,
  ) {
    this.capacity = Math.max(1, Math.min(burst, perMinute));
    this.tokens = this.capacity;
    this.updatedAt = now();
  }

  /** Takes one token; false when the bucket is empty. */
  take(): boolean {
    const now = this.now();
    this.tokens = Math.min(this.capacity, this.tokens + ((now - this.updatedAt) * this.perMinute) / 60_000);
    this.updatedAt = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}
