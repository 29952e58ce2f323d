/**
 * What every studio part of the OpenAPI document says the same way: the session or token it
 * needs, the errors any of its operations can answer, an operation's shape with the role it
 * needs, and a day in a query (the same rule as server/studio-server/http/day-param.ts).
 */
export type Obj = Record<string, unknown>;

export const ref = (name: string) => ({ $ref: `#/components/${name}` });
export const json = (schema: Obj, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});
export const error = (description: string) => json(ref('schemas/Error'), description);

const security = [{ studioSession: [] }, { studioToken: [] }];

/** The answers any studio operation may give besides its own. */
export const studioErrors = {
  '401': error('unauthenticated: no studio session or API token, or one that expired or was revoked.'),
  '403': error(
    "forbidden: the account's role may not do this (the message names the role needed); csrf_failed: a cookie-authenticated write without the CSRF header or from another origin.",
  ),
  '405': error('method_not_allowed: the path is served with other methods (the Allow header lists them).'),
  '500': error('internal: something failed on the server; the body names a request id to quote.'),
};

/** An operation of one tag of the studio, its description ending with the role it needs. */
export const studioOperation =
  (tag: string) =>
  (operationId: string, summary: string, role: string, description: string, rest: Obj): Obj => ({
    operationId,
    tags: [tag],
    summary,
    description: `${description}\n\nRole: ${role}.`,
    security,
    ...rest,
  });

/** A UTC day in a query, from 1970, on the calendar (the server refuses 2026-02-30 with 400 too). */
export const dayParameter = (name: string, description: string) => ({
  name,
  in: 'query',
  required: false,
  description,
  schema: {
    type: 'string',
    format: 'date',
    pattern: '^(19[7-9]\\d|[2-9]\\d{3})-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])$',
  },
});
