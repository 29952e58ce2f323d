/**
 * Studio operations of the OpenAPI document built from the one map of the studio's HTTP contract
 * (shared/studio-api.ts): the path, method, path parameters, query, body and answer come from
 * the map's zod schemas, so the document cannot drift from what the routes check; the words
 * (summary, description, the role needed, the errors besides the common ones) are kept per name.
 */
import { z } from 'zod';
import { STUDIO_API } from '../../../shared/studio-api.ts';
import { STUDIO_API_PREFIX, type StudioRouteName } from '../../../shared/studio-routes.ts';
import { error, json, studioErrors, studioOperation, type Obj } from './studio-openapi-parts.ts';

/** What the map cannot say about a route: how a person reads it. */
export interface OperationWords {
  readonly tag: string;
  readonly summary: string;
  /** The role needed, as the studio's roles name it (`readBot (any role)`). */
  readonly role: string;
  readonly description: string;
  /** What the success answer is. */
  readonly answer: string;
  /** The errors this route gives besides the ones every studio operation may. */
  readonly errors?: Obj;
}

/** Any route with a body may refuse it in these ways (server/studio-server/http/request-body.ts). */
const bodyErrors = {
  '400': error(
    'invalid_body: not JSON, a missing or bad field, an unknown field, or nested too deep; details.path names the field.',
  ),
  '413': error('payload_too_large: the body is over its bound.'),
  '415': error('unsupported_media_type: send application/json, uncompressed.'),
};

/** A schema as the client writes it (before defaults and transforms), without the draft's $schema line. */
const jsonSchema = (schema: z.ZodType): Obj => {
  const { $schema: _draft, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Obj;
  return rest;
};

/** The path or query parameters of an object schema, one each, required as the schema says. */
function parameters(schema: z.ZodType | undefined, where: 'path' | 'query'): Obj[] {
  if (!schema) return [];
  const object = jsonSchema(schema) as { properties?: Record<string, Obj>; required?: string[] };
  return Object.entries(object.properties ?? {}).map(([name, property]) => ({
    name,
    in: where,
    required: where === 'path' || (object.required ?? []).includes(name),
    schema: property,
  }));
}

/** The OpenAPI path (`{id}`) and operation of one route of the map. */
export function mapOperation(name: StudioRouteName, words: OperationWords): [string, string, Obj] {
  const entry = STUDIO_API[name] as (typeof STUDIO_API)[StudioRouteName] & {
    params?: z.ZodType;
    query?: z.ZodType;
    body?: z.ZodType;
    answer?: z.ZodType;
    status?: number;
  };
  const path = `${STUDIO_API_PREFIX}${entry.path.replace(/:(\w+)/g, '{$1}')}`;
  const params = [...parameters(entry.params, 'path'), ...parameters(entry.query, 'query')];
  const success = entry.answer
    ? { [String(entry.status ?? 200)]: json(jsonSchema(entry.answer), words.answer) }
    : { '204': { description: words.answer } };
  const operation = studioOperation(words.tag)(name, words.summary, words.role, words.description, {
    ...(params.length ? { parameters: params } : {}),
    ...(entry.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(entry.body) } } } }
      : {}),
    responses: { ...success, ...(entry.body ? bodyErrors : {}), ...words.errors, ...studioErrors },
  });
  return [path, entry.method.toLowerCase(), operation];
}

/** The paths of the routes named in `words`, from the map. */
export function mapPaths(words: { readonly [N in StudioRouteName]?: OperationWords }): Obj {
  const paths: Record<string, Obj> = {};
  for (const [name, said] of Object.entries(words)) {
    const [path, method, operation] = mapOperation(name as StudioRouteName, said!);
    paths[path] = { ...paths[path], [method]: operation };
  }
  return paths;
}
