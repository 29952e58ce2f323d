import express, { Router, type RequestHandler } from 'express';
import type { AppDeps } from '../../app/deps.ts';
import { UnknownDialogError } from '../../app/start-dialog.ts';
import { acceptTrigger } from '../../app/trigger-dialog.ts';
import { HttpError } from '../errors.ts';
import { methodNotAllowed } from './method-not-allowed.ts';
import { MAX_TRIGGER_BODY, decodeAddress, parseMode, parseTriggerBody } from './trigger-request.ts';

/** The channel of short-form triggers (decisions.md). */
const SHORT_FORM_CHANNEL = 'webchat';

const rawBody = express.raw({ type: () => true, limit: MAX_TRIGGER_BODY });

function checkBot(deps: AppDeps, bot: string): void {
  if (bot !== deps.definition.settings.id) {
    throw new HttpError(404, 'bot_not_found', `This server runs bot "${deps.definition.settings.id}", not "${bot.slice(0, 80)}"; check the address or the URL.`);
  }
}

function checkDialog(deps: AppDeps, dialogId: string): void {
  if (!deps.definition.dialogs.some((d) => d.id === dialogId)) {
    throw new HttpError(404, 'dialog_not_found', `Bot "${deps.definition.settings.id}" has no dialog "${dialogId.slice(0, 80)}".`);
  }
}

interface Target {
  userId: string;
  channelId: string;
  dialogId: string;
  mode: 'clear' | null;
}

/**
 * POST /api/management/trigger/{address_base64}/{dialog_id}[/{mode}] (spec 4.2)
 * and the short form POST /api/trigger/{bot_id}/{dialog_id}?userId=… .
 * Every part is checked before the body is read; the answer is 202 once the
 * trigger is stored as a durable job.
 */
export function triggerRouter(getDeps: () => AppDeps): Router {
  const router = Router();

  const accept: RequestHandler = async (req, res) => {
    const deps = getDeps();
    const target = res.locals.target as Target;
    const data = parseTriggerBody(Buffer.isBuffer(req.body) ? req.body : undefined, req.get('content-type'));
    try {
      const accepted = await acceptTrigger(deps, { ...target, data });
      res.status(202).json(accepted);
    } catch (error) {
      if (error instanceof UnknownDialogError) checkDialog(deps, target.dialogId);
      throw error;
    }
  };

  const longForm: RequestHandler = (req, res, next) => {
    const deps = getDeps();
    const params = req.params as Record<string, string | undefined>;
    const address = decodeAddress(params.address ?? '');
    checkBot(deps, address.bot);
    const dialogId = params.dialogId ?? '';
    checkDialog(deps, dialogId);
    const mode = parseMode(params.mode);
    for (const key of Object.keys(req.query as object)) {
      if (key !== 'code') throw new HttpError(400, 'invalid_parameter', `${key} is not a parameter of the trigger endpoint.`, { parameter: key });
    }
    res.locals.target = { userId: address.user, channelId: address.channelId, dialogId, mode } satisfies Target;
    next();
  };

  const shortForm: RequestHandler = (req, res, next) => {
    const deps = getDeps();
    const params = req.params as Record<string, string | undefined>;
    checkBot(deps, params.botId ?? '');
    const dialogId = params.dialogId ?? '';
    checkDialog(deps, dialogId);
    for (const key of Object.keys(req.query as object)) {
      if (key !== 'code' && key !== 'userId') {
        throw new HttpError(400, 'invalid_parameter', `${key} is not a parameter of the short trigger endpoint; it takes userId (and code).`, { parameter: key });
      }
    }
    const userId = (req.query as Record<string, unknown>).userId;
    if (typeof userId !== 'string' || userId.length === 0 || userId.length > 256) {
      throw new HttpError(400, 'invalid_parameter', 'userId is required once in the query string: the id of the user to start the dialog for (1 to 256 characters).', {
        parameter: 'userId',
      });
    }
    res.locals.target = { userId, channelId: SHORT_FORM_CHANNEL, dialogId, mode: null } satisfies Target;
    next();
  };

  router
    .route('/api/management/trigger/:address/:dialogId{/:mode}')
    .post(longForm, rawBody, accept)
    .all(methodNotAllowed('POST'));
  router.route('/api/trigger/:botId/:dialogId').post(shortForm, rawBody, accept).all(methodNotAllowed('POST'));
  return router;
}
