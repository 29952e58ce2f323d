import express, { Router, type RequestHandler } from 'express';
import { DATASET_BODY_BOUNDS, bodyBoundsError } from './management/body-bounds.ts';
import { HttpError } from './errors.ts';
import { functionKeyCheck, requireFunctionKey } from './management/function-key.ts';
import { methodNotAllowed } from './management/method-not-allowed.ts';

/**
 * What the push endpoints need from the background datasets (DatasetManager
 * fits). Errors carrying `code` "not_found" or "invalid_body" become 404/400.
 */
export interface DatasetPushTarget {
  has(name: string): boolean;
  names(): string[];
  replace(name: string, rows: unknown): Promise<{ rowCount: number }>;
  update(name: string, change: { upsert?: unknown; delete?: unknown }): Promise<{ rowCount: number }>;
  pull(name: string): Promise<{ ok: boolean }>;
  info(name: string): Promise<{ name: string; rowCount: number; updatedAt: number } | null>;
}

/** Push bodies hold whole datasets ("up to thousands of rows"): far above the 64 KiB of trigger bodies. */
const PUSH_BODY_LIMIT = '10mb';

/**
 * Background dataset endpoints for the external server (spec 1.2), under
 * /api/management/datasets/{name}, authenticated with the function key:
 * - PUT   full replace: body is the list of rows (or {"rows": [...]});
 * - PATCH incremental: {"upsert": [...rows], "delete": [...ids]};
 * - POST  …/{name}/refresh: change signal, the bot pulls from the source (202);
 * - GET   row count and last change.
 */
export function datasetsRouter(options: { datasets: DatasetPushTarget; functionKey: string }): Router {
  const { datasets } = options;
  const router = Router();
  router.use(requireFunctionKey(functionKeyCheck(options.functionKey)));
  router.use(express.json({ limit: PUSH_BODY_LIMIT }));
  // Before anything walks the rows (validation, storage, the in-memory index), all of which recurse.
  router.use((req, _res, next) =>
    next(req.body === undefined ? undefined : bodyBoundsError(req.body, DATASET_BODY_BOUNDS)),
  );

  const known: RequestHandler = (req, _res, next) => {
    const name = String(req.params.name);
    if (!datasets.has(name)) {
      return next(
        new HttpError(
          404,
          'not_found',
          `There is no dataset named "${name}"; known: ${datasets.names().join(', ') || 'none'}.`,
        ),
      );
    }
    next();
  };
  const json: RequestHandler = (req, _res, next) => {
    if (!req.is('application/json'))
      return next(
        new HttpError(415, 'unsupported_media_type', 'Send the rows as JSON (Content-Type: application/json).'),
      );
    next();
  };

  router.get('/:name', known, async (req, res) => {
    const info = await datasets.info(String(req.params.name));
    res.json({
      name: req.params.name,
      rowCount: info?.rowCount ?? 0,
      updatedAt: info ? new Date(info.updatedAt).toISOString() : null,
    });
  });
  router.put('/:name', known, json, async (req, res) => {
    const body: unknown = req.body;
    const rows = Array.isArray(body) ? body : (body as { rows?: unknown } | undefined)?.rows;
    res.json(await pushed(() => datasets.replace(String(req.params.name), rows)));
  });
  router.patch('/:name', known, json, async (req, res) => {
    const body = req.body as { upsert?: unknown; delete?: unknown } | undefined;
    if (
      !body ||
      typeof body !== 'object' ||
      Array.isArray(body) ||
      (body.upsert === undefined && body.delete === undefined)
    ) {
      throw new HttpError(
        400,
        'invalid_body',
        'Send {"upsert": [rows], "delete": [ids]} with at least one of the two.',
      );
    }
    res.json(
      await pushed(() => datasets.update(String(req.params.name), { upsert: body.upsert, delete: body.delete })),
    );
  });
  router.post('/:name/refresh', known, (req, res) => {
    // The signal only says "something changed": answer now, pull in the background.
    void datasets.pull(String(req.params.name));
    res.status(202).json({ name: req.params.name, refresh: 'started' });
  });
  router.all('/:name', methodNotAllowed('GET, HEAD, PUT, PATCH'));
  router.all('/:name/refresh', methodNotAllowed('POST'));
  return router;
}

async function pushed(work: () => Promise<{ rowCount: number }>): Promise<{ rowCount: number }> {
  try {
    return await work();
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const details = (error as { details?: Record<string, unknown> }).details;
    if (code === 'invalid_body') throw new HttpError(400, 'invalid_body', (error as Error).message, details);
    if (code === 'not_found') throw new HttpError(404, 'not_found', (error as Error).message);
    throw error;
  }
}
