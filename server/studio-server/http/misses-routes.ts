import { Router, type Request } from 'express';
import type { Misses, MissesAdded } from '../../../shared/studio-misses.ts';
import { DAY_MS, dayOf } from '../../ports/insights.ts';
import type { EmbeddingProvider } from '../../ports/embeddings.ts';
import { HttpError } from '../../ports/http-error.ts';
import type { Store } from '../../ports/store.ts';
import { may } from '../../ports/roles.ts';
import { isoDay } from '../insights/reports.ts';
import { missesReport } from '../insights/misses.ts';
import { addPhrasings, teachableOf } from '../insights/teachable.ts';
import { autosaveDraft, readDraft } from '../versions/editing.ts';
import { writtenOf } from '../../bot/version-source.ts';
import type { Acting, VersionsDeps } from '../versions/versions-deps.ts';
import { dayStartMs } from './day-param.ts';
import { otherMethods } from './other-methods.ts';
import { callerOf, requireRole } from './studio-api.ts';
import { serveRoute } from './studio-route.ts';

export interface MissesRoutesDeps {
  readonly store: Store;
  readonly versions: () => VersionsDeps;
  readonly now: () => number;
  /** EMBEDDINGS, when set: the grouping and the suggestions use them as the bot's models do. */
  readonly embeddings?: EmbeddingProvider | undefined;
  /** Log rows read per log (INSIGHTS_MISSES_ROWS; misses.ts ROW_CAP when not given). */
  readonly rowCap?: number;
  /** Distinct inputs grouped at most (INSIGHTS_MISSES_GROUPED; miss-groups.ts MAX_DISTINCT when not given). */
  readonly groupedAtMost?: number;
}

const MAX_DAYS = 366;
const DEFAULT_DAYS = 30;
function acting(req: Request): Acting {
  const caller = callerOf(req);
  return { actor: caller.actor, name: caller.account.name, ip: caller.ip };
}

/**
 * Misses under /studio/api/insights: what the bot did not understand, grouped, beside the intent
 * quality report (owners, editors, analysts: `readMisses`); adding an input to an intent's
 * utterances or a FAQ pair's questions is a change to the caller's draft through the designer's
 * own autosave (its revision check, then preview, tests and publish as any edit), audited
 * (owners and editors: `editBot`).
 */
export function missesRoutes(deps: MissesRoutesDeps): Router {
  const router = Router();

  serveRoute(router, 'insightsMisses', { guard: requireRole('readMisses') }, async ({ query }, req) => {
    const toDay = query.to ? dayOf(dayStartMs(query.to)) : dayOf(deps.now());
    const fromDay = query.from ? dayOf(dayStartMs(query.from)) : toDay - (DEFAULT_DAYS - 1);
    if (fromDay > toDay)
      throw new HttpError(400, 'invalid_parameter', 'from: must be on or before to.', { path: 'from' });
    if (toDay - fromDay + 1 > MAX_DAYS)
      throw new HttpError(
        400,
        'invalid_parameter',
        `from: a range is at most ${MAX_DAYS} days; ask for a shorter one.`,
        { path: 'from' },
      );
    const caller = callerOf(req);
    const canAdd = may(caller.role, 'editBot');
    // Editors see their own draft (where an added phrasing goes); others the newest version.
    let source:
      { kind: 'draft'; revision: number; baseVersionId: string | null } | { kind: 'version'; versionId: string | null };
    let written: unknown;
    if (canAdd) {
      const draft = await readDraft(deps.versions(), acting(req));
      source = { kind: 'draft', revision: draft.revision, baseVersionId: draft.baseVersionId };
      written = draft.definition;
    } else {
      const head = await deps.versions().room.head();
      const version = head ? await deps.versions().room.getVersion(head.id) : null;
      source = { kind: 'version', versionId: version?.id ?? null };
      written = version ? writtenOf(version) : deps.versions().live().written;
    }
    const report = await missesReport(
      {
        store: deps.store,
        embeddings: deps.embeddings,
        ...(deps.rowCap ? { rowCap: deps.rowCap } : {}),
        ...(deps.groupedAtMost ? { groupedAtMost: deps.groupedAtMost } : {}),
      },
      { fromMs: fromDay * DAY_MS, toMs: (toDay + 1) * DAY_MS },
      teachableOf(written),
    );
    return { from: isoDay(fromDay), to: isoDay(toDay), source, canAdd, ...report } satisfies Misses;
  });

  serveRoute(router, 'addMissesToDraft', { guard: requireRole('editBot') }, async ({ body }, req) => {
    const who = acting(req);
    const versions = deps.versions();
    const draft = await readDraft(versions, who);
    if (draft.revision !== body.revision) {
      throw new HttpError(
        409,
        'draft_conflict',
        `Your draft changed since this page read it (revision ${body.revision}, now ${draft.revision}), perhaps in the designer; reload the misses and add again, so neither change overwrites the other.`,
        { revision: draft.revision, updatedAt: draft.updatedAt, baseVersionId: draft.baseVersionId },
      );
    }
    const { definition, added, skipped } = addPhrasings(draft.definition, body.target, body.texts);
    if (added.length === 0) return { revision: draft.revision, added, skipped } satisfies MissesAdded;
    // The designer's own save: refused (409) if another tab saved in between, so nothing is lost.
    const saved = await autosaveDraft(versions, who, {
      baseVersionId: draft.baseVersionId,
      revision: draft.revision,
      definition,
    });
    // What visitors wrote stays out of the trail: how many, and where they went.
    await versions.audit.record({
      actor: who.actor,
      ...(who.ip ? { ip: who.ip } : {}),
      action: body.target.kind === 'intent' ? 'draft_utterances_added' : 'draft_faq_questions_added',
      target: body.target.id,
      details: { added: added.length, skipped: skipped.length, revision: saved.revision, from: 'misses' },
    });
    return { revision: saved.revision, added, skipped } satisfies MissesAdded;
  });

  router.use(otherMethods(['insightsMisses', 'addMissesToDraft']));
  return router;
}
