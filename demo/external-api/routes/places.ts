import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Router } from 'express';
import { projectRoot } from '../../../server/paths.ts';

/** The sample places file: the bot pulls it as its "places" background dataset (queried by tags and radius). */
export const PLACES_FILE = path.join(projectRoot(), 'demo', 'places.sample.json');

/** GET /places → demo/places.sample.json ({"places": [...]}), read on each request so edits show on the next pull. */
export function placesRouter(file = PLACES_FILE): Router {
  const router = Router();
  router.get('/places', async (_req, res) => {
    try {
      res.type('application/json').send(await readFile(file, 'utf8'));
    } catch (error) {
      res.status(500).json({
        error: {
          code: 'places_unreadable',
          message: `The demo places file cannot be read: ${(error as NodeJS.ErrnoException).code ?? String(error)}.`,
        },
      });
    }
  });
  return router;
}
