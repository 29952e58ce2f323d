import { createHash } from 'node:crypto';
import { Router, type Request } from 'express';
import { z } from 'zod';
import { DAY_MS, dayOf, TEXT_LIMIT, type DayRange, type InsightsRoom } from '../../ports/insights.ts';
import { HttpError } from '../../ports/http-error.ts';
import type { Store } from '../../ports/store.ts';
import type { AuditTrail } from '../../ports/studio/audit.ts';
import { decodeCursor, encodeCursor, transcriptOf } from '../insights/conversations.ts';
import { dashboard, dropOff, isoDay } from '../insights/reports.ts';
import { dayParam, dayStartMs } from './day-param.ts';
import { otherMethods } from './other-methods.ts';
import { parseInput } from './request-body.ts';
import { callerOf, requireRole } from './studio-api.ts';

export interface InsightsRoutesDeps {
  readonly room: InsightsRoom;
  readonly store: Store;
  readonly audit: AuditTrail;
  readonly now: () => number;
  /** INSIGHTS_WINDOW: a conversation with no turn for this long has stopped. */
  readonly windowMs: number;
  /** The published version in service now (the drop-off's default). */
  readonly currentVersion: () => string;
  /** A version's steps in definition order, or null for a version the room does not have. */
  readonly stepsOf: (versionId: string) => Promise<readonly { dialogId: string; stepId: string }[] | null>;
  /** The user-data fields the bot in service declares (a search by field names one of them). */
  readonly userDataFields: () => readonly string[];
  /** The erasure (app/erase-user.ts) with everything it removes. */
  readonly erase: (userId: string) => Promise<{ user: number; transcript: number; jobs: number }>;
}

/** The longest range one request may ask for. */
const MAX_DAYS = 366;
const DEFAULT_DAYS = 30;

const date = dayParam;
const versionId = z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, 'must be a version id (as the versions list gives it)');
const rangeShape = { from: date.optional(), to: date.optional() };
const reportQuery = z.strictObject({ ...rangeShape, version: versionId.optional() });
const searchQuery = z.strictObject({
  ...rangeShape,
  text: z.string().min(1).max(TEXT_LIMIT, `must be at most ${TEXT_LIMIT} characters`).optional(),
  field: z
    .string()
    .regex(/^[A-Za-z][A-Za-z0-9_]{0,63}$/, 'must be a user-data field name')
    .optional(),
  value: z.string().max(TEXT_LIMIT, `must be at most ${TEXT_LIMIT} characters`).optional(),
  channel: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a channel name')
    .optional(),
  reached: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}\/[A-Za-z0-9_-]{1,64}$/, 'must be dialogId/stepId')
    .optional(),
  integrationError: z.enum(['true', 'false']).optional(),
  cursor: z.string().max(300).optional(),
  limit: z
    .string()
    .regex(/^\d{1,3}$/, 'must be a whole number from 1 to 100')
    .transform(Number)
    .refine((n) => n >= 1 && n <= 100, 'must be a whole number from 1 to 100')
    .optional(),
});
const transcriptQuery = z.strictObject({
  afterSeq: z
    .string()
    .regex(/^\d{1,12}$/, 'must be a whole number (the nextAfterSeq of the previous page)')
    .transform(Number)
    .optional(),
});
const MAX_USER_ID = 256;

export const INSIGHTS_METHODS: Readonly<Record<string, string>> = {
  '/insights/dashboard': 'GET',
  '/insights/drop-off': 'GET',
  '/insights/conversations': 'GET',
  '/insights/users/:userId': 'GET, DELETE',
};

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

function userIdOf(req: Request): string {
  const userId = req.params.userId;
  if (typeof userId !== 'string' || userId.length === 0 || userId.length > MAX_USER_ID) {
    throw new HttpError(400, 'invalid_parameter', `The user id must be 1 to ${MAX_USER_ID} characters.`, {
      path: 'userId',
    });
  }
  return userId;
}

/**
 * Insights under /studio/api/insights: the dashboard, the drop-off per step, the conversation
 * search and one user's transcript. All of it is personal data or drawn from it: owners and
 * analysts only (`readConversations`); erasing a user is the owners' (`eraseUsers`).
 */
export function insightsRoutes(deps: InsightsRoutesDeps): Router {
  const router = Router();
  const read = requireRole('readConversations');

  router.get('/insights/dashboard', read, async (req, res) => {
    const query = parseInput(reportQuery, req.query, 'query');
    const days = daysOf(query, deps.now());
    const range: DayRange = { ...days, ...(query.version ? { version: query.version } : {}) };
    res.json({
      from: isoDay(days.fromDay),
      to: isoDay(days.toDay),
      version: query.version ?? null,
      ...(await dashboard(deps.room, range)),
    });
  });

  router.get('/insights/drop-off', read, async (req, res) => {
    const query = parseInput(reportQuery, req.query, 'query');
    const days = daysOf(query, deps.now());
    const version = query.version ?? deps.currentVersion();
    const order = await deps.stepsOf(version);
    if (order === null && query.version)
      throw new HttpError(404, 'not_found', `There is no version ${version}; pick one from the versions list.`, {
        path: 'version',
      });
    const figures = await dropOff(
      deps.room,
      { ...days, version },
      { now: deps.now(), windowMs: deps.windowMs, order: order ?? [] },
    );
    res.json({ from: isoDay(days.fromDay), to: isoDay(days.toDay), version, windowMs: deps.windowMs, ...figures });
  });

  router.get('/insights/conversations', read, async (req, res) => {
    const query = parseInput(searchQuery, req.query, 'query');
    const days = daysOf(query, deps.now());
    if ((query.field === undefined) !== (query.value === undefined)) {
      throw new HttpError(
        400,
        'invalid_parameter',
        'field and value go together: name a user-data field and the value it must have.',
        { path: query.field === undefined ? 'field' : 'value' },
      );
    }
    if (query.field !== undefined && !deps.userDataFields().includes(query.field)) {
      throw new HttpError(
        400,
        'invalid_parameter',
        `field: the bot has no user-data field ${query.field}; it declares ${deps.userDataFields().join(', ') || 'none'}.`,
        { path: 'field' },
      );
    }
    const before = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
    if (query.cursor !== undefined && !before)
      throw new HttpError(400, 'invalid_parameter', 'cursor: must be the next cursor of the previous page.', {
        path: 'cursor',
      });
    const page = await deps.room.searchConversations({
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
    });
    res.json({
      from: isoDay(days.fromDay),
      to: isoDay(days.toDay),
      conversations: page.items,
      nextCursor: page.next ? encodeCursor(page.next) : null,
      ...(page.searchedBackTo !== undefined
        ? { searchedBackTo: page.searchedBackTo, searchedConversations: page.searched ?? 0 }
        : {}),
    });
  });

  router.get('/insights/users/:userId', read, async (req, res) => {
    const userId = userIdOf(req);
    const query = parseInput(transcriptQuery, req.query, 'query');
    const view = await transcriptOf({ store: deps.store, room: deps.room, now: deps.now }, userId, query.afterSeq ?? 0);
    if (!view) throw new HttpError(404, 'not_found', 'No such user: they may have been erased, or never written.');
    res.json(view);
  });

  router.delete('/insights/users/:userId', requireRole('eraseUsers'), async (req, res) => {
    const userId = userIdOf(req);
    const caller = callerOf(req);
    const erased = await deps.erase(userId);
    // As the management API's erasure: the trail keeps that it happened and a digest of whom, never the id.
    await deps.audit.record({
      actor: caller.actor,
      ip: caller.ip,
      action: 'user_erased',
      target: `sha256:${createHash('sha256').update(userId, 'utf8').digest('hex')}`,
      details: { found: erased.user === 1, transcript: erased.transcript, jobs: erased.jobs },
    });
    res.json({ userId, erased });
  });

  router.use(otherMethods(INSIGHTS_METHODS));
  return router;
}
