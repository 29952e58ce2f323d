import { Router } from 'express';
import { z } from 'zod';
import { HttpError } from '../../ports/http-error.ts';
import { may } from '../../ports/studio/roles.ts';
import { MAX_SECRET_BYTES, SECRET_NAME, namesInDefinition, type SecretsRoom } from '../secrets/secrets-room.ts';
import { parseInput, readJson } from './request-body.ts';
import { callerOf, requireRole } from './studio-api.ts';

const nameParam = z
  .string()
  .regex(
    SECRET_NAME,
    'a secret is named like an environment variable: capital letters, digits and _, such as CRM_TOKEN',
  );
const setBody = z.strictObject({
  value: z
    .string()
    .min(1, 'give the secret a value')
    .refine(
      (value) => Buffer.byteLength(value, 'utf8') <= MAX_SECRET_BYTES,
      `a secret holds at most ${MAX_SECRET_BYTES / 1024} KiB`,
    ),
});

export interface SecretRouteDeps {
  readonly secrets: SecretsRoom;
  /** The environment the server was started with (a set variable wins over a studio secret). */
  readonly environment: () => Readonly<Record<string, string | undefined>>;
  /** The definition in service, for the names it reads. */
  readonly definition: () => unknown;
  /** Prepares the bot again with the changed secrets, here and on every other node; resolves with whether it is in service. */
  readonly changed: (name: string) => Promise<{ ok: boolean }>;
}

/**
 * Secrets: their names and whether each is set (owners and editors; owners also see when and by
 * whom), and setting or deleting one (owners). A value goes in and never comes out.
 */
export function secretRoutes(deps: SecretRouteDeps): Router {
  const router = Router();
  const status = (name: string) => {
    const own = deps.environment()[name];
    return { fromEnvironment: own !== undefined && own !== '', set: deps.secrets.value(name) !== undefined };
  };

  router.get('/secrets', requireRole('listSecrets'), (req, res) => {
    const owner = may(callerOf(req).role, 'manageSecrets');
    const used = namesInDefinition(deps.definition());
    const stored = new Map(deps.secrets.list().map((secret) => [secret.name, secret]));
    const names = [...new Set([...used.keys(), ...stored.keys()])].sort();
    res.json(
      names.map((name) => {
        const meta = stored.get(name);
        return {
          name,
          ...status(name),
          usedBy: used.get(name) ?? [],
          ...(owner
            ? { updatedAt: meta ? new Date(meta.updatedAt).toISOString() : null, updatedBy: meta?.updatedBy ?? null }
            : {}),
        };
      }),
    );
  });

  router.put('/secrets/:name', requireRole('manageSecrets'), async (req, res) => {
    const caller = callerOf(req);
    const name = parseInput(nameParam, req.params.name, 'path');
    const { value } = await readJson(req, setBody, 4 * MAX_SECRET_BYTES);
    await deps.secrets.set(name, value, caller.actor, caller.ip);
    const bot = await deps.changed(name);
    res.json({ name, ...status(name), botReloaded: bot.ok });
  });

  router.delete('/secrets/:name', requireRole('manageSecrets'), async (req, res) => {
    const caller = callerOf(req);
    const name = parseInput(nameParam, req.params.name, 'path');
    if (!(await deps.secrets.remove(name, caller.actor, caller.ip)))
      throw new HttpError(404, 'not_found', `No secret ${name} is set in the studio.`);
    const bot = await deps.changed(name);
    res.json({ name, ...status(name), botReloaded: bot.ok });
  });
  return router;
}
