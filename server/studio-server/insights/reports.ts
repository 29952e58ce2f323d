import {
  DAY_MS,
  LATENCY_BUCKETS,
  METRICS,
  type CounterTotals,
  type DayRange,
  type InsightsStore,
  type Metric,
} from '../../ports/insights.ts';
import type {
  ChannelFigures,
  DailyFigures,
  DashboardFigures,
  DropOffFigures,
  StepFigures,
} from '../../../shared/studio-insights.ts';

/**
 * The dashboard and the drop-off, read from the insights store's counters: a 30-day range reads
 * at most a few thousand summed rows whatever the size of the transcript (ports/insights.ts).
 */

/** Texts listed (top unprocessed inputs, FAQ misses) and domains, at most this many each. */
export const TOP = 20;

/** The dashboard's figures (the route adds the range and the version). */
export type Dashboard = DashboardFigures;
export type { DailyFigures };

/** The dashboard reads every counter but the per-step ones, which the drop-off reads. */
const DASHBOARD_METRICS = METRICS.filter((metric) => metric !== 'stepReached' && metric !== 'stepStopped');

export function isoDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

export async function dashboard(insights: InsightsStore, range: DayRange): Promise<Dashboard> {
  const { daily, totals, channels } = await insights.counters(range, DASHBOARD_METRICS);
  const days: DailyFigures[] = [];
  for (let day = range.fromDay; day <= range.toDay; day++) {
    const figures = daily.get(day);
    const of = (metric: Metric) => figures?.get(metric) ?? 0;
    days.push({
      date: isoDay(day),
      conversations: of('conversations'),
      activeUsers: of('activeUsers'),
      messagesUser: of('messagesUser'),
      messagesBot: of('messagesBot'),
    });
  }
  const sum = (metric: Metric) => days.reduce((n, d) => n + ((d as unknown as Record<string, number>)[metric] ?? 0), 0);
  const started = byA(totals, 'dialogStarted');
  const completed = byA(totals, 'dialogCompleted');
  const dialogs = [...new Set([...started.keys(), ...completed.keys()])]
    .map((dialogId) => ({ dialogId, started: started.get(dialogId) ?? 0, completed: completed.get(dialogId) ?? 0 }))
    .sort((x, y) => y.started - x.started || x.dialogId.localeCompare(y.dialogId));
  const calls = byA(totals, 'integrationCalls');
  const integrations = [...calls.entries()]
    .sort(([x], [y]) => x.localeCompare(y))
    .map(([status, n]) => {
      const buckets = totals.get('integrationLatency')?.get(status);
      return { status, calls: n, p50Ms: percentile(buckets, 0.5), p95Ms: percentile(buckets, 0.95) };
    });
  return {
    daily: days,
    totals: { conversations: sum('conversations'), messagesUser: sum('messagesUser'), messagesBot: sum('messagesBot') },
    channels: channelFigures(channels),
    dialogs,
    unprocessed: top(byA(totals, 'unprocessed')).map(([text, count]) => ({ text, count })),
    faq: {
      answered: total(totals, 'faqAnswered'),
      missed: total(totals, 'faqMissed'),
      misses: top(byA(totals, 'faqMiss')).map(([text, count]) => ({ text, count })),
    },
    integrations,
    urlClicks: top(byA(totals, 'urlClicks')).map(([domain, clicks]) => ({ domain, clicks })),
    sent: { emails: total(totals, 'emailsSent'), sms: total(totals, 'smsSent') },
  };
}

/** Each channel's conversations and messages, most conversations first, ties by name. */
function channelFigures(channels: CounterTotals['channels']): ChannelFigures[] {
  return [...channels]
    .map(([channel, of]) => ({
      channel,
      conversations: of.get('conversations') ?? 0,
      messagesUser: of.get('messagesUser') ?? 0,
      messagesBot: of.get('messagesBot') ?? 0,
    }))
    .filter((c) => c.conversations > 0 || c.messagesUser > 0 || c.messagesBot > 0)
    .sort((x, y) => y.conversations - x.conversations || x.channel.localeCompare(y.channel));
}

/** metric → a → total (b summed). */
function byA(totals: CounterTotals['totals'], metric: Metric): Map<string, number> {
  const out = new Map<string, number>();
  for (const [a, byB] of totals.get(metric) ?? []) {
    let n = 0;
    for (const count of byB.values()) n += count;
    if (n !== 0) out.set(a, n);
  }
  return out;
}

function total(totals: CounterTotals['totals'], metric: Metric): number {
  let n = 0;
  for (const count of byA(totals, metric).values()) n += count;
  return n;
}

/** The most frequent first, ties by text, at most TOP. */
function top(counts: Map<string, number>): [string, number][] {
  return [...counts.entries()]
    .filter(([, n]) => n > 0)
    .sort(([x, m], [y, n]) => n - m || x.localeCompare(y))
    .slice(0, TOP);
}

/** The upper bound of the latency bucket holding the p-th call (0 with no calls). */
export function percentile(buckets: ReadonlyMap<string, number> | undefined, p: number): number {
  if (!buckets) return 0;
  const counts = [...buckets.entries()].map(([index, n]) => [Number(index), n] as const).sort(([x], [y]) => x - y);
  const all = counts.reduce((sum, [, n]) => sum + n, 0);
  if (all <= 0) return 0;
  let seen = 0;
  for (const [index, n] of counts) {
    seen += n;
    if (seen >= p * all) return LATENCY_BUCKETS[index] ?? LATENCY_BUCKETS.at(-1)!;
  }
  return LATENCY_BUCKETS.at(-1)!;
}

export type { StepFigures };
/** Reach and stops per step (the route adds the range, the version and the window). */
export type DropOff = DropOffFigures;

/** Open conversations read to take them out of the stops, at most. Beyond it, a few stops may show early. */
const OPEN_LIMIT = 10_000;

/**
 * Reach and stops per step for conversations that started in the range, under one version (and on
 * one channel, when the range names one). A
 * conversation "stopped" at its last step once no turn came for the window (INSIGHTS_WINDOW):
 * the counters hold every conversation's current last step, so the open ones are taken out.
 * `order`: the version's steps in definition order (steps without figures show zeros); steps
 * with figures the definition lacks follow.
 */
export async function dropOff(
  insights: InsightsStore,
  range: DayRange,
  options: {
    readonly now: number;
    readonly windowMs: number;
    readonly order: readonly { dialogId: string; stepId: string }[];
  },
): Promise<DropOff> {
  const { totals } = await insights.counters(range, ['stepReached', 'stepStopped']);
  const key = (d: string, s: string) => `${d}/${s}`;
  const figures = new Map<string, { dialogId: string; stepId: string; reached: number; stopped: number }>();
  const entry = (dialogId: string, stepId: string) => {
    let f = figures.get(key(dialogId, stepId));
    if (!f) figures.set(key(dialogId, stepId), (f = { dialogId, stepId, reached: 0, stopped: 0 }));
    return f;
  };
  for (const { dialogId, stepId } of options.order) entry(dialogId, stepId);
  for (const [dialogId, byB] of totals.get('stepReached') ?? [])
    for (const [stepId, n] of byB) entry(dialogId, stepId).reached += n;
  for (const [dialogId, byB] of totals.get('stepStopped') ?? [])
    for (const [stepId, n] of byB) entry(dialogId, stepId).stopped += n;
  let open = 0;
  const fromMs = range.fromDay * DAY_MS;
  const toMs = (range.toDay + 1) * DAY_MS;
  for (const conversation of await insights.openConversations(options.now - options.windowMs, OPEN_LIMIT)) {
    if (conversation.startedAt < fromMs || conversation.startedAt >= toMs) continue;
    if (range.version !== undefined && conversation.lastVersion !== range.version) continue;
    if (range.channel !== undefined && conversation.channel !== range.channel) continue;
    open++;
    const at = conversation.lastStep ? figures.get(conversation.lastStep) : undefined;
    if (at) at.stopped = Math.max(0, at.stopped - 1);
  }
  const steps = [...figures.values()].filter(
    (f) =>
      f.reached > 0 || f.stopped > 0 || options.order.some((o) => o.dialogId === f.dialogId && o.stepId === f.stepId),
  );
  return { steps, open };
}
