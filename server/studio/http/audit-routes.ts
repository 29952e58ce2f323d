import { Router } from 'express';
import { z } from 'zod';
import type { AuditLog } from '../../ports/studio/audit.ts';
import { parseInput } from './request-body.ts';
import { requireRole } from './studio-api.ts';

/** UNIX seconds, as the management API's exports take them. */
const seconds = z
  .string()
  .regex(/^\d{1,11}$/, 'must be whole UNIX seconds')
  .transform(Number);
const auditQuery = z.strictObject({
  fromTimestamp: seconds.optional(),
  toTimestamp: seconds.optional(),
  limit: z
    .string()
    .regex(/^\d{1,4}$/, 'must be a whole number from 1 to 1000')
    .transform(Number)
    .refine((n) => n >= 1 && n <= 1000, 'must be a whole number from 1 to 1000')
    .optional(),
  cursor: z
    .string()
    .regex(/^[0-9a-z-]{1,64}$/, 'must be the nextCursor of the previous page')
    .optional(),
});

/** The audit trail, for owners: a page at a time, oldest first, with the cursor of the next page. */
export function auditRoutes(deps: { audit: AuditLog }): Router {
  const router = Router();
  router.get('/audit', requireRole('readAudit'), async (req, res) => {
    const query = parseInput(auditQuery, req.query, 'query');
    const limit = query.limit ?? 100;
    const entries = await deps.audit.read({
      limit,
      ...(query.fromTimestamp !== undefined ? { fromAt: query.fromTimestamp * 1000 } : {}),
      ...(query.toTimestamp !== undefined ? { toAt: query.toTimestamp * 1000 } : {}),
      ...(query.cursor ? { after: query.cursor } : {}),
    });
    res.json({
      entries: entries.map((entry) => ({ ...entry, timestamp: new Date(entry.at).toISOString() })),
      nextCursor: entries.length === limit ? entries.at(-1)!.id : null,
    });
  });
  return router;
}
