import { Router } from 'express';
import type { AuditLog } from '../../ports/audit.ts';
import { requireRole } from './studio-api.ts';
import { serveRoute } from './studio-route.ts';

/** The audit trail, for owners: a page at a time, oldest first, with the cursor of the next page. */
export function auditRoutes(deps: { audit: AuditLog }): Router {
  const router = Router();
  serveRoute(router, 'readAudit', { guard: requireRole('readAudit') }, async ({ query }) => {
    const limit = query.limit ?? 100;
    const entries = await deps.audit.read({
      limit,
      ...(query.fromTimestamp !== undefined ? { fromAt: query.fromTimestamp * 1000 } : {}),
      ...(query.toTimestamp !== undefined ? { toAt: query.toTimestamp * 1000 } : {}),
      ...(query.cursor ? { after: query.cursor } : {}),
    });
    return {
      entries: entries.map((entry) => ({ ...entry, timestamp: new Date(entry.at).toISOString() })),
      nextCursor: entries.length === limit ? entries.at(-1)!.id : null,
    };
  });
  return router;
}
