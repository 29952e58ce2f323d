import type { ConversationSummary, CounterTotals, Metric, OpenConversation } from '../../ports/insights.ts';

/** What both insights adapters share: summing counter rows, and what an open conversation is. */

export function openOf(summary: ConversationSummary): OpenConversation {
  return {
    startedAt: summary.startedAt,
    lastAt: summary.lastAt,
    lastVersion: summary.lastVersion,
    lastStep: summary.lastStep,
  };
}

/** Rows of (day, metric, a, b, n) as CounterTotals. */
export function totalsOf(rows: Iterable<readonly [number, Metric, string, string, number]>): CounterTotals {
  const daily = new Map<number, Map<Metric, number>>();
  const totals = new Map<Metric, Map<string, Map<string, number>>>();
  for (const [day, metric, a, b, n] of rows) {
    let perDay = daily.get(day);
    if (!perDay) daily.set(day, (perDay = new Map()));
    perDay.set(metric, (perDay.get(metric) ?? 0) + n);
    let byA = totals.get(metric);
    if (!byA) totals.set(metric, (byA = new Map()));
    let byB = byA.get(a);
    if (!byB) byA.set(a, (byB = new Map()));
    byB.set(b, (byB.get(b) ?? 0) + n);
  }
  return { daily, totals };
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
