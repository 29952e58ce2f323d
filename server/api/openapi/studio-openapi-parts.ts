/**
 * What every studio part of the OpenAPI document says the same way: the session or token it
 * needs, the errors any of its operations can answer, an operation's shape with the role it
 * needs, and the words a person reads for each route of the map (OperationWords).
 */
import { error, type Obj } from './operation-parts.ts';

/** What the map cannot say about a route: how a person reads it, and what it answers besides JSON. */
export interface OperationWords {
  readonly tag: string;
  readonly summary: string;
  /** The role needed, as the studio's roles name it (`readBot (any role)`). */
  readonly role: string;
  readonly description?: string;
  /** What the success answer is. */
  readonly answer: string;
  /** Other success statuses with the same answer, and what each means. */
  readonly also?: Readonly<Record<string, string>>;
  /** The success answers, where they are not the map's JSON (a file, a redirect). */
  readonly responses?: Obj;
  /** The body, where it is not the map's JSON object (a file as it is). */
  readonly requestBody?: Obj;
  /** The body may be left out. */
  readonly optionalBody?: true;
  /** Parameters the map does not hold: a router outside the studio serves the route. */
  readonly parameters?: readonly Obj[];
  /** Open to anyone: sign-in, setup links, single sign-on. */
  readonly open?: true;
  /** The errors this route gives besides (or instead of) the ones every studio operation may. */
  readonly errors?: Obj;
}

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
  (operationId: string, summary: string, role: string, description: string | undefined, rest: Obj): Obj => ({
    operationId,
    tags: [tag],
    summary,
    description: `${description ? `${description}\n\n` : ''}Role: ${role}.`,
    security,
    ...rest,
  });
