import { Router, type Request } from 'express';
import type { z } from 'zod';
import { HttpError } from '../../ports/http-error.ts';
import { may } from '../../ports/roles.ts';
import { MAX_SECRET_BYTES, SECRET_NAME, namesInDefinition, type SecretKeeper } from '../secrets/secret-keeper.ts';
import { readJson } from './request-body.ts';
import { callerOf, requireRole } from './studio-api.ts';
import { serveRoute } from './studio-route.ts';

export interface SecretRouteDeps {
  readonly secrets: SecretKeeper;
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

  const manage = { guard: requireRole('manageSecrets') };

  serveRoute(router, 'listSecrets', { guard: requireRole('listSecrets') }, (_input, req) => {
    const owner = may(callerOf(req).role, 'manageSecrets');
    const used = namesInDefinition(deps.definition());
    // Only the definition's secrets: Settings → Channels keeps its own under names a definition cannot use.
    const stored = new Map(
      deps.secrets
        .list()
        .filter((secret) => SECRET_NAME.test(secret.name))
        .map((secret) => [secret.name, secret]),
    );
    const names = [...new Set([...used.keys(), ...stored.keys()])].sort();
    return names.map((name) => {
      const meta = stored.get(name);
      return {
        name,
        ...status(name),
        usedBy: used.get(name) ?? [],
        ...(owner
          ? { updatedAt: meta ? new Date(meta.updatedAt).toISOString() : null, updatedBy: meta?.updatedBy ?? null }
          : {}),
      };
    });
  });

  const readValue = (req: Request, schema: z.ZodType) => readJson(req, schema, 4 * MAX_SECRET_BYTES);
  serveRoute(router, 'setSecret', { ...manage, read: readValue }, async ({ params: { name }, body }, req) => {
    const caller = callerOf(req);
    await deps.secrets.set(name, body.value, caller.actor, caller.ip);
    const bot = await deps.changed(name);
    return { name, ...status(name), botReloaded: bot.ok };
  });

  serveRoute(router, 'deleteSecret', manage, async ({ params: { name } }, req) => {
    const caller = callerOf(req);
    if (!(await deps.secrets.remove(name, caller.actor, caller.ip)))
      throw new HttpError(404, 'not_found', `No secret ${name} is set in the studio.`);
    const bot = await deps.changed(name);
    return { name, ...status(name), botReloaded: bot.ok };
  });
  return router;
}
