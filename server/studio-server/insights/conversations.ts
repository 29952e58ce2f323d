import { messageText, redact } from '../../app/export-records.ts';
import type { ConversationQuery, ConversationSummary, InsightsStore } from '../../ports/insights.ts';
import type { Store } from '../../ports/store.ts';
import type { IntegrationCallView, Transcript, TranscriptMessage } from '../../../shared/studio-insights.ts';

/**
 * One user's transcript for the studio: each message with the dialog and step it came from (a
 * bot message: the step that said it; the user's: the step it answered, the one the last bot
 * message came from), and the integration calls made between it and the next message, as the
 * integration log keeps them (secrets redacted when written, and again here by key).
 */

export const TRANSCRIPT_PAGE = 200;
/** Integration calls listed for one page of messages, at most. */
const CALLS_PAGE = 500;
/** The user's conversations listed beside the transcript, newest first. */
const CONVERSATIONS_LISTED = 50;

export type { IntegrationCallView, TranscriptMessage };
/** A user's transcript page as the studio's API answers it. */
export type TranscriptView = Transcript;

/** A user's transcript page, or null for a user not known (or a preview user: they appear nowhere in insights). */
export async function transcriptOf(
  deps: { readonly store: Store; readonly insights: InsightsStore; readonly now: () => number },
  userId: string,
  afterSeq: number,
): Promise<TranscriptView | null> {
  // The reads that do not depend on each other go together: on a store that scans a collection per
  // read (FerretDB), the view then waits for the slowest scan, not for their sum. The first page's
  // calls are asked from the start of time and cut to the page's range below (the page's messages
  // are the user's first, so its calls are the oldest); a later page's wait for its first message.
  const now = deps.now();
  const [user, entries, conversations, earliestCalls] = await Promise.all([
    deps.store.getUser(userId),
    deps.store.readTranscript(userId, afterSeq, TRANSCRIPT_PAGE + 1),
    deps.insights.conversationsOf(userId, CONVERSATIONS_LISTED),
    afterSeq === 0 ? deps.insights.userLogs(userId, ['integrationLog'], 0, now + 1, CALLS_PAGE) : undefined,
  ]);
  if (!user || user.preview !== undefined) return null;
  const page = entries.slice(0, TRANSCRIPT_PAGE);
  const following = entries[TRANSCRIPT_PAGE];
  const first = page[0];
  const calls = !first
    ? []
    : earliestCalls
      ? earliestCalls.filter((c) => c.timestamp >= first.at && (!following || c.timestamp < following.at))
      : await deps.insights.userLogs(
          userId,
          ['integrationLog'],
          first.at,
          following ? following.at : now + 1,
          CALLS_PAGE,
        );
  // Where the user's message was when they wrote it: the step of the bot message before it, if any.
  let answering: { dialogId: string; stepId: string } | undefined;
  if (afterSeq > 0 && first?.from === 'user') {
    const before = await deps.store.readTranscript(userId, Math.max(0, afterSeq - 1), 1);
    const last = before[0];
    if (last?.from === 'bot' && last.dialogId && last.stepId)
      answering = { dialogId: last.dialogId, stepId: last.stepId };
  }
  let call = 0;
  const messages = page.map((entry, index): TranscriptMessage => {
    const next = page[index + 1];
    const after = next ?? following;
    // A bot message stamped in the same millisecond as a call reports on that call (the call ran first,
    // within the turn), so the call stays with this message; a visitor's next message starts a new turn.
    const until = after ? after.at + (after.from === 'bot' ? 1 : 0) : Number.POSITIVE_INFINITY;
    const own: IntegrationCallView[] = [];
    // Calls logged at or after this message and before the next belong to this turn (sync calls run after its messages).
    while (call < calls.length && calls[call]!.timestamp < until) {
      own.push(callView(calls[call]!.timestamp, calls[call]!.data));
      call++;
    }
    let where: { dialogId: string; stepId: string } | undefined;
    if (entry.from === 'bot') {
      if (entry.dialogId && entry.stepId) where = { dialogId: entry.dialogId, stepId: entry.stepId };
      answering = where ?? answering;
    } else where = answering;
    return {
      seq: entry.seq,
      at: entry.at,
      from: entry.from,
      channel: channelAt(conversations, entry.at) ?? user.channelId,
      text: messageText(entry.message),
      message: entry.message,
      ...(where ?? {}),
      integrationCalls: own,
    };
  });
  // Every conversation of the user is read for its events (a later page's events may belong to an older one).
  const from = afterSeq === 0 ? Number.NEGATIVE_INFINITY : (first?.at ?? Number.POSITIVE_INFINITY);
  const until = following ? following.at : Number.POSITIVE_INFINITY;
  const events = conversations
    .flatMap((c) => c.events)
    .filter((e) => e.at >= from && e.at < until)
    .sort((a, b) => a.at - b.at);
  return {
    userId,
    channel: user.channelId,
    userData: user.userData,
    conversations: afterSeq === 0 ? conversations : [],
    messages,
    events,
    nextAfterSeq: following ? page.at(-1)!.seq : null,
  };
}

/**
 * The channel of the conversation a message at `at` belongs to: the latest one started by then (a
 * summary's last turn may not be written yet, so its start, not its end, decides).
 */
function channelAt(conversations: readonly ConversationSummary[], at: number): string | undefined {
  let found: ConversationSummary | undefined;
  for (const c of conversations) if (c.startedAt <= at && (!found || c.startedAt > found.startedAt)) found = c;
  return found?.channel || undefined;
}

function callView(at: number, data: Readonly<Record<string, unknown>>): IntegrationCallView {
  const clean = redact(data) as Record<string, unknown>;
  return {
    at,
    method: clean.method ?? null,
    url: clean.url ?? null,
    requestHeaders: clean.requestHeaders ?? null,
    requestBody: clean.requestBody ?? null,
    responseStatus: clean.responseStatus ?? null,
    responseBody: clean.responseBody ?? null,
    durationMs: clean.duration ?? null,
    ...(clean.error !== undefined ? { error: clean.error } : {}),
  };
}

/** A search's cursor: the last conversation of the page, as text the client hands back. */
export function encodeCursor(next: { startedAt: number; userId: string }): string {
  return Buffer.from(JSON.stringify([next.startedAt, next.userId]), 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string): { startedAt: number; userId: string } | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && Number.isSafeInteger(value[0]) && typeof value[1] === 'string')
      return { startedAt: value[0] as number, userId: value[1] };
  } catch {
    // fall through: not one of ours
  }
  return undefined;
}

export type { ConversationQuery };
