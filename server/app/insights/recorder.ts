import type { Logger } from '../../ports/logger.ts';
import type { UserRecord } from '../../ports/store.ts';
import type { ObservedTurn, TurnEvent, TurnNote, TurnObserver } from '../../ports/turn-observer.ts';
import { advanceTrail, readTrail, summaryOf, TRAIL_KEY } from './trail.ts';
import { turnFacts } from './turn-facts.ts';
import {
  dayOf,
  latencyBucket,
  type ConversationSummary,
  type CountDelta,
  type InsightsBatch,
  type InsightsStore,
} from '../../ports/insights.ts';

export interface RecorderOptions {
  readonly store: InsightsStore;
  readonly logger: Logger;
  readonly now: () => number;
  /** The published version in service now. */
  readonly version: () => string;
  /** Whether a user is a preview user, and their channel (read once, then remembered for a while); undefined for no such user. */
  readonly userOf: (userId: string) => Promise<{ readonly preview: boolean; readonly channel: string } | undefined>;
  /** A conversation ends after this long without a turn (INSIGHTS_WINDOW). */
  readonly windowMs: number;
  /** How often the counters are written; 1 s by default. */
  readonly flushMs?: number;
}

/** Pending changes kept while the store is away, at most this many keys; past it the oldest are dropped and logged. */
const MAX_PENDING = 100_000;
const PREVIEW_CACHE = 10_000;

/**
 * Adds up what turns (it observes them, ports/turn-observer.ts), integration calls, link clicks and
 * sent messages tell insights, in memory,
 * and writes it about once a second in one batch (InsightsStore.record). A turn pays for a few
 * map updates only; the store sees one write a second however busy the bot is, and counters of a
 * node never race each other. A crash loses at most the last second's counts (never a record: the
 * transcript and the logs are written with the turn as before).
 */
export class InsightsRecorder implements TurnObserver {
  /** The recorder's own copies, added to in place: a turn moves a few counters, and a new object each time was most of their cost. */
  private counts = new Map<string, { -readonly [K in keyof CountDelta]: CountDelta[K] }>();
  private summaries = new Map<string, ConversationSummary>();
  /** Users with a failed integration call, by the start of the conversation it belongs to (see failedSince). */
  private readonly failures = new Map<string, number>();
  /** What the counters of a user's calls, clicks and sent messages need to know of them. */
  private readonly users = new Map<string, CountedUser>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  /**
   * A batch whose write failed, kept whole with its id and written again, unchanged, before
   * anything newer: the store may have written some of its documents already, and it skips
   * those by the id (InsightsBatch.id), so no count lands twice. Merging it into newer counts
   * would give it a new id, and the documents already written would count it again.
   */
  private failed: InsightsBatch | undefined;

  constructor(private readonly options: RecorderOptions) {}

  start(): void {
    this.timer ??= setInterval(() => void this.flush(), this.options.flushMs ?? 1000);
    this.timer.unref();
  }

  /**
   * A turn about to be committed: the conversation's trail after it rides in the user's variables
   * (TRAIL_KEY), and once the turn is committed its counters and conversation are added up.
   */
  observe(turn: ObservedTurn): TurnNote {
    const { userId } = turn.user;
    const before = turn.user.variables[TRAIL_KEY];
    const previous = readTrail(before);
    const since = previous && turn.now - previous.l < this.options.windowMs ? previous.c : turn.now;
    const version = this.options.version();
    const { trail, counts } = advanceTrail(
      turnFacts(turn, {
        version,
        windowMs: this.options.windowMs,
        before,
        failedBefore: this.failedSince(userId, since),
      }),
    );
    return {
      variables: { [TRAIL_KEY]: trail },
      committed: (user) =>
        this.turn(userId, user.preview !== undefined, counts, summaryOf(userId, trail, version, user.userData)),
    };
  }

  /** Emails and SMS a committed turn sent. */
  followed(user: UserRecord, events: readonly TurnEvent[]): void {
    const count = (kind: TurnEvent['kind']) => events.filter((e) => e.kind === kind).length;
    const emails = count('emailSent');
    const sms = count('smsSent');
    if (emails > 0 || sms > 0) this.sent({ preview: user.preview !== undefined, channel: user.channelId }, emails, sms);
  }

  /** Counter changes and the conversation of a committed turn (trail.ts computed them). */
  turn(userId: string, preview: boolean, counts: readonly CountDelta[], summary: ConversationSummary): void {
    this.remember(userId, { preview, channel: summary.channel });
    if (preview) return;
    for (const delta of counts) this.add(delta);
    this.summaries.set(`${userId}\u0000${summary.startedAt}`, summary);
  }

  /**
   * Two addresses became one person (link channels), who counts as one active user. When both had
   * written on the link's day, each was counted that day: one count is taken back, under the channel
   * the other address was counted on. (When only the other had, the person's record takes its last
   * message's time at the link, so the person's next message that day counts nothing.)
   */
  linked(
    person: Pick<UserRecord, 'lastMessageAt' | 'preview'>,
    other: Pick<UserRecord, 'lastMessageAt' | 'preview' | 'channelId' | 'variables'>,
    now: number,
  ): void {
    if (person.preview !== undefined || other.preview !== undefined) return;
    const day = dayOf(now);
    const wroteToday = (at: number | null) => at !== null && dayOf(at) === day;
    if (!wroteToday(person.lastMessageAt) || !wroteToday(other.lastMessageAt)) return;
    const channel = readTrail(other.variables[TRAIL_KEY])?.ch || other.channelId;
    this.add({ day, version: this.options.version(), metric: 'activeUsers', channel, n: -1 });
  }

  /** An integration call made for a user: by status class, with its latency. */
  async integrationCall(userId: string, status: number | null, durationMs: number): Promise<void> {
    const user = await this.userOf(userId);
    if (user.preview) return;
    const now = this.options.now();
    const klass = status === null ? 'failed' : `${Math.floor(status / 100)}xx`;
    const version = this.options.version();
    const { channel } = user;
    this.add({ day: dayOf(now), version, metric: 'integrationCalls', channel, a: klass, n: 1 });
    this.add({
      day: dayOf(now),
      version,
      metric: 'integrationLatency',
      channel,
      a: klass,
      b: String(latencyBucket(durationMs)),
      n: 1,
    });
    if (status === null || status >= 400) {
      this.failures.set(userId, now);
      if (this.failures.size > PREVIEW_CACHE) this.failures.delete(this.failures.keys().next().value!);
    }
  }

  /** Whether an integration call of this user failed since `since` (the current conversation's start), for the trail. */
  failedSince(userId: string, since: number): boolean {
    const at = this.failures.get(userId);
    return at !== undefined && at >= since;
  }

  async urlClick(userId: string, domain: string): Promise<void> {
    const user = await this.userOf(userId);
    if (user.preview) return;
    this.add({
      day: dayOf(this.options.now()),
      version: this.options.version(),
      metric: 'urlClicks',
      channel: user.channel,
      a: domain.slice(0, 200),
      n: 1,
    });
  }

  /** Emails and SMS a turn sent (not the ones that failed). */
  sent(user: CountedUser, emails: number, sms: number): void {
    if (user.preview) return;
    const day = dayOf(this.options.now());
    const version = this.options.version();
    const { channel } = user;
    if (emails > 0) this.add({ day, version, metric: 'emailsSent', channel, n: emails });
    if (sms > 0) this.add({ day, version, metric: 'smsSent', channel, n: sms });
  }

  /** Erasure: nothing of the user's waits to be written, and their conversations go from the store. */
  async eraseUser(userId: string): Promise<number> {
    for (const key of this.summaries.keys()) if (key.startsWith(`${userId}\u0000`)) this.summaries.delete(key);
    this.failures.delete(userId);
    if (this.failed)
      this.failed = { ...this.failed, conversations: this.failed.conversations.filter((s) => s.userId !== userId) };
    // A write under way may still carry one: let it land, then remove.
    await this.flushing;
    return this.options.store.eraseUser(userId);
  }

  /** Writes what was added up; what fails to be written is kept for the next time. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.write());
    return this.flushing;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  private async write(): Promise<void> {
    if (this.failed) {
      if (!(await this.tryWrite(this.failed))) return;
      this.failed = undefined;
    }
    if (this.counts.size === 0 && this.summaries.size === 0) return;
    const batch: InsightsBatch = {
      id: crypto.randomUUID(),
      counts: [...this.counts.values()].filter((c) => c.n !== 0),
      conversations: [...this.summaries.values()],
    };
    this.counts = new Map();
    this.summaries = new Map();
    if (!(await this.tryWrite(batch))) this.failed = batch;
  }

  private async tryWrite(batch: InsightsBatch): Promise<boolean> {
    try {
      await this.options.store.record(batch);
      return true;
    } catch (error) {
      const pending = batch.counts.length + this.counts.size;
      this.options.logger.warn(
        { event: 'insights_write_failed', err: error, pending },
        'insights counters could not be written; they are kept and tried again',
      );
      return false;
    }
  }

  private add(delta: CountDelta): void {
    const key = keyOf(delta);
    const found = this.counts.get(key);
    if (found) {
      found.n += delta.n;
      return;
    }
    if (this.counts.size >= MAX_PENDING) {
      const oldest = this.counts.keys().next().value!;
      this.counts.delete(oldest);
      this.options.logger.warn(
        { event: 'insights_pending_dropped' },
        'insights counters waited too long for the store; the oldest were dropped',
      );
    }
    this.counts.set(key, { ...delta });
  }

  private remember(userId: string, user: CountedUser): void {
    if (this.users.size >= PREVIEW_CACHE) this.users.delete(this.users.keys().next().value!);
    this.users.set(userId, user);
  }

  /** A user not found (or not read: the store away) counts as no preview user, of no channel. */
  private async userOf(userId: string): Promise<CountedUser> {
    const known = this.users.get(userId);
    if (known !== undefined) return known;
    const user = (await this.options.userOf(userId).catch(() => undefined)) ?? { preview: false, channel: '' };
    this.remember(userId, user);
    return user;
  }
}

interface CountedUser {
  readonly preview: boolean;
  /** Their channel ('' when not known): the counters of their calls, clicks and sent messages go under it. */
  readonly channel: string;
}

function keyOf({ day, version, metric, channel = '', a = '', b = '' }: CountDelta): string {
  return `${day}\u0000${version}\u0000${metric}\u0000${channel}\u0000${a}\u0000${b}`;
}
