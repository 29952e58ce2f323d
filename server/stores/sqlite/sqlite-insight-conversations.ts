import type { Database } from './database.ts';
import type {
  ConversationPage,
  ConversationQuery,
  ConversationSummary,
  OpenConversation,
} from '../../ports/insights.ts';
import { fromJson, toJson } from './json.ts';
import { openOf } from '../common/insights-common.ts';

/**
 * The insights conversations on the embedded store (migrations 12 and 17): one row each, kept in
 * start order; the search walks the table newest first and reads at most `budget` rows per request.
 */
export function sqliteInsightConversations(db: Database, budget: number) {
  // A summary only moves forward: one written late (another node's, a retried write) never undoes a newer one.
  const putConversation = db.prepare<[string, number, number, string, number, string, string, string, string]>(
    `INSERT INTO insight_conversations (user_id, started_at, last_at, channel, error, text, steps, user_data, summary) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (user_id, started_at) DO UPDATE SET last_at = excluded.last_at, channel = excluded.channel, error = excluded.error,
       text = excluded.text, steps = excluded.steps, user_data = excluded.user_data, summary = excluded.summary
     WHERE excluded.last_at >= insight_conversations.last_at`,
  );
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

  return {
    /** Writes the summaries; the caller holds the transaction. */
    put(conversations: readonly ConversationSummary[]): void {
      for (const s of conversations) {
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
    },

    open(sinceMs: number, limit: number): OpenConversation[] {
      return open.all(sinceMs, limit).map(([summary]) => openOf(fromJson<ConversationSummary>(summary)));
    },

    search(query: ConversationQuery): ConversationPage {
      const { sql, params } = searchSql(query);
      const rows = db
        .prepare<unknown[], [string | null, number, string]>(sql)
        .raw(true)
        .iterate(...params);
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
      // Stopped at the budget: the next page carries on below the last conversation read.
      if (stopped && last) return { items, next: last, searchedBackTo: last.startedAt, searched: read };
      return { items };
    },

    ofUser(userId: string, limit: number): ConversationSummary[] {
      return ofUser.all(userId, limit).map(([summary]) => fromJson<ConversationSummary>(summary));
    },

    erase: (userId: string): number => erase.run(userId).changes,

    purge: (before: number): number => purgeConversations.run(before).changes,
  };
}

/**
 * The search's query: the range (and the cursor) pick rows in the table's own order (by start,
 * migration 17), newest first; the other filters are tested on each row read, whose summary is only
 * fetched when it matches.
 */
function searchSql(query: ConversationQuery): { sql: string; params: unknown[] } {
  const range: string[] = ['started_at >= ?', 'started_at < ?'];
  const rangeParams: unknown[] = [query.fromMs, query.toMs];
  if (query.before) {
    range.push('(started_at < ? OR (started_at = ? AND user_id < ?))');
    rangeParams.push(query.before.startedAt, query.before.startedAt, query.before.userId);
  }
  const tests: string[] = [];
  const params: unknown[] = [];
  if (query.channel !== undefined) {
    tests.push('channel = ?');
    params.push(query.channel);
  }
  if (query.integrationError) tests.push('error = 1');
  if (query.text) {
    tests.push("text LIKE ? ESCAPE '\\'");
    params.push(`%${likeEscape(query.text.toLowerCase())}%`);
  }
  if (query.reached) {
    tests.push("steps LIKE ? ESCAPE '\\'");
    params.push(`%|${likeEscape(query.reached)}|%`);
  }
  if (query.field) {
    // The field name is a declared user-data field (checked by the caller): camelCase, safe in a JSON path.
    tests.push("CAST(json_extract(user_data, '$.' || ?) AS TEXT) = ?");
    params.push(query.field.name, query.field.value);
  }
  return {
    sql: `SELECT ${tests.length > 0 ? `CASE WHEN ${tests.join(' AND ')} THEN summary END` : 'summary'}, started_at, user_id
           FROM insight_conversations WHERE ${range.join(' AND ')}
           ORDER BY started_at DESC, user_id DESC`,
    params: [...params, ...rangeParams],
  };
}

/** Steps as `|dialog/step|dialog/step|`, so "reached X" is one LIKE that cannot match a longer id. */
function stepsColumn(steps: readonly string[]): string {
  return `|${steps.join('|')}|`;
}

function likeEscape(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
