import { Router, type Request } from 'express';
import { z } from 'zod';
import { HttpError } from '../../ports/http-error.ts';
import {
  autosaveDraft,
  checkWritten,
  exportVersion,
  importText,
  listVersions,
  readDraft,
  readVersion,
  saveVersion,
} from '../versions/editing.ts';
import { publish, publishPlan } from '../versions/publishing.ts';
import type { Acting, VersionsDeps } from '../versions/versions-deps.ts';
import { jsonBody, readBodyText } from './definition-body.ts';
import { parseInput } from './request-body.ts';
import { callerOf, requireRole } from './studio-api.ts';

/** Who acts, for the versions' records and the audit trail. */
function acting(req: Request): Acting {
  const caller = callerOf(req);
  return { actor: caller.actor, name: caller.account.name, ip: caller.ip };
}

const VERSION_ID = /^v[1-9]\d{0,9}$/;
const versionId = z.string().regex(VERSION_ID, 'must be a version id such as "v12"');
const stepRef = z.object({ dialogId: z.string().min(1).max(64), stepId: z.string().min(1).max(64) }).strict();
const message = z.string().max(500, 'must be at most 500 characters');
/** Any JSON the bounds allowed; the checks say what is wrong with it. */
const definition = z.unknown().refine((value) => value !== undefined, 'is required');

const saveBody = z.object({ baseVersionId: versionId, definition, message: message.default('') }).strict();
const draftBody = z
  .object({ baseVersionId: versionId.nullable(), revision: z.number().int().min(1).nullable(), definition })
  .strict();
const checkBody = z.object({ definition }).strict();
const planBody = z.object({ versionId }).strict();
const publishBody = z
  .object({
    versionId,
    moves: z
      .array(z.object({ from: stepRef, to: stepRef }).strict())
      .max(1000)
      .default([]),
    message: message.optional(),
  })
  .strict();

const listQuery = z
  .object({
    limit: z.coerce.number().int().min(1).max(200).default(50),
    before: z.coerce.number().int().min(1).optional(),
  })
  .strict();

const query = <T extends z.ZodType>(req: Request, schema: T): z.infer<T> => parseInput(schema, req.query, 'query');

function idParam(req: Request): string {
  const id = String(req.params.id);
  if (!VERSION_ID.test(id))
    throw new HttpError(
      404,
      'version_not_found',
      `There is no version ${JSON.stringify(id.slice(0, 40))}; version ids look like "v12".`,
      { versionId: id.slice(0, 40) },
    );
  return id;
}

/**
 * The versions part of the studio's API, under /studio/api (docs in the OpenAPI document):
 * the list, a version and its export, the caller's draft, saving, checking, the publish plan,
 * publishing (and so rolling back), importing a file. Reading is for every role; drafts, saves
 * and imports need `editBot`; publishing needs `publish`.
 */
export function versionsRoutes(versions: () => VersionsDeps): Router {
  const router = Router();
  const read = requireRole('readBot');
  const edit = requireRole('editBot');

  router.get('/versions', read, async (req, res) => {
    const { limit, before } = query(req, listQuery);
    res.json(await listVersions(versions(), limit, before));
  });
  router.get('/versions/:id', read, async (req, res) => {
    res.json(await readVersion(versions(), idParam(req)));
  });
  router.get('/versions/:id/export', read, async (req, res) => {
    const { format } = query(req, z.object({ format: z.enum(['json', 'yaml']).default('json') }).strict());
    const file = await exportVersion(versions(), idParam(req), format);
    res.type(file.contentType).set('content-disposition', `attachment; filename="${file.fileName}"`).send(file.text);
  });

  router.get('/draft', edit, async (req, res) => {
    res.json(await readDraft(versions(), acting(req)));
  });
  router.put('/draft', edit, async (req, res) => {
    const body = await jsonBody(req, draftBody);
    res.json(await autosaveDraft(versions(), acting(req), body));
  });

  router.post('/versions', edit, async (req, res) => {
    const body = await jsonBody(req, saveBody);
    const saved = await saveVersion(versions(), acting(req), body);
    res.status(saved.created ? 201 : 200).json(saved);
  });
  router.post('/check', read, async (req, res) => {
    const body = await jsonBody(req, checkBody);
    res.json({ problems: await checkWritten(versions(), body.definition) });
  });
  router.post('/publish/plan', read, async (req, res) => {
    const body = await jsonBody(req, planBody);
    res.json(await publishPlan(versions(), body.versionId));
  });
  router.post('/publish', requireRole('publish'), async (req, res) => {
    const body = await jsonBody(req, publishBody);
    res.json(await publish(versions(), body, acting(req)));
  });
  router.post('/import', edit, async (req, res) => {
    const format = req.is(['application/json', 'application/yaml', 'application/x-yaml', 'text/yaml']);
    if (!format)
      throw new HttpError(
        415,
        'unsupported_media_type',
        'Send the file as it is, with Content-Type application/json or application/yaml.',
      );
    const { message: text } = query(req, z.object({ message: message.default('') }).strict());
    const body = await readBodyText(req);
    const saved = await importText(versions(), acting(req), {
      text: body,
      format: format === 'application/json' ? 'json' : 'yaml',
      message: text,
    });
    res.status(saved.created ? 201 : 200).json(saved);
  });

  // A known path asked with another method: 405 with Allow (after the guard, so nothing is told to strangers).
  const allowed: Record<string, string> = {
    '/versions': 'GET, POST',
    '/versions/:id': 'GET',
    '/versions/:id/export': 'GET',
    '/draft': 'GET, PUT',
    '/check': 'POST',
    '/publish/plan': 'POST',
    '/publish': 'POST',
    '/import': 'POST',
  };
  for (const [route, allow] of Object.entries(allowed)) {
    router.all(route, read, (req, res, next) => {
      res.setHeader('Allow', allow);
      next(
        new HttpError(405, 'method_not_allowed', `${req.method} is not allowed here; use ${allow.split(', ')[0]}.`, {
          allow: allow.split(', '),
        }),
      );
    });
  }
  return router;
}
