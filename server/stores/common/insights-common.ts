import type { ConversationSummary, CounterTotals, Metric, OpenConversation } from '../../ports/insights.ts';

/** What both insights adapters share: summing counter rows, and what an open conversation is. */

export function openOf(summary: ConversationSummary): OpenConversation {
  return {
    startedAt: summary.startedAt,
    channel: summary.channel,
    lastAt: summary.lastAt,
    lastVersion: summary.lastVersion,
    lastStep: summary.lastStep,
  };
}

/** A counter row as both adapters read it: day, metric, channel ('' for none), a, b, n. */
export type CounterRow = readonly [number, Metric, string, string, string, number];

/** Counter rows as CounterTotals. */
export function totalsOf(rows: Iterable<CounterRow>): CounterTotals {
  const daily = new Map<number, Map<Metric, number>>();
  const totals = new Map<Metric, Map<string, Map<string, number>>>();
  const channels = new Map<string, Map<Metric, number>>();
  for (const [day, metric, channel, a, b, n] of rows) {
    if (channel !== '') {
      let perChannel = channels.get(channel);
      if (!perChannel) channels.set(channel, (perChannel = new Map()));
      perChannel.set(metric, (perChannel.get(metric) ?? 0) + n);
    }
    let perDay = daily.get(day);
    if (!perDay) daily.set(day, (perDay = new Map()));
    perDay.set(metric, (perDay.get(metric) ?? 0) + n);
    let byA = totals.get(metric);
    if (!byA) totals.set(metric, (byA = new Map()));
    let byB = byA.get(a);
    if (!byB) byA.set(a, (byB = new Map()));
    byB.set(b, (byB.get(b) ?? 0) + n);
  }
  return { daily, totals, channels };
}

/** Whether a conversation matches a search's filters (the Mongo adapter filters in memory what it read by id). */
export function matchesQuery(
  s: ConversationSummary,
  q: {
    text?: string;
    field?: { name: string; value: string };
    channel?: string;
    reached?: string;
    integrationError?: boolean;
    fromMs?: number;
    toMs?: number;
  },
): boolean {
  if (q.fromMs !== undefined && s.startedAt < q.fromMs) return false;
  if (q.toMs !== undefined && s.startedAt >= q.toMs) return false;
  if (q.channel !== undefined && s.channel !== q.channel) return false;
  if (q.integrationError && !s.integrationError) return false;
  if (q.reached && !s.steps.includes(q.reached)) return false;
  if (q.text && !s.text.toLowerCase().includes(q.text.toLowerCase())) return false;
  if (q.field) {
    const value = s.userData[q.field.name];
    if (
      value === undefined ||
      value === null ||
      (typeof value === 'object' ? JSON.stringify(value) : String(value)) !== q.field.value
    )
      return false;
  }
  return true;
}

/** Newest first, ties by user id (descending), as both adapters page. */
export function newestFirst(a: ConversationSummary, b: ConversationSummary): number {
  return b.startedAt - a.startedAt || (a.userId < b.userId ? 1 : a.userId > b.userId ? -1 : 0);
}
