import { Router } from 'express';
import type { PresenceBoard } from '../../ports/presence.ts';
import { callerOf, requireRole } from '../http/studio-api.ts';
import { otherMethods } from '../http/other-methods.ts';
import { serveRoute } from '../http/studio-route.ts';
import type { DesignerCatalogue } from './catalogue.ts';

/** A designer counts as present for this long after its last beat (it beats every 20 s). */
export const PRESENCE_WINDOW_MS = 45_000;
/** Beats older than this are deleted now and then. */
const PURGE_AFTER_MS = 60 * 60 * 1000;

export interface DesignerDeps {
  /** The catalogue of the bot in service (its own step types change with a publish). */
  readonly catalogue: () => DesignerCatalogue;
  readonly presence: PresenceBoard;
  readonly now: () => number;
}

/**
 * The designer's part of the studio's API, under /studio/api: the step-type catalogue the palette
 * and the forms are made from, and presence (who else has the designer open, on which dialog).
 * Both are for every role that may read the bot.
 */
export function designerRoutes(deps: DesignerDeps): Router {
  const router = Router();
  const read = { guard: requireRole('readBot') };
  let beats = 0;

  serveRoute(router, 'designerCatalogue', read, (_input, _req, res) => {
    res.set('cache-control', 'no-store');
    return deps.catalogue();
  });

  serveRoute(router, 'designerPresence', read, async ({ body }, req) => {
    const caller = callerOf(req);
    const now = deps.now();
    await deps.presence.beat({
      accountId: caller.account.id,
      name: caller.account.name || caller.account.email,
      ...(body.dialog === undefined ? {} : { dialog: body.dialog }),
      at: now,
    });
    if (++beats % 100 === 0) await deps.presence.purge(now - PURGE_AFTER_MS);
    const others = (await deps.presence.list(now - PRESENCE_WINDOW_MS)).filter(
      (beat) => beat.accountId !== caller.account.id,
    );
    return {
      editors: others.map((beat) => ({
        accountId: beat.accountId,
        name: beat.name,
        ...(beat.dialog === undefined ? {} : { dialog: beat.dialog }),
        at: new Date(beat.at).toISOString(),
      })),
    };
  });
  router.use(otherMethods(['designerCatalogue', 'designerPresence'], read.guard));
  return router;
}
