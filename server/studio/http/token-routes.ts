import { Router } from 'express';
import { z } from 'zod';
import { HttpError } from '../../ports/http-error.ts';
import type { ApiTokens } from '../accounts/api-tokens.ts';
import { readJson, parseInput } from './request-body.ts';
import { nameField } from './session-routes.ts';
import { callerOf } from './studio-api.ts';

const createBody = z.strictObject({ name: nameField, expiresInDays: z.int().min(1).max(3650).optional() });

/** The caller's own API tokens (every role): the token is in the answer to its creation and nowhere else, ever. */
export function tokenRoutes(deps: { tokens: ApiTokens }): Router {
  const router = Router();
  router.get('/tokens', async (req, res) => {
    res.json(await deps.tokens.list(callerOf(req).account));
  });
  router.post('/tokens', async (req, res) => {
    const caller = callerOf(req);
    const input = await readJson(req, createBody);
    res.status(201).json(await deps.tokens.create(caller.account, input, caller.actor, caller.ip));
  });
  router.delete('/tokens/:id', async (req, res) => {
    const caller = callerOf(req);
    const id = parseInput(z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'not a token id'), req.params.id, 'path');
    if (!(await deps.tokens.revoke(caller.account, id, caller.actor, caller.ip)))
      throw new HttpError(404, 'not_found', 'You have no API token with this id; it may have been revoked already.');
    res.status(204).end();
  });
  return router;
}
