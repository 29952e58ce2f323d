import { Router, type Request } from 'express';
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
import { otherMethods } from './other-methods.ts';
import { callerOf, requireRole } from './studio-api.ts';
import { serveRoute } from './studio-route.ts';

/** Who acts, for the versions' records and the audit trail. */
function acting(req: Request): Acting {
  const caller = callerOf(req);
  return { actor: caller.actor, name: caller.account.name, ip: caller.ip };
}

/** A version id that cannot be one names no version: 404, as one that is not there. */
const noSuchVersion = (_name: string, id: string) =>
  new HttpError(
    404,
    'version_not_found',
    `There is no version ${JSON.stringify(id.slice(0, 40))}; version ids look like "v12".`,
    { versionId: id.slice(0, 40) },
  );

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
  const reading = { guard: read, badParam: noSuchVersion };
  const editing = { guard: edit, read: jsonBody };

  serveRoute(router, 'listVersions', reading, ({ query }) => listVersions(versions(), query.limit, query.before));
  serveRoute(router, 'readVersion', reading, ({ params }) => readVersion(versions(), params.id));
  serveRoute(router, 'exportVersion', reading, async ({ params, query }, _req, res) => {
    const file = await exportVersion(versions(), params.id, query.format);
    res.type(file.contentType).set('content-disposition', `attachment; filename="${file.fileName}"`).send(file.text);
  });

  serveRoute(router, 'readDraft', editing, (_input, req) => readDraft(versions(), acting(req)));
  serveRoute(router, 'autosaveDraft', editing, ({ body }, req) => autosaveDraft(versions(), acting(req), body));

  serveRoute(router, 'saveVersion', editing, async ({ body }, req, res) => {
    const saved = await saveVersion(versions(), acting(req), body);
    res.status(saved.created ? 201 : 200);
    return saved;
  });
  serveRoute(router, 'checkDefinition', { guard: read, read: jsonBody }, async ({ body }) => ({
    problems: await checkWritten(versions(), body.definition),
  }));
  serveRoute(router, 'publishPlan', { guard: read, read: jsonBody }, ({ body }) =>
    publishPlan(versions(), body.versionId),
  );
  serveRoute(router, 'publish', { guard: requireRole('publish'), read: jsonBody }, ({ body }, req) =>
    publish(versions(), body, acting(req)),
  );
  serveRoute(router, 'importVersion', { guard: edit }, async ({ query }, req, res) => {
    const format = req.is(['application/json', 'application/yaml', 'application/x-yaml', 'text/yaml']);
    if (!format)
      throw new HttpError(
        415,
        'unsupported_media_type',
        'Send the file as it is, with Content-Type application/json or application/yaml.',
      );
    const body = await readBodyText(req);
    const saved = await importText(versions(), acting(req), {
      text: body,
      format: format === 'application/json' ? 'json' : 'yaml',
      message: query.message,
    });
    res.status(saved.created ? 201 : 200);
    return saved;
  });

  // A known path asked with another method: 405 with Allow (after the guard, so nothing is told to strangers).
  router.use(
    otherMethods(
      [
        'listVersions',
        'saveVersion',
        'readVersion',
        'exportVersion',
        'readDraft',
        'autosaveDraft',
        'checkDefinition',
        'publishPlan',
        'publish',
        'importVersion',
      ],
      read,
    ),
  );
  return router;
}
