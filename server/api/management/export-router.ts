import { Router } from 'express';
import type { BotDefinition } from '../../definition/schema.ts';
import { EXPORT_NAMES, exportRecords, isExportName, recordFields, type ExportName } from '../../app/export-records.ts';
import type { IdentityLinks } from '../../ports/identity-links.ts';
import type { Logger } from '../../ports/logger.ts';
import type { Store } from '../../ports/store.ts';
import { HttpError } from '../../ports/http-error.ts';
import { encodePageCursor, parseExportQuery } from './export-query.ts';
import { methodNotAllowed } from './method-not-allowed.ts';
import { streamExport } from './stream-export.ts';
import { nextPageUrl } from './next-page-url.ts';

export interface ExportDeps {
  readonly store: Store;
  readonly definition: BotDefinition;
  readonly logger: Logger;
  /** The app's dependencies: their identity links list a linked person's addresses in the userData export. */
  readonly deps?: () => { readonly identityLinks?: IdentityLinks; readonly linkByPhone?: boolean };
}

/** GET /export/{name} for the spec's eight exports (section 4.1). */
export function exportRouter(deps: ExportDeps): Router {
  const router = Router();
  router
    .route('/export/:name')
    .get(async (req, res) => {
      const name = req.params.name;
      if (!isExportName(name)) {
        throw new HttpError(404, 'not_found', `There is no export "${name}". Exports: ${EXPORT_NAMES.join(', ')}.`);
      }
      const exportName: ExportName = name;
      const query = parseExportQuery(req, exportName, deps.definition.userDataFields);
      const batchSize = query.limit === undefined ? 1000 : Math.min(1000, query.limit + 1);
      const { identityLinks, linkByPhone } = deps.deps?.() ?? {};
      const linked = identityLinks ? { identityLinks, linkByPhone: linkByPhone === true } : {};
      const items = exportRecords({ ...deps, ...linked }, exportName, {
        ...query,
        batchSize,
        json: query.format !== 'csv',
      });
      try {
        await streamExport(res, items, {
          format: query.format,
          fields: recordFields(deps.definition, exportName, linked.linkByPhone),
          limit: query.limit,
          filename: exportName,
          logger: deps.logger,
          bom: query.bom,
          csvFormulaGuard: query.csvFormulaGuard,
          nextPage: (storeCursor) => {
            const cursor = encodePageCursor(exportName, storeCursor);
            return { cursor, url: nextPageUrl(req, cursor) };
          },
        });
      } catch (error) {
        // The store rejects a cursor it never made; the caller sees the same 400 as for any bad cursor.
        if ((error as { code?: unknown }).code === 'invalid_cursor') {
          throw new HttpError(
            400,
            'invalid_parameter',
            'cursor is not one this export handed out: pass the X-Next-Cursor value of the previous page unchanged.',
            {
              parameter: 'cursor',
            },
          );
        }
        throw error;
      }
    })
    .all((req, res, next) => {
      if (!isExportName(req.params.name))
        return next(
          new HttpError(
            404,
            'not_found',
            `There is no export "${req.params.name}". Exports: ${EXPORT_NAMES.join(', ')}.`,
          ),
        );
      methodNotAllowed('GET, HEAD')(req, res, next);
    });
  return router;
}
