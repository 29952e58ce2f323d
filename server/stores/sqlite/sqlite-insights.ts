import type { Database } from './database.ts';
import {
  DEFAULT_SEARCH_BUDGET,
  type InsightsRoomOptions,
  type ConversationPage,
  type ConversationSummary,
  type InsightsRoom,
  type Metric,
  type UserLogRow,
} from '../../ports/insights.ts';
import { fromJson, toJson } from './json.ts';
import { openOf, totalsOf } from '../insights-common.ts';

/**
 * The insights room on the embedded store (migrations 12 and 17). Counters are rows keyed by
 * (day, metric, version, a, b): a dashboard sums a range of days with one indexed query. A
 * conversation is one row, kept in start order; the search walks the table newest first and reads
 * at most the search budget of them per request.
 */
export function sqliteInsights(db: Database, options: InsightsRoomOptions = {}): InsightsRoom {
  const budget = options.searchBudget ?? DEFAULT_SEARCH_BUDGET;
  const addCount = db.prepare<[number, string, string, string, string, number]>(
    `INSERT INTO insight_counts (day, metric, version, a, b, n) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (day, metric, version, a, b) DO UPDATE SET n = n + excluded.n`,
  );
  // A summary only moves forward: one written late (another node's, a retried write) never undoes a newer one.
  const putConversation = db.prepare<[string, number, number, string, number, string, string, string, string]>(
    `INSERT INTO insight_conversations (user_id, started_at, last_at, channel, error, text, steps, user_data, summary) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (user_id, started_at) DO UPDATE SET last_at = excluded.last_at, channel = excluded.channel, error = excluded.error,
       text = excluded.text, steps = excluded.steps, user_data = excluded.user_data, summary = excluded.summary
     WHERE excluded.last_at >= insight_conversations.last_at`,
  );
  const write = db.transaction((batch: Parameters<InsightsRoom['record']>[0]) => {
    for (const c of batch.counts) addCount.run(c.day, c.metric, c.version, c.a ?? '', c.b ?? '', c.n);
    for (const s of batch.conversations) {
      putConversation.run(
        s.userId,
        s.startedAt,
        s.lastAt,
        s.channel,
        s.integrationError ? 1 : 0,
        s.text.toLowerCase(),
        stepsColumn(s.steps),
        toJson(s.userData),
        toJson(s),
      );
    }
  });
  const open = db
    .prepare<[number, number], [string]>('SELECT summary FROM insight_conversations WHERE last_at >= ? LIMIT ?')
    .raw(true);
  const ofUser = db
    .prepare<[string, number], [string]>(
      'SELECT summary FROM insight_conversations WHERE user_id = ? ORDER BY started_at DESC LIMIT ?',
    )
    .raw(true);
  const erase = db.prepare<[string]>('DELETE FROM insight_conversations WHERE user_id = ?');
  const purgeConversations = db.prepare<[number]>('DELETE FROM insight_conversations WHERE last_at < ?');
  const purgeCounts = db.prepare<[string, number]>('DELETE FROM insight_counts WHERE metric = ? AND day < ?');

  return {
    async record(batch) {
      // One transaction: a batch is written whole or not at all, so one written again after a failure (InsightsBatch.id) counts once.
      write.immediate(batch);
    },

    async counters(range, metrics) {
      if (metrics.length === 0) return { daily: new Map(), totals: new Map() };
      const rows = db
        .prepare<unknown[], [number, Metric, string, string, number]>(
          `SELECT day, metric, a, b, sum(n) FROM insight_counts
           WHERE day >= ? AND day <= ? AND metric IN (${metrics.map(() => '?').join(', ')})${range.version !== undefined ? ' AND version = ?' : ''}
           GROUP BY day, metric, a, b`,
        )
        .raw(true)
        .all(range.fromDay, range.toDay, ...metrics, ...(range.version !== undefined ? [range.version] : []));
      return totalsOf(rows);
    },

    async openConversations(sinceMs, limit) {
      return open.all(sinceMs, limit).map(([summary]) => openOf(fromJson<ConversationSummary>(summary)));
    },

    async searchConversations(query) {
      // The range (and the cursor) pick rows in the table's own order (by start, migration 17), newest first;
      // the other filters are tested on each row read, whose summary is only fetched when it matches.
      // Reading stops at limit + 1 matches or at the budget, whichever comes first.
      const range: string[] = ['started_at >= ?', 'started_at < ?'];
      const params: unknown[] = [query.fromMs, query.toMs];
      if (query.before) {
        range.push('(started_at < ? OR (started_at = ? AND user_id < ?))');
        params.push(query.before.startedAt, query.before.startedAt, query.before.userId);
      }
      const tests: string[] = [];
      const testParams: unknown[] = [];
      if (query.channel !== undefined) {
        tests.push('channel = ?');
        testParams.push(query.channel);
      }
      if (query.integrationError) tests.push('error = 1');
      if (query.text) {
        tests.push("text LIKE ? ESCAPE '\\'");
        testParams.push(`%${likeEscape(query.text.toLowerCase())}%`);
      }
      if (query.reached) {
        tests.push("steps LIKE ? ESCAPE '\\'");
        testParams.push(`%|${likeEscape(query.reached)}|%`);
      }
      if (query.field) {
        // The field name is a declared user-data field (checked by the caller): camelCase, safe in a JSON path.
        tests.push("CAST(json_extract(user_data, '$.' || ?) AS TEXT) = ?");
        testParams.push(query.field.name, query.field.value);
      }
      const rows = db
        .prepare<unknown[], [string | null, number, string]>(
          `SELECT ${tests.length > 0 ? `CASE WHEN ${tests.join(' AND ')} THEN summary END` : 'summary'}, started_at, user_id
           FROM insight_conversations WHERE ${range.join(' AND ')}
           ORDER BY started_at DESC, user_id DESC`,
        )
        .raw(true)
        .iterate(...testParams, ...params);
      const found: ConversationSummary[] = [];
      let read = 0;
      let last: { startedAt: number; userId: string } | undefined;
      let stopped = false;
      for (const [summary, startedAt, userId] of rows) {
        // At the budget with a row still to read: stop there.
        if (read >= budget) {
          stopped = true;
          break;
        }
        read++;
        last = { startedAt, userId };
        if (summary !== null) found.push(fromJson<ConversationSummary>(summary));
        if (found.length > query.limit) break;
      }
      const items = found.slice(0, query.limit);
      const end = items.at(-1);
      if (found.length > query.limit && end) return { items, next: { startedAt: end.startedAt, userId: end.userId } };
      if (stopped && last) {
        // Stopped at the budget: the next page carries on below the last conversation read.
        return { items, next: last, searchedBackTo: last.startedAt, searched: read };
      }
      const page: ConversationPage = { items };
      return page;
    },

    async conversationsOf(userId, limit) {
      return ofUser.all(userId, limit).map(([summary]) => fromJson<ConversationSummary>(summary));
    },

    async userLogs(userId, kinds, fromMs, toMs, limit) {
      if (kinds.length === 0) return [];
      // logs_by_user finds the user's rows without reading anyone else's.
      const rows = db
        .prepare<unknown[], [string, number, string]>(
          `SELECT kind, timestamp, data FROM logs WHERE user_id = ? AND kind IN (${kinds.map(() => '?').join(', ')})
           AND timestamp >= ? AND timestamp < ? ORDER BY timestamp, id LIMIT ?`,
        )
        .raw(true)
        .all(userId, ...kinds, fromMs, toMs, limit);
      return rows.map(([kind, timestamp, data]): UserLogRow => ({ kind, timestamp, data: fromJson(data) }));
    },

    async eraseUser(userId) {
      return erase.run(userId).changes;
    },

    async purge(conversationsBefore, countersBeforeDay) {
      const conversations = conversationsBefore === undefined ? 0 : purgeConversations.run(conversationsBefore).changes;
      let counters = 0;
      for (const [metric, beforeDay] of Object.entries(countersBeforeDay))
        if (beforeDay !== undefined) counters += purgeCounts.run(metric, beforeDay).changes;
      return { conversations, counters };
    },
  };
}

/** Steps as `|dialog/step|dialog/step|`, so "reached X" is one LIKE that cannot match a longer id. */
function stepsColumn(steps: readonly string[]): string {
  return `|${steps.join('|')}|`;
}

function likeEscape(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
