import type { Db } from 'mongodb';
import { dayOf, type ConversationSummary, type OpenConversation } from '../../ports/insights.ts';
import { bucketOf } from './mongo-insight-conversations.ts';
import { counterCollection, OPEN_COLLECTION, type ChangeDoc } from './mongo-insight-docs.ts';

/**
 * The open-conversation lists on MongoDB, in `insight_open`: `o:<day>:<bucket>`, `t` =
 * `{ conversationKey: [startedAt, lastAt, lastVersion, lastStep, channel] }`, the conversations whose
 * last turn so far fell on that day (one moving on to the next day is written there too; the older
 * entry is left behind and read as what it is, an older turn), spread over the BUCKETS of the
 * conversations (by user, bucketOf): one document a day would reach MongoDB's 16 MB limit near
 * 150,000 conversations a day, and each turn's flush would rewrite the whole day's list. A day's
 * lists are read with one query (`find({ day })`).
 */
/**
 * conversationKey → [startedAt, lastAt, lastVersion, lastStep, channel], as stored in an `o:` document's
 * text (entries written before channels were counted have no channel).
 */
export type OpenTree = Record<string, [number, number, string, string | null, string?]>;

/** The days after the one of `sinceMs` whose open lists are read: a window of up to two days is seen whole. */
const OPEN_DAYS_AFTER = 2;

export const openId = (day: number, bucket: number) => `o:${day}:${bucket}`;

/** A conversation as its day's open list holds it. */
export const openEntry = (s: ConversationSummary): OpenTree[string] => [
  s.startedAt,
  s.lastAt,
  s.lastVersion,
  s.lastStep,
  s.channel,
];

export function insightOpenLists(db: Db, change: ChangeDoc) {
  const lists = counterCollection(db, OPEN_COLLECTION);

  /** Each list's changes, by document: the day's list of the conversation's bucket. */
  const byList = <T>(entries: Iterable<[day: number, userId: string, item: T]>) => {
    const lists = new Map<string, { day: number; items: T[] }>();
    for (const [day, userId, item] of entries) {
      const id = openId(day, bucketOf(userId));
      const entry = lists.get(id);
      if (entry) entry.items.push(item);
      else lists.set(id, { day, items: [item] });
    }
    return lists;
  };

  return {
    /** Writes where each conversation's last turn so far is, in the list of that turn's day. */
    async noteTurns(
      conversations: readonly ConversationSummary[],
      keyOf: (s: ConversationSummary) => string,
    ): Promise<void> {
      const changes = byList(conversations.map((s) => [dayOf(s.lastAt), s.userId, s] as const));
      for (const [id, { day, items }] of changes) {
        await change<OpenTree>(id, 'o', day, (tree) => {
          for (const s of items) tree[keyOf(s)] = openEntry(s);
          return true;
        });
      }
    },

    /** Conversations whose last turn is at or after `sinceMs`: a few small documents, never the conversations themselves. */
    async open(sinceMs: number, limit: number): Promise<OpenConversation[]> {
      const first = dayOf(sinceMs);
      const days = Array.from({ length: OPEN_DAYS_AFTER + 1 }, (_, i) => first + i);
      const found = (await Promise.all(days.map((day) => lists.find({ day }).toArray()))).flat();
      const latest = new Map<string, OpenConversation>();
      for (const doc of found) {
        for (const [key, [startedAt, lastAt, lastVersion, lastStep, channel = '']] of Object.entries(
          JSON.parse(doc.t) as OpenTree,
        )) {
          const known = latest.get(key);
          if (lastAt >= sinceMs && (!known || known.lastAt < lastAt))
            latest.set(key, { startedAt, channel, lastAt, lastVersion, lastStep });
        }
      }
      return [...latest.values()].sort((a, b) => b.lastAt - a.lastAt).slice(0, limit);
    },

    /** Erasure: the user's conversations leave the open lists of every day their turns fell on. */
    async forget(
      conversations: readonly ConversationSummary[],
      keyOf: (s: ConversationSummary) => string,
    ): Promise<void> {
      const changes = byList(
        conversations.flatMap((s) => {
          // Bounded: a conversation's turns span its start to its last turn (a year of days at most is looked at).
          const days: Array<[number, string, string]> = [];
          for (let day = dayOf(s.startedAt); day <= Math.min(dayOf(s.lastAt), dayOf(s.startedAt) + 366); day++)
            days.push([day, s.userId, keyOf(s)]);
          return days;
        }),
      );
      for (const [id, { day, items: keys }] of changes) {
        await change<OpenTree>(id, 'o', day, (tree) => {
          const had = keys.filter((key) => key in tree);
          for (const key of had) delete tree[key];
          return had.length > 0;
        });
      }
    },

    /** Retention: the open lists before the day go whole. */
    async purge(beforeDay: number): Promise<void> {
      await lists.deleteMany({ kind: 'o', day: { $lt: beforeDay } });
    },
  };
}
