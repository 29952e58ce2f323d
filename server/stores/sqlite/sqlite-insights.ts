import type { Database } from './database.ts';
import {
  DEFAULT_SEARCH_BUDGET,
  type InsightsBatch,
  type InsightsStoreOptions,
  type InsightsStore,
  type UserLogRow,
} from '../../ports/insights.ts';
import { fromJson } from './json.ts';
import { sqliteInsightConversations } from './sqlite-insight-conversations.ts';
import { sqliteInsightCounters } from './sqlite-insight-counters.ts';

/**
 * The insights store on the embedded store: the counters (sqlite-insight-counters.ts) and the
 * conversations (sqlite-insight-conversations.ts), a batch of both written in one transaction.
 */
export function sqliteInsights(db: Database, options: InsightsStoreOptions = {}): InsightsStore {
  const counters = sqliteInsightCounters(db);
  const conversations = sqliteInsightConversations(db, options.searchBudget ?? DEFAULT_SEARCH_BUDGET);
  const write = db.transaction((batch: InsightsBatch) => {
    counters.add(batch.counts);
    conversations.put(batch.conversations);
  });

  return {
    async record(batch) {
      // One transaction: a batch is written whole or not at all, so one written again after a failure (InsightsBatch.id) counts once.
      write.immediate(batch);
    },

    counters: async (range, metrics) => counters.totals(range, metrics),

    openConversations: async (sinceMs, limit) => conversations.open(sinceMs, limit),

    searchConversations: async (query) => conversations.search(query),

    conversationsOf: async (userId, limit) => conversations.ofUser(userId, limit),

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

    eraseUser: async (userId) => conversations.erase(userId),

    async purge(conversationsBefore, countersBeforeDay) {
      return {
        conversations: conversationsBefore === undefined ? 0 : conversations.purge(conversationsBefore),
        counters: counters.purge(countersBeforeDay),
      };
    },
  };
}
