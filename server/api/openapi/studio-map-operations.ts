/**
 * The studio's operations in the OpenAPI document, built from the one map of the studio's HTTP
 * contract (shared/studio-api.ts): the path, method, path parameters, query, body and answer come
 * from the map's zod schemas, so the document cannot drift from what the routes check (and, in
 * test and development, from what they answer); the words (summary, description, the role needed,
 * the errors besides the common ones) are kept per name in the studio-*-words.ts tables.
 */
import { z } from 'zod';
import { STUDIO_API } from '../../../shared/studio-api.ts';
import { STUDIO_API_PREFIX, type StudioRouteName } from '../../../shared/studio-routes.ts';
import { error, json, type Obj } from './operation-parts.ts';
import { studioErrors, studioOperation, type OperationWords } from './studio-openapi-parts.ts';

/** Any route with a body may refuse it in these ways (server/studio-server/http/request-body.ts). */
const bodyErrors = {
  '400': error(
    'invalid_body: not JSON, a missing or bad field, an unknown field, or nested too deep; details.path names the field.',
  ),
  '413': error('payload_too_large: the body is over its bound.'),
  '415': error('unsupported_media_type: send application/json, uncompressed.'),
};
const parameterErrors = {
  '400': error('invalid_parameter: a path or query parameter breaks its rule, or is unknown.'),
};

/** Where a named schema (a zod `id`) is kept: the document's components. */
const COMPONENT = '#/components/schemas/';

/**
 * A schema as JSON Schema: the answer as sent (`output`), or a request as the client writes it
 * (`input`: before defaults and transforms). Schemas with an id go to `components` and are
 * referred to; the draft's $schema line and the safe-integer bounds zod states for every integer
 * (which say nothing a reader needs) are left out.
 */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output', components: Obj): Obj {
  const {
    $schema: _draft,
    $defs,
    ...rest
  } = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    override: ({ jsonSchema: out }) => {
      // zod's readonly() says the value is not changed in place; OpenAPI's readOnly says a client does not
      // send the field (a required one is then required only in answers), which a request schema must not say.
      delete out.readOnly;
      if (out.minimum === Number.MIN_SAFE_INTEGER) delete out.minimum;
      if (out.maximum === Number.MAX_SAFE_INTEGER) delete out.maximum;
    },
  }) as Obj;
  const relink = (value: unknown) => JSON.parse(JSON.stringify(value).replaceAll('"#/$defs/', `"${COMPONENT}`)) as Obj;
  for (const [id, named] of Object.entries(($defs ?? {}) as Obj)) components[id] = relink(named);
  return relink(rest);
}

/** The path or query parameters of an object schema, one each, required as the schema says. */
function parameters(schema: z.ZodType | undefined, where: 'path' | 'query', components: Obj): Obj[] {
  if (!schema) return [];
  const object = jsonSchema(schema, 'input', components) as { properties?: Record<string, Obj>; required?: string[] };
  return Object.entries(object.properties ?? {}).map(([name, { description, ...property }]) => ({
    name,
    in: where,
    required: where === 'path' || (object.required ?? []).includes(name),
    ...(description ? { description } : {}),
    schema: property,
  }));
}

/** The OpenAPI path (`{id}`) and operation of one route of the map; its named schemas go to `components`. */
function mapOperation(name: StudioRouteName, words: OperationWords, components: Obj): [string, string, Obj] {
  const entry = STUDIO_API[name] as (typeof STUDIO_API)[StudioRouteName] & {
    params?: z.ZodType;
    query?: z.ZodType;
    body?: z.ZodType;
    answer?: z.ZodType;
    status?: number;
  };
  const path = `${STUDIO_API_PREFIX}${entry.path.replace(/:(\w+)/g, '{$1}')}`;
  const params = [
    ...parameters(entry.params, 'path', components),
    ...parameters(entry.query, 'query', components),
    ...(words.parameters ?? []),
  ];
  const answer = entry.answer && jsonSchema(entry.answer, 'output', components);
  const success = words.responses ?? {
    ...(answer
      ? { [String(entry.status ?? 200)]: json(answer, words.answer) }
      : { '204': { description: words.answer } }),
    ...Object.fromEntries(Object.entries(words.also ?? {}).map(([status, said]) => [status, json(answer ?? {}, said)])),
  };
  const body =
    words.requestBody ??
    (entry.body && {
      required: !words.optionalBody,
      content: { 'application/json': { schema: jsonSchema(entry.body, 'input', components) } },
    });
  const operation = studioOperation(words.tag)(name, words.summary, words.role, words.description, {
    ...(params.length ? { parameters: params } : {}),
    ...(body ? { requestBody: body } : {}),
    responses: {
      ...success,
      ...(params.length ? parameterErrors : {}),
      ...(entry.body ? bodyErrors : {}),
      // An open route asks for no session, so it refuses none.
      ...(words.open ? { '405': studioErrors['405'], '500': studioErrors['500'] } : studioErrors),
      ...words.errors,
    },
    ...(words.open ? { security: [] } : {}),
  });
  return [path, entry.method.toLowerCase(), operation];
}

/** The paths of every route of the map, with the schemas they name (the document's components). */
export function mapPaths(words: { readonly [N in StudioRouteName]: OperationWords }): { paths: Obj; schemas: Obj } {
  const paths: Record<string, Obj> = {};
  const schemas: Obj = {};
  for (const name of Object.keys(words) as StudioRouteName[]) {
    const [path, method, operation] = mapOperation(name, words[name], schemas);
    paths[path] = { ...paths[path], [method]: operation };
  }
  return { paths, schemas };
}
