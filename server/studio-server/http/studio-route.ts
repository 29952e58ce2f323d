import type { Request, RequestHandler, Response, Router } from 'express';
import type { z } from 'zod';
import {
  STUDIO_API,
  type StudioAnswer,
  type StudioApiEntry,
  type StudioParams,
  type StudioParsedBody,
  type StudioParsedQuery,
} from '../../../shared/studio-api.ts';
import type { StudioRouteName } from '../../../shared/studio-routes.ts';
import type { ReadonlyDeep } from '../../../shared/studio-versions.ts';
import type { HttpError } from '../../ports/http-error.ts';
import { parseInput, readJson } from './request-body.ts';

/** What a route's handler gets: its path parameters, query and body, validated against the map. */
export interface RouteInput<N extends StudioRouteName> {
  readonly params: StudioParams<N>;
  readonly query: StudioParsedQuery<N>;
  readonly body: StudioParsedBody<N>;
}

export interface RouteOptions {
  /** The role check (requireRole), run before anything is read. */
  readonly guard?: RequestHandler;
  /** How the body is read: JSON of at most 16 KiB (readJson) unless the route takes more, or a definition. */
  readonly read?: (req: Request, schema: z.ZodType) => Promise<unknown>;
  /** The answer to a path parameter the map refuses, where it is not the usual 400 invalid_parameter. */
  readonly badParam?: (name: string, value: string) => HttpError;
}

/** An answer as the server's own read-only values hold it: the map's shape, arrays and fields read-only. */
type Answer<T> = ReadonlyDeep<T>;

/**
 * In test and development every answer is checked against the map before it is sent, so an answer
 * that drifts from its schema (and so from the OpenAPI document made from it) fails the tests that
 * ask for it, as a 500 with the first difference in the log. In production the schema is trusted:
 * the check costs a walk of every answer.
 */
const CHECK_ANSWERS = process.env.NODE_ENV === 'test' || process.env.NODE_ENV === 'development';

/** The answer as it is, once checked against its schema where answers are checked. */
function checked(name: StudioRouteName, schema: z.ZodType | undefined, answer: unknown): unknown {
  if (!CHECK_ANSWERS || !schema) return answer;
  const result = schema.safeParse(answer);
  if (result.success) return answer;
  const issue = result.error.issues[0]!;
  throw new Error(
    `The studio route ${name} answered a shape its schema does not allow, at ${issue.path.map(String).join('.') || 'the top'}: ${issue.message}`,
  );
}

type Handler<N extends StudioRouteName> = (
  input: RouteInput<N>,
  req: Request,
  res: Response,
) => Answer<StudioAnswer<N>> | Promise<Answer<StudioAnswer<N>>>;

/**
 * Serves a route of the studio's HTTP contract (shared/studio-api.ts) on `router`: its method
 * and path from the map, then the guard, then its path parameters, query and body checked
 * against the map's schemas (400 invalid_parameter / invalid_body naming the first problem), then
 * the handler. Its answer is sent as JSON (with the map's status, else the one the handler set),
 * checked against the map's answer schema in test and development;
 * a handler that answers nothing gets 204, unless it sent something itself (a file, a redirect).
 */
export function serveRoute<N extends StudioRouteName>(
  router: Router,
  name: N,
  options: RouteOptions,
  handler: Handler<N>,
): void {
  const entry: StudioApiEntry = STUDIO_API[name];
  const read = options.read ?? ((req, schema) => readJson(req, schema));
  const serve: RequestHandler = async (req, res) => {
    const params: Record<string, unknown> = {};
    for (const [key, schema] of Object.entries(entry.params?.shape ?? {})) {
      const value = String(req.params[key]);
      const parsed = (schema as z.ZodType).safeParse(value);
      if (!parsed.success && options.badParam) throw options.badParam(key, value);
      params[key] = parseInput(schema as z.ZodType, value, 'path');
    }
    const query = entry.query ? parseInput(entry.query, req.query, 'query') : {};
    const body = entry.body ? await read(req, entry.body) : undefined;
    const answer = await handler({ params, query, body } as RouteInput<N>, req, res);
    if (answer !== undefined) res.status(entry.status ?? res.statusCode).json(checked(name, entry.answer, answer));
    else if (!res.headersSent) res.status(204).end();
  };
  const method = entry.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
  if (options.guard) router[method](entry.path, options.guard, serve);
  else router[method](entry.path, serve);
}
