import { Router } from 'express';
import type { ExportItem } from '../../app/export-records.ts';
import type { Logger } from '../../ports/logger.ts';
import type { AuditEntry, AuditLog } from '../../ports/audit.ts';
import { encodePageCursor, parseExportQuery } from './export-query.ts';
import { methodNotAllowed } from './method-not-allowed.ts';
import { streamExport } from './stream-export.ts';
import { nextPageUrl } from './next-page-url.ts';

/** The columns of an audit record (CSV header order); the actor is flattened so a spreadsheet reads it. */
export const AUDIT_FIELDS = [
  'timestamp',
  'id',
  'actorKind',
  'actorAccountId',
  'actorEmail',
  'ip',
  'action',
  'target',
  'details',
] as const;

export const auditRecord = (entry: AuditEntry): Record<string, unknown> => ({
  timestamp: new Date(entry.at).toISOString(),
  id: entry.id,
  actorKind: entry.actor.kind,
  actorAccountId: entry.actor.accountId ?? null,
  actorEmail: entry.actor.email ?? null,
  ip: entry.ip ?? null,
  action: entry.action,
  target: entry.target ?? null,
  details: entry.details ?? null,
});

const auditValues = (entry: AuditEntry): unknown[] => {
  const record = auditRecord(entry);
  return AUDIT_FIELDS.map((field) => record[field]);
};

/** Pages through the trail a thousand entries at a time, so memory stays flat however long it is. */
async function* auditItems(
  audit: AuditLog,
  range: { fromMs?: number; toMs?: number; after?: string },
): AsyncGenerator<readonly ExportItem[]> {
  let after = range.after;
  for (;;) {
    const page = await audit.read({
      limit: 1000,
      ...(range.fromMs !== undefined ? { fromAt: range.fromMs } : {}),
      ...(range.toMs !== undefined ? { toAt: range.toMs } : {}),
      ...(after ? { after } : {}),
    });
    if (page.length > 0) yield page.map((entry) => ({ values: auditValues(entry), cursor: entry.id }));
    if (page.length < 1000) return;
    after = page.at(-1)!.id;
  }
}

/**
 * GET /audit (under /api/management, behind the function key): the studio's audit trail as the
 * other logs are exported — the same time filters, paging, JSON, NDJSON and CSV.
 */
export function auditRouter(deps: { audit: AuditLog; logger: Logger }): Router {
  const router = Router();
  router
    .route('/audit')
    .get(async (req, res) => {
      const query = parseExportQuery(req, 'audit', []);
      await streamExport(res, auditItems(deps.audit, query), {
        format: query.format,
        fields: AUDIT_FIELDS,
        limit: query.limit,
        filename: 'audit',
        logger: deps.logger,
        bom: query.bom,
        csvFormulaGuard: query.csvFormulaGuard,
        nextPage: (storeCursor) => {
          const cursor = encodePageCursor('audit', storeCursor);
          return { cursor, url: nextPageUrl(req, cursor) };
        },
      });
    })
    .all(methodNotAllowed('GET, HEAD'));
  return router;
}
