import { z } from 'zod';
import { STUDIO_ROUTES, type StudioRoute, type StudioRouteName } from './studio-routes.ts';
import type { ConversationSearchPage, Dashboard, DropOff, Transcript, UserErased } from './studio-insights.ts';
import type { Misses, MissesAdded } from './studio-misses.ts';
import type {
  DraftRead,
  DraftSaved,
  Problem,
  PublishPlan,
  Published,
  SaveResult,
  VersionList,
  VersionRead,
} from './studio-versions.ts';

/**
 * The studio's HTTP contract: every route of /studio/api (STUDIO_ROUTES) with the schemas of its
 * path parameters, query, body and answer. The server registers its routes from this map
 * (server/studio-server/http/studio-route.ts) and validates what comes in with it; the OpenAPI document
 * lists the studio's paths from it; the web app imports its types only (studio/api/client.ts), so
 * zod never reaches the browser bundle, as with protocol.ts and protocol-schemas.ts.
 *
 * An answer is a zod schema where the shape is small enough to be declared here; the larger ones
 * (versions, insights, misses) are the types of studio-versions.ts, studio-insights.ts and
 * studio-misses.ts, carried by `shaped<T>()`, and the OpenAPI document describes them in its
 * components.
 */

/** A route's schemas: path parameters, query, JSON body, answer; `status` when a success is not 200. */
export interface StudioRouteSchemas {
  readonly params?: z.ZodObject;
  readonly query?: z.ZodType;
  readonly body?: z.ZodType;
  readonly answer?: z.ZodType;
  readonly status?: 201;
}

/** An answer typed by a shape of shared/ rather than declared as a schema: nothing is checked at run time. */
const shaped = <T>() => z.custom<T>(() => true);

/** The studio's roles, from most to least able (server/ports/roles.ts says what each may do). */
export const STUDIO_ROLES = ['owner', 'editor', 'analyst', 'viewer'] as const;
export const MAX_PASSWORD = 256;
/** An environment-variable name, as the definition names secrets (`tokenEnv: "CRM_TOKEN"`). */
export const SECRET_NAME = /^[A-Z_][A-Z0-9_]{0,127}$/;
export const MAX_SECRET_BYTES = 16 * 1024;
/** The longest text an insights search takes (and an unprocessed input is kept at). */
export const TEXT_LIMIT = 200;
/** The most inputs added from the misses in one request: a group's examples fit. */
export const MAX_MISSES_ADDED = 50;

// ---- People: sign-in, sessions, accounts, tokens, secrets, audit.

export const emailField = z
  .string()
  .trim()
  .min(3, 'give an email address')
  .max(254, 'an email address has at most 254 characters')
  .regex(/^[^\s@]+@[^\s@]+$/, 'give an email address such as ana@example.com');
export const nameField = z
  .string()
  .trim()
  .min(1, 'give a name')
  .max(100, 'a name has at most 100 characters')
  .regex(/^[^\p{Cc}]*$/u, 'a name has no control characters');
const passwordField = z
  .string()
  .min(1, 'give a password')
  .max(MAX_PASSWORD, `a password has at most ${MAX_PASSWORD} characters`);
const setupTokenField = z
  .string()
  .min(20)
  .max(100)
  .regex(/^[A-Za-z0-9_-]+$/, 'not a setup token');
const roleField = z.enum(STUDIO_ROLES, { message: `a role is one of ${STUDIO_ROLES.join(', ')}` });
/** A handle of 24 hex digits (a session's, an invitation's). */
const handle = (what: string) => z.string().regex(/^[0-9a-f]{24}$/, `not ${what}`);
const isoTime = z.string();

const sessionInfo = z.object({
  account: z.object({ id: z.string(), email: z.string(), name: z.string(), role: z.enum(STUDIO_ROLES) }),
  /** The token the page sends back in X-CSRF-Token on writes; null for an API token caller. */
  csrfToken: z.string().nullable(),
  expiresAt: isoTime.nullable(),
});
const accountView = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  role: z.enum(STUDIO_ROLES),
  password: z.boolean(),
  singleSignOn: z.boolean(),
  createdAt: isoTime,
});
const tokenView = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: isoTime,
  expiresAt: isoTime.nullable(),
  lastUsedAt: isoTime.nullable(),
});
const secretStatus = z.object({ name: z.string(), fromEnvironment: z.boolean(), set: z.boolean() });
const secretChanged = secretStatus.extend({ botReloaded: z.boolean() });
const secretParams = z.object({
  name: z
    .string()
    .regex(
      SECRET_NAME,
      'a secret is named like an environment variable: capital letters, digits and _, such as CRM_TOKEN',
    ),
});
const accountParams = z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'not an account id') });
/** UNIX seconds, as the management API's exports take them. */
const seconds = z
  .string()
  .regex(/^\d{1,11}$/, 'must be whole UNIX seconds')
  .transform(Number);
const auditActor = z.object({
  kind: z.enum(['account', 'token', 'file', 'system', 'key']),
  accountId: z.string().optional(),
  email: z.string().optional(),
});

// ---- Versions.

const VERSION_ID = /^v[1-9]\d{0,9}$/;
const versionId = z.string().regex(VERSION_ID, 'must be a version id such as "v12"');
const stepRef = z.object({ dialogId: z.string().min(1).max(64), stepId: z.string().min(1).max(64) }).strict();
const versionMessage = z.string().max(500, 'must be at most 500 characters');
/** Any JSON the bounds allowed; the checks say what is wrong with it. */
const definition = z.unknown().refine((value) => value !== undefined, 'is required');
const versionParams = z.object({ id: versionId });

// ---- Insights.

/**
 * A UTC day in a query, YYYY-MM-DD, that exists on the calendar: Date.parse rolls "2026-09-31"
 * over to October 1st, so the day is read back and compared, and a day that is not there is
 * refused instead of answered for another one.
 */
export const dayParam = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date as YYYY-MM-DD')
  .refine((s) => {
    const ms = Date.parse(`${s}T00:00:00Z`);
    return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 10) === s;
  }, 'must be a real date')
  // Nothing is stored before 1970 (times are epoch milliseconds), and a range reaching back past year 0
  // would name days ISO 8601 writes with a sign ("-000001-12-03"), which no date field takes.
  .refine((s) => s >= '1970-01-01', 'must be 1970-01-01 or later');
const range = { from: dayParam.optional(), to: dayParam.optional() };
const reportVersion = z
  .string()
  .regex(/^[A-Za-z0-9._-]{1,64}$/, 'must be a version id (as the versions list gives it)');
/** A channel's id, as users' addresses carry it (`channelId`). */
const channelParam = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a channel name');
const reportQuery = z.strictObject({ ...range, version: reportVersion.optional(), channel: channelParam.optional() });
/** The user id is checked by the route (a 400 that names it), so any text reaches it. */
const userParams = z.object({ userId: z.string().min(1).max(256) });

const schemas = {
  signInOptions: {
    answer: z.object({
      password: z.boolean(),
      singleSignOn: z.object({ label: z.string() }).nullable(),
      /** The browser holds a session already (so the page need not provoke a 401). */
      signedIn: z.boolean(),
    }),
  },
  login: { body: z.strictObject({ email: emailField, password: passwordField }), answer: sessionInfo },
  // The token comes as a query parameter named `token`, which the request log redacts by name.
  checkSetupLink: {
    query: z.strictObject({ token: setupTokenField }),
    answer: z.object({ role: z.enum(STUDIO_ROLES), email: z.string().nullable(), existing: z.boolean() }),
  },
  completeSetup: {
    body: z.strictObject({
      token: setupTokenField,
      email: emailField.optional(),
      name: nameField,
      password: passwordField,
    }),
    answer: sessionInfo,
    status: 201,
  },
  ssoLogin: {},
  ssoCallback: {},
  session: { answer: sessionInfo },
  logout: {},
  logoutEverywhere: {
    /** With apiTokens, the account's API tokens end too (a lost laptop may hold one). */
    body: z.strictObject({ apiTokens: z.boolean().optional() }),
    answer: z.object({ ended: z.number(), tokensEnded: z.number() }),
  },
  listSessions: {
    answer: z.array(
      z.object({
        id: z.string(),
        current: z.boolean(),
        createdAt: isoTime,
        lastSeenAt: isoTime,
        expiresAt: isoTime,
        ip: z.string(),
        userAgent: z.string(),
        method: z.string(),
      }),
    ),
  },
  endSession: { params: z.object({ id: handle('a session id') }) },
  changePassword: { body: z.strictObject({ currentPassword: passwordField, newPassword: passwordField }) },
  listTokens: { answer: z.array(tokenView) },
  createToken: {
    body: z.strictObject({ name: nameField, expiresInDays: z.int().min(1).max(3650).optional() }),
    /** The token itself is in this answer and nowhere else, ever. */
    answer: tokenView.extend({ token: z.string() }),
    status: 201,
  },
  revokeToken: { params: z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'not a token id') }) },
  listAccounts: {
    answer: z.object({
      accounts: z.array(accountView),
      invitations: z.array(
        z.object({
          id: z.string(),
          role: z.enum(STUDIO_ROLES),
          email: z.string().nullable(),
          createdAt: z.number(),
          expiresAt: z.number(),
        }),
      ),
    }),
  },
  inviteAccount: {
    body: z.strictObject({ email: emailField, role: roleField }),
    /** The one-time setup link, shown to the owner once to pass on. */
    answer: z.object({
      email: z.string().nullable(),
      role: z.enum(STUDIO_ROLES),
      link: z.string(),
      expiresAt: isoTime,
    }),
    status: 201,
  },
  updateAccount: {
    params: accountParams,
    body: z
      .strictObject({ role: roleField.optional(), name: nameField.optional() })
      .refine((change) => change.role !== undefined || change.name !== undefined, 'give a role or a name to change'),
    answer: accountView,
  },
  deleteAccount: { params: accountParams },
  cancelInvitation: { params: z.object({ id: handle('an invitation id') }) },
  listSecrets: {
    /** updatedAt and updatedBy for owners only. */
    answer: z.array(
      secretStatus.extend({
        usedBy: z.array(z.string()),
        updatedAt: isoTime.nullable().optional(),
        updatedBy: z.string().nullable().optional(),
      }),
    ),
  },
  setSecret: {
    params: secretParams,
    body: z.strictObject({
      value: z
        .string()
        .min(1, 'give the secret a value')
        .refine(
          (value) => new TextEncoder().encode(value).length <= MAX_SECRET_BYTES,
          `a secret holds at most ${MAX_SECRET_BYTES / 1024} KiB`,
        ),
    }),
    answer: secretChanged,
  },
  deleteSecret: { params: secretParams, answer: secretChanged },
  readAudit: {
    query: z.strictObject({
      fromTimestamp: seconds.optional(),
      toTimestamp: seconds.optional(),
      limit: z
        .string()
        .regex(/^\d{1,4}$/, 'must be a whole number from 1 to 1000')
        .transform(Number)
        .refine((n) => n >= 1 && n <= 1000, 'must be a whole number from 1 to 1000')
        .optional(),
      cursor: z
        .string()
        .regex(/^[0-9a-z-]{1,64}$/, 'must be the nextCursor of the previous page')
        .optional(),
    }),
    answer: z.object({
      entries: z.array(
        z.object({
          id: z.string(),
          timestamp: isoTime,
          at: z.number(),
          actor: auditActor,
          ip: z.string().optional(),
          action: z.string(),
          target: z.string().optional(),
          details: z.record(z.string(), z.unknown()).optional(),
        }),
      ),
      nextCursor: z.string().nullable(),
    }),
  },
  listVersions: {
    query: z
      .object({
        limit: z.coerce.number().int().min(1).max(200).default(50),
        before: z.coerce.number().int().min(1).optional(),
      })
      .strict(),
    answer: shaped<VersionList>(),
  },
  saveVersion: {
    body: z.object({ baseVersionId: versionId, definition, message: versionMessage.default('') }).strict(),
    answer: shaped<SaveResult>(),
  },
  readVersion: { params: versionParams, answer: shaped<VersionRead>() },
  /** The answer is the file itself (JSON or YAML), as an attachment. */
  exportVersion: {
    params: versionParams,
    query: z.object({ format: z.enum(['json', 'yaml']).default('json') }).strict(),
  },
  readDraft: { answer: shaped<DraftRead>() },
  autosaveDraft: {
    body: z
      .object({ baseVersionId: versionId.nullable(), revision: z.number().int().min(1).nullable(), definition })
      .strict(),
    answer: shaped<DraftSaved>(),
  },
  checkDefinition: { body: z.object({ definition }).strict(), answer: shaped<{ problems: readonly Problem[] }>() },
  publishPlan: { body: z.object({ versionId }).strict(), answer: shaped<PublishPlan>() },
  publish: {
    body: z
      .object({
        versionId,
        moves: z
          .array(z.object({ from: stepRef, to: stepRef }).strict())
          .max(1000)
          .default([]),
        message: versionMessage.optional(),
      })
      .strict(),
    answer: shaped<Published>(),
  },
  /** The body is the file as it is (JSON or YAML), not a JSON object of fields. */
  importVersion: { query: z.object({ message: versionMessage.default('') }).strict(), answer: shaped<SaveResult>() },
  designerCatalogue: {
    answer: z.object({
      /** The editor JSON Schema of the definition (the one served at /bot-definition.schema.json). */
      schema: z.record(z.string(), z.unknown()),
      stepTypes: z.array(
        z.object({
          name: z.string(),
          description: z.string(),
          level: z.string(),
          source: z.enum(['builtIn', 'preset', 'own']),
          params: z.record(z.string(), z.unknown()),
          mappings: z.array(z.string()),
          defaultTiming: z.string(),
          needsService: z.enum(['always', 'optional']).optional(),
        }),
      ),
    }),
  },
  designerPresence: {
    body: z
      .object({
        dialog: z
          .string()
          .regex(/^[A-Za-z][A-Za-z0-9_-]{0,63}$/, 'must be a dialog id')
          .optional(),
      })
      .strict(),
    /** The others who have the designer open, and on which dialog. */
    answer: z.object({
      editors: z.array(
        z.object({ accountId: z.string(), name: z.string(), dialog: z.string().optional(), at: isoTime }),
      ),
    }),
  },
  insightsDashboard: { query: reportQuery, answer: shaped<Dashboard>() },
  insightsDropOff: { query: reportQuery, answer: shaped<DropOff>() },
  searchConversations: {
    query: z.strictObject({
      ...range,
      text: z.string().min(1).max(TEXT_LIMIT, `must be at most ${TEXT_LIMIT} characters`).optional(),
      field: z
        .string()
        .regex(/^[A-Za-z][A-Za-z0-9_]{0,63}$/, 'must be a user-data field name')
        .optional(),
      value: z.string().max(TEXT_LIMIT, `must be at most ${TEXT_LIMIT} characters`).optional(),
      channel: channelParam.optional(),
      reached: z
        .string()
        .regex(/^[A-Za-z0-9_-]{1,64}\/[A-Za-z0-9_-]{1,64}$/, 'must be dialogId/stepId')
        .optional(),
      integrationError: z.enum(['true', 'false']).optional(),
      cursor: z.string().max(300).optional(),
      limit: z
        .string()
        .regex(/^\d{1,3}$/, 'must be a whole number from 1 to 100')
        .transform(Number)
        .refine((n) => n >= 1 && n <= 100, 'must be a whole number from 1 to 100')
        .optional(),
    }),
    answer: shaped<ConversationSearchPage>(),
  },
  readUserTranscript: {
    params: userParams,
    query: z.strictObject({
      afterSeq: z
        .string()
        .regex(/^\d{1,12}$/, 'must be a whole number (the nextAfterSeq of the previous page)')
        .transform(Number)
        .optional(),
    }),
    answer: shaped<Transcript>(),
  },
  eraseUserFromStudio: { params: userParams, answer: shaped<UserErased>() },
  insightsMisses: { query: z.strictObject(range), answer: shaped<Misses>() },
  addMissesToDraft: {
    body: z.strictObject({
      target: z.strictObject({ kind: z.enum(['intent', 'faq']), id: z.string().min(1).max(64) }),
      texts: z
        .array(
          z
            .string()
            .trim()
            .min(1, 'must not be empty')
            .max(500, "must be at most 500 characters (an utterance's limit)"),
        )
        .min(1, 'must name at least one input')
        .max(MAX_MISSES_ADDED, `must be at most ${MAX_MISSES_ADDED} inputs; add a group's examples at a time`),
      /** The draft revision the page showed: a draft changed since (the designer in another tab) is not written over. */
      revision: z.number().int().min(1),
    }),
    answer: shaped<MissesAdded>(),
  },
  /** The management API's export router serves it, with that API's own query and file answers. */
  downloadExportFromStudio: {},
} as const satisfies { readonly [N in StudioRouteName]: StudioRouteSchemas };

type Schemas = typeof schemas;

/** The one map: each route's method and path (STUDIO_ROUTES) with its schemas. */
export const STUDIO_API = Object.fromEntries(
  Object.entries(STUDIO_ROUTES).map(([name, route]) => [name, { ...route, ...schemas[name as StudioRouteName] }]),
) as { readonly [N in StudioRouteName]: (typeof STUDIO_ROUTES)[N] & Schemas[N] };

export type StudioApiEntry = StudioRoute & StudioRouteSchemas;

type Part<N extends StudioRouteName, K extends keyof StudioRouteSchemas> = Schemas[N] extends {
  readonly [P in K]: infer S extends z.ZodType;
}
  ? S
  : never;

/** What a route takes as it is sent (defaults optional), for the client. */
export type StudioBody<N extends StudioRouteName> = z.input<Part<N, 'body'>>;
/** What a route's body is once validated, for the server. */
export type StudioParsedBody<N extends StudioRouteName> = z.output<Part<N, 'body'>>;
export type StudioParams<N extends StudioRouteName> = z.output<Part<N, 'params'>>;
export type StudioParsedQuery<N extends StudioRouteName> = z.output<Part<N, 'query'>>;
/** A query as the client writes it: the map's fields, each a text or a number. */
export type StudioQuery<N extends StudioRouteName> = {
  readonly [K in keyof z.input<Part<N, 'query'>>]?: string | number | boolean | undefined;
};
/** What a route answers with; nothing (void) for 204 No Content, a file or a redirect. */
export type StudioAnswer<N extends StudioRouteName> = [Part<N, 'answer'>] extends [never]
  ? void
  : z.output<Part<N, 'answer'>>;
