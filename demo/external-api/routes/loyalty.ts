import { Router } from 'express';

/** The loyalty programme's tiers, lowest first. */
export const LOYALTY_TIERS = [
  { name: 'Bronze', minPoints: 0 },
  { name: 'Silver', minPoints: 500 },
  { name: 'Gold', minPoints: 2000 },
] as const;

/**
 * The customer's loyalty programme as the demo plays it; the bot's own step type
 * (demo/steps/loyalty-points.mjs) calls both routes and combines them:
 *   GET /loyalty/members/:id → {memberId, points}, the same points for the same id;
 *   GET /loyalty/tiers       → [{name, minPoints}].
 * A member id starting with "fail-" answers 503, so the bot's error policy can be tried.
 */
export function loyaltyRouter(): Router {
  const router = Router();

  router.get('/loyalty/members/:id', (req, res) => {
    const memberId = req.params.id;
    if (memberId.startsWith('fail-')) {
      res
        .status(503)
        .json({ error: { code: 'unavailable', message: 'The loyalty service is down (a demo failure).' } });
      return;
    }
    // Deterministic per member, so the demo shows the same balance twice in a row.
    let seed = 0;
    for (const char of memberId) seed = (seed * 31 + char.charCodeAt(0)) >>> 0;
    res.json({ memberId, points: (seed % 60) * 50 });
  });

  router.get('/loyalty/tiers', (_req, res) => {
    res.json(LOYALTY_TIERS);
  });

  return router;
}
