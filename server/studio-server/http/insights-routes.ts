import { createHash } from 'node:crypto';
import { Router } from 'express';
import { DAY_MS, dayOf, type ConversationQuery, type DayRange, type InsightsStore } from '../../ports/insights.ts';
import type { StudioParsedQuery } from '../../../shared/studio-api.ts';
import { HttpError } from '../../ports/http-error.ts';
import type { Store } from '../../ports/store.ts';
import type { ErasureReport } from '../../ports/personal-data.ts';
import type { AuditTrail } from '../../ports/audit.ts';
import { decodeCursor, encodeCursor, transcriptOf } from '../insights/conversations.ts';
import { dashboard, dropOff, isoDay } from '../insights/reports.ts';
import { dayStartMs } from './day-param.ts';
import { otherMethods } from './other-methods.ts';
import { callerOf, requireRole } from './studio-api.ts';
import { serveRoute } from './studio-route.ts';

export interface InsightsRoutesDeps {
  readonly insights: InsightsStore;
  readonly store: Store;
  readonly audit: AuditTrail;
  readonly now: () => number;
  /** INSIGHTS_WINDOW: a conversation with no turn for this long has stopped. */
  readonly windowMs: number;
  /** The published version in service now (the drop-off's default). */
  readonly currentVersion: () => string;
  /** A version's steps in definition order, or null for a version the insights does not have. */
  readonly stepsOf: (versionId: string) => Promise<readonly { dialogId: string; stepId: string }[] | null>;
  /** The user-data fields the bot in service declares (a search by field names one of them). */
  readonly userDataFields: () => readonly string[];
  /** The erasure (app/erase-user.ts) with everything it removes. */
  readonly erase: (userId: string) => Promise<ErasureReport>;
}

/** The longest range one request may ask for. */
const MAX_DAYS = 366;
const DEFAULT_DAYS = 30;

const MAX_USER_ID = 256;

/** The days asked for: `from` and `to` inclusive, UTC; by default the last 30 days up to today. */
function daysOf(
  query: { from?: string | undefined; to?: string | undefined },
  now: number,
): { fromDay: number; toDay: number } {
  const toDay = query.to ? dayOf(dayStartMs(query.to)) : dayOf(now);
  const fromDay = query.from ? dayOf(dayStartMs(query.from)) : toDay - (DEFAULT_DAYS - 1);
  if (fromDay > toDay)
    throw new HttpError(400, 'invalid_parameter', 'from: must be on or before to.', { path: 'from' });
  if (toDay - fromDay + 1 > MAX_DAYS)
    throw new HttpError(400, 'invalid_parameter', `from: a range is at most ${MAX_DAYS} days; ask for a shorter one.`, {
      path: 'from',
    });
  return { fromDay, toDay };
}

/** A report's range: its days, and the version and the channel when the query names them. */
function reportRange(query: { from?: string; to?: string; version?: string; channel?: string }, now: number): DayRange {
  return {
    ...daysOf(query, now),
    ...(query.version ? { version: query.version } : {}),
    ...(query.channel ? { channel: query.channel } : {}),
  };
}

/** What a report says it covers: its days, and the version and the channel, or null for all. */
function covered(range: DayRange) {
  return {
    from: isoDay(range.fromDay),
    to: isoDay(range.toDay),
    version: range.version ?? null,
    channel: range.channel ?? null,
  };
}

/** The search a query asks for, its field and value checked against the bot's user-data fields and its cursor decoded. */
function searchOf(
  query: StudioParsedQuery<'searchConversations'>,
  days: { fromDay: number; toDay: number },
  userDataFields: readonly string[],
): ConversationQuery {
  if ((query.field === undefined) !== (query.value === undefined)) {
    throw new HttpError(
      400,
      'invalid_parameter',
      'field and value go together: name a user-data field and the value it must have.',
      { path: query.field === undefined ? 'field' : 'value' },
    );
  }
  if (query.field !== undefined && !userDataFields.includes(query.field)) {
    throw new HttpError(
      400,
      'invalid_parameter',
      `field: the bot has no user-data field ${query.field}; it declares ${userDataFields.join(', ') || 'none'}.`,
      { path: 'field' },
    );
  }
  const before = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  if (query.cursor !== undefined && !before)
    throw new HttpError(400, 'invalid_parameter', 'cursor: must be the next cursor of the previous page.', {
      path: 'cursor',
    });
  return {
    fromMs: days.fromDay * DAY_MS,
    toMs: (days.toDay + 1) * DAY_MS,
    limit: query.limit ?? 50,
    ...(query.text !== undefined ? { text: query.text } : {}),
    ...(query.field !== undefined && query.value !== undefined
      ? { field: { name: query.field, value: query.value } }
      : {}),
    ...(query.channel !== undefined ? { channel: query.channel } : {}),
    ...(query.reached !== undefined ? { reached: query.reached } : {}),
    ...(query.integrationError === 'true' ? { integrationError: true } : {}),
    ...(before ? { before } : {}),
  };
}

/** A user id the map refuses (empty or too long): 400 naming the parameter. */
const badUserId = () =>
  new HttpError(400, 'invalid_parameter', `The user id must be 1 to ${MAX_USER_ID} characters.`, { path: 'userId' });

/**
 * Insights under /studio/api/insights: the dashboard, the drop-off per step, the conversation
 * search and one user's transcript. All of it is personal data or drawn from it: owners and
 * analysts only (`readConversations`); erasing a user is the owners' (`eraseUsers`).
 */
export function insightsRoutes(deps: InsightsRoutesDeps): Router {
  const router = Router();
  const read = { guard: requireRole('readConversations') };

  serveRoute(router, 'insightsDashboard', read, async ({ query }) => {
    const range = reportRange(query, deps.now());
    return { ...covered(range), ...(await dashboard(deps.insights, range)) };
  });

  serveRoute(router, 'insightsDropOff', read, async ({ query }) => {
    const version = query.version ?? deps.currentVersion();
    const order = await deps.stepsOf(version);
    if (order === null && query.version)
      throw new HttpError(404, 'not_found', `There is no version ${version}; pick one from the versions list.`, {
        path: 'version',
      });
    const range = { ...reportRange(query, deps.now()), version };
    const figures = await dropOff(deps.insights, range, {
      now: deps.now(),
      windowMs: deps.windowMs,
      order: order ?? [],
    });
    return { ...covered(range), version, windowMs: deps.windowMs, ...figures };
  });

  serveRoute(router, 'searchConversations', read, async ({ query }) => {
    const days = daysOf(query, deps.now());
    const page = await deps.insights.searchConversations(searchOf(query, days, deps.userDataFields()));
    return {
      from: isoDay(days.fromDay),
      to: isoDay(days.toDay),
      conversations: page.items,
      nextCursor: page.next ? encodeCursor(page.next) : null,
      ...(page.searchedBackTo !== undefined
        ? { searchedBackTo: page.searchedBackTo, searchedConversations: page.searched ?? 0 }
        : {}),
    };
  });

  serveRoute(router, 'readUserTranscript', { ...read, badParam: badUserId }, async ({ params, query }) => {
    const at = { store: deps.store, insights: deps.insights, now: deps.now };
    const view = await transcriptOf(at, params.userId, query.afterSeq ?? 0);
    if (!view) throw new HttpError(404, 'not_found', 'No such user: they may have been erased, or never written.');
    return view;
  });

  const erase = { guard: requireRole('eraseUsers'), badParam: badUserId };
  serveRoute(router, 'eraseUserFromStudio', erase, async ({ params: { userId } }, req) => {
    const caller = callerOf(req);
    const erased = await deps.erase(userId);
    // As the management API's erasure: the trail keeps that it happened and a digest of whom, never the id.
    await deps.audit.record({
      actor: caller.actor,
      ip: caller.ip,
      action: 'user_erased',
      target: `sha256:${createHash('sha256').update(userId, 'utf8').digest('hex')}`,
      details: { found: erased.user >= 1, transcript: erased.transcript, jobs: erased.jobs },
    });
    return { userId, erased };
  });

  router.use(
    otherMethods([
      'insightsDashboard',
      'insightsDropOff',
      'searchConversations',
      'readUserTranscript',
      'eraseUserFromStudio',
    ]),
  );
  return router;
}
