import { createHash } from 'node:crypto';
import { Router } from 'express';
import type { AuditTrail } from '../../ports/audit.ts';
import type { AppDeps } from '../../app/deps.ts';
import { eraseUser } from '../../app/erase-user.ts';
import { HttpError } from '../../ports/http-error.ts';
import { methodNotAllowed } from './method-not-allowed.ts';

/** Longest user id accepted, as for the short trigger form. */
const MAX_USER_ID = 256;

/** DELETE /users/{userId}: erase everything held about a user (mounted under /api/management, behind the key). */
export function erasureRouter(
  deps: () => Pick<AppDeps, 'store' | 'turns' | 'logger' | 'clock' | 'events' | 'usage' | 'insights'>,
  audit?: AuditTrail,
): Router {
  const router = Router();
  router
    .route('/users/:userId')
    .delete(async (req, res) => {
      const userId = req.params.userId;
      if (typeof userId !== 'string' || userId.length === 0 || userId.length > MAX_USER_ID) {
        throw new HttpError(400, 'invalid_parameter', `The user id must be 1 to ${MAX_USER_ID} characters.`, {
          parameter: 'userId',
        });
      }
      const erased = await eraseUser(deps(), userId);
      // The trail keeps that an erasure happened, not whom it erased: a digest the requester can match with the id they sent.
      await audit?.record({
        actor: { kind: 'key' },
        ...(req.ip ? { ip: req.ip } : {}),
        action: 'user_erased',
        target: `sha256:${createHash('sha256').update(userId, 'utf8').digest('hex')}`,
        details: { found: erased.user >= 1, transcript: erased.transcript, jobs: erased.jobs },
      });
      res.setHeader('Cache-Control', 'no-store');
      res.json({ userId, erased });
    })
    .all(methodNotAllowed('DELETE'));
  return router;
}
