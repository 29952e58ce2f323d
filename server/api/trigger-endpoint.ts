import type { AppDeps } from '../app/deps.ts';
import { acceptTrigger, type Trigger } from '../app/trigger-dialog.ts';
import { clientIp, type ProxyTrust } from '../settings/client-ip.ts';
import { HttpError } from './errors.ts';
import type { RequestLimiter } from './rate-limit.ts';
import { readBody } from './read-body.ts';
import { queryOf, segment, serveLimited, splitUrl, type RawEndpoint, type RawEndpointOptions } from './raw-endpoint.ts';
import { unauthorized, type FunctionKeyCheck } from './management/function-key.ts';
import { MAX_TRIGGER_BODY, decodeAddress, parseMode, parseTriggerBody } from './management/trigger-request.ts';

/** The channel of short-form triggers (decisions.md). */
const SHORT_FORM_CHANNEL = 'webchat';

// The routes as Express would match them: case-insensitive, an optional trailing slash, one segment per part.
const LONG_FORM = /^\/api\/management\/trigger\/([^/]+)\/([^/]+)(?:\/([^/]+))?\/?$/i;
const SHORT_FORM = /^\/api\/trigger\/([^/]+)\/([^/]+)\/?$/i;
const LONG_ROUTE = '/api/management/trigger/:address/:dialogId{/:mode}';
const SHORT_ROUTE = '/api/trigger/:botId/:dialogId';

/** The secret never to log is the function key. */
export interface TriggerEndpointOptions extends RawEndpointOptions {
  /** The use cases' dependencies; a getter because main.ts builds them after the HTTP side. */
  readonly deps: () => AppDeps;
  readonly checkKey: FunctionKeyCheck;
  /** The management API's limiter, shared with its Express routes: one count per client over all of them. */
  readonly limiter: RequestLimiter;
  /** Which proxies may name the client (TRUST_PROXY); the same as the Express routes', so both count a client alike. */
  readonly trustProxy?: ProxyTrust | undefined;
}

/**
 * POST /api/management/trigger/{address_base64}/{dialog_id}[/{mode}] (spec 4.2)
 * and the short form POST /api/trigger/{bot_id}/{dialog_id}?userId=… .
 *
 * Served on node:http directly rather than through Express: triggers are the one
 * management call made at high rates, and Express's routing and body parsing
 * cost several times the trigger's own work. The checks and their order are the
 * rest of the API's: rate limit, function key, method, every part of the URL,
 * then the body; the answer is 202 once the trigger is stored as a durable job.
 */
export function triggerEndpoint(options: TriggerEndpointOptions): RawEndpoint {
  return (req, res) => {
    const { url, queryAt, pathname } = splitUrl(req.url);
    const long = LONG_FORM.exec(pathname);
    const short = long ? null : SHORT_FORM.exec(pathname);
    if (!long && !short) return false;
    const started = process.hrtime.bigint();
    const route = long ? LONG_ROUTE : SHORT_ROUTE;
    const ip = clientIp(req, options.trustProxy);
    serveLimited(
      { ...options, res, method: req.method ?? '', url, ip, route, started, allow: () => 'POST' },
      options.limiter,
      ({ send, fail }) => {
        const query = queryOf({ url, queryAt });
        const codes = query.getAll('code');
        if (!options.checkKey(req.headers['x-functions-key'], codes.length === 1 ? codes[0] : undefined))
          throw unauthorized();
        if (req.method !== 'POST') {
          throw new HttpError(405, 'method_not_allowed', `${req.method} is not allowed here; use POST.`, {
            allow: ['POST'],
          });
        }
        const deps = options.deps();
        const target = long ? longFormTarget(deps, long, query) : shortFormTarget(deps, short!, query);
        readBody(req, MAX_TRIGGER_BODY)
          .then((raw) => acceptTrigger(deps, { ...target, data: parseTriggerBody(raw, req.headers['content-type']) }))
          .then((accepted) => send(202, accepted), fail);
      },
    );
    return true;
  };
}

type Target = Omit<Trigger, 'data'>;

function longFormTarget(deps: AppDeps, match: RegExpExecArray, query: URLSearchParams): Target {
  const address = decodeAddress(segment(match[1]!));
  checkBot(deps, address.bot);
  const dialogId = segment(match[2]!);
  checkDialog(deps, dialogId);
  const mode = parseMode(match[3] === undefined ? undefined : segment(match[3]));
  for (const key of query.keys()) {
    if (key !== 'code')
      throw new HttpError(400, 'invalid_parameter', `${key} is not a parameter of the trigger endpoint.`, {
        parameter: key,
      });
  }
  return { userId: address.user, channelId: address.channelId, dialogId, mode };
}

function shortFormTarget(deps: AppDeps, match: RegExpExecArray, query: URLSearchParams): Target {
  checkBot(deps, segment(match[1]!));
  const dialogId = segment(match[2]!);
  checkDialog(deps, dialogId);
  for (const key of query.keys()) {
    if (key !== 'code' && key !== 'userId') {
      throw new HttpError(
        400,
        'invalid_parameter',
        `${key} is not a parameter of the short trigger endpoint; it takes userId (and code).`,
        { parameter: key },
      );
    }
  }
  const userIds = query.getAll('userId');
  const userId = userIds.length === 1 ? userIds[0]! : '';
  if (userId.length === 0 || userId.length > 256) {
    throw new HttpError(
      400,
      'invalid_parameter',
      'userId is required once in the query string: the id of the user to start the dialog for (1 to 256 characters).',
      {
        parameter: 'userId',
      },
    );
  }
  return { userId, channelId: SHORT_FORM_CHANNEL, dialogId, mode: null };
}

function checkBot(deps: AppDeps, bot: string): void {
  if (bot !== deps.definition.settings.id) {
    throw new HttpError(
      404,
      'bot_not_found',
      `This server runs bot "${deps.definition.settings.id}", not "${bot.slice(0, 80)}"; check the address or the URL.`,
    );
  }
}

function checkDialog(deps: AppDeps, dialogId: string): void {
  if (!deps.definition.dialogs.some((d) => d.id === dialogId)) {
    throw new HttpError(
      404,
      'dialog_not_found',
      `Bot "${deps.definition.settings.id}" has no dialog "${dialogId.slice(0, 80)}".`,
    );
  }
}
