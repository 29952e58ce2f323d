import { Router } from 'express';
import { z } from 'zod';
import type { PresenceBoard } from '../../ports/studio/presence.ts';
import { readJson } from '../http/request-body.ts';
import { callerOf, requireRole } from '../http/studio-api.ts';
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

const beatBody = z
  .object({
    dialog: z
      .string()
      .regex(/^[A-Za-z][A-Za-z0-9_-]{0,63}$/, 'must be a dialog id')
      .optional(),
  })
  .strict();

/**
 * The designer's part of the studio's API, under /studio/api: the step-type catalogue the palette
 * and the forms are made from, and presence (who else has the designer open, on which dialog).
 * Both are for every role that may read the bot.
 */
export function designerRoutes(deps: DesignerDeps): Router {
  const router = Router();
  const read = requireRole('readBot');
  let beats = 0;

  router.get('/designer/catalogue', read, (_req, res) => {
    res.set('cache-control', 'no-store').json(deps.catalogue());
  });

  router.post('/designer/presence', read, async (req, res) => {
    const caller = callerOf(req);
    const body = await readJson(req, beatBody);
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
    res.json({
      editors: others.map((beat) => ({
        accountId: beat.accountId,
        name: beat.name,
        ...(beat.dialog === undefined ? {} : { dialog: beat.dialog }),
        at: new Date(beat.at).toISOString(),
      })),
    });
  });
  return router;
}
