import { dayOf, DAY_MS, type ConversationPage, type ConversationQuery } from '../../ports/insights.ts';
import type { ConversationSummary } from '../../ports/insights.ts';
import { matchesQuery, newestFirst } from '../common/insights-common.ts';

/**
 * The conversation search on MongoDB: it reads the day buckets newest day first and stops at the
 * search budget (conversations read, as on SQLite) or when the next day would end after
 * SEARCH_BUDGET_MS, whichever comes first, saying how far back it read: FerretDB 1.x reads a day's
 * buckets far slower than MongoDB.
 */
const SEARCH_BUDGET_MS = 700;
/**
 * Days the search has asked for at once: FerretDB takes ~35 ms a query whatever it returns (a scan),
 * so two in flight keep it busy while Node inflates and matches the day before.
 */
const READ_AHEAD = 2;
/** With no start given, the search looks back this many days at most. */
const SEARCH_DAYS = 366;

export async function searchDays(
  dayOfBuckets: (day: number) => Promise<ConversationSummary[]>,
  query: ConversationQuery,
  budget: number,
): Promise<ConversationPage> {
  const started = performance.now();
  const lastDay = dayOf(Math.min(query.toMs - 1, query.before ? query.before.startedAt : Number.MAX_SAFE_INTEGER));
  // Bounded however wide the range asked for: a year of days at most.
  const firstDay = Math.max(dayOf(query.fromMs), lastDay - SEARCH_DAYS);
  const items: ConversationSummary[] = [];
  let read = 0;
  let slowestDay = 0;
  // The next days are asked for while this one is searched: the store reads while Node matches.
  const pending: Array<Promise<ConversationSummary[]>> = [];
  let asked = lastDay;
  const askMore = () => {
    while (pending.length < READ_AHEAD && asked >= firstDay) {
      const read = dayOfBuckets(asked--);
      // Not awaited when the search stops before it: its failure then matters to no one.
      read.catch(() => undefined);
      pending.push(read);
    }
  };
  askMore();
  for (let day = lastDay; day >= firstDay; day--) {
    const dayStarted = performance.now();
    const summaries = await pending.shift()!;
    askMore();
    const inRange = summaries.filter(
      (s) => s.startedAt >= query.fromMs && s.startedAt < query.toMs && before(s, query),
    );
    read += inRange.length;
    items.push(...inRange.filter((s) => matchesQuery(s, query)).sort(newestFirst));
    slowestDay = Math.max(slowestDay, performance.now() - dayStarted);
    if (items.length > query.limit) break;
    // A day is read whole, so the budget is checked between days (would the next one end past it?): the page says how far back it read.
    if (day > firstDay && (read >= budget || performance.now() - started + slowestDay > SEARCH_BUDGET_MS)) {
      return { items, next: { startedAt: day * DAY_MS, userId: '' }, searchedBackTo: day * DAY_MS, searched: read };
    }
  }
  const page = items.slice(0, query.limit);
  const last = page.at(-1);
  return items.length > query.limit && last
    ? { items: page, next: { startedAt: last.startedAt, userId: last.userId } }
    : { items: page };
}

/** Whether a conversation comes after the cursor (the previous page's last), newest first. */
function before(s: ConversationSummary, query: ConversationQuery): boolean {
  return (
    !query.before ||
    s.startedAt < query.before.startedAt ||
    (s.startedAt === query.before.startedAt && s.userId < query.before.userId)
  );
}
