import { z } from 'zod';
import { STUDIO_ROUTES, type StudioRoute, type StudioRouteName } from './studio-routes.ts';
import { CHANNEL_CONNECTOR_NAMES, MAX_CHANNEL_SETTING } from './studio-channels.ts';
import { channelPreviews, previewedMessage } from './studio-channel-preview.ts';
import { conversationSearchPage, dashboard, dropOff, transcript, userErased } from './studio-insights.ts';
import { misses, missesAdded } from './studio-misses.ts';
import {
  accountList,
  accountView,
  auditPage,
  createdToken,
  emailField,
  handle,
  idField,
  invitation,
  isoTime,
  nameField,
  passwordField,
  roleField,
  SECRET_NAME,
  secondsField,
  secretChanged,
  secretList,
  secretNameField,
  secretValueField,
  sessionInfo,
  sessionList,
  sessionsEnded,
  setupLinkInfo,
  setupTokenField,
  signInOptions,
  tokenList,
} from './studio-people.ts';
import {
  draftRead,
  draftSaved,
  problems,
  publishPlan,
  published,
  saveResult,
  versionList,
  versionRead,
} from './studio-versions.ts';

/**
 * The studio's HTTP contract: every route of /studio/api (STUDIO_ROUTES) with the schemas of its
 * path parameters, query, body and answer. The server registers its routes from this map
 * (server/studio-server/http/studio-route.ts), validates what comes in with it and, in test and
 * development, what goes out; the OpenAPI document lists the studio's paths from it
 * (server/api/openapi/studio-map-operations.ts); the web app imports its types only
 * (studio/api/client.ts), so zod never reaches the browser bundle, as with protocol.ts and
 * protocol-schemas.ts. The answers' schemas are per area beside it: studio-people.ts,
 * studio-versions.ts, studio-insights.ts, studio-misses.ts.
 */

/** A route's schemas: path parameters, query, JSON body, answer; `status` when a success is not 200. */
export interface StudioRouteSchemas {
  readonly params?: z.ZodObject;
  readonly query?: z.ZodType;
  readonly body?: z.ZodType;
  readonly answer?: z.ZodType;
  readonly status?: 201;
}

/** The longest text an insights search takes (and an unprocessed input is kept at). */
export const TEXT_LIMIT = 200;
/** The most inputs added from the misses in one request: a group's examples fit. */
export const MAX_MISSES_ADDED = 50;

const secretParams = z.object({ name: secretNameField });
const accountParams = z.object({ id: idField('an account id') });
/** A whole number in a query, from 1 to `max`: refused as text first, so "1e3" or " 5" is a 400 too. */
const limitField = (digits: number, max: number) =>
  z
    .string()
    .regex(new RegExp(`^\\d{1,${digits}}$`), `must be a whole number from 1 to ${max}`)
    .transform(Number)
    .refine((n) => n >= 1 && n <= max, `must be a whole number from 1 to ${max}`)
    .meta({ type: 'integer', minimum: 1, maximum: max, pattern: undefined });

// ---- Channels.

const channelParams = z.object({
  connector: z.enum(CHANNEL_CONNECTOR_NAMES, {
    message: `a connector is one of ${CHANNEL_CONNECTOR_NAMES.join(', ')}`,
  }),
});
const channelView = z.object({
  connector: z.enum(CHANNEL_CONNECTOR_NAMES),
  /** Where the settings in use come from: the environment wins over the studio for the whole connector. */
  source: z.enum(['environment', 'studio', 'none']),
  on: z.boolean(),
  /** What the connector still needs to be on (variables; PUBLIC_URL for Twilio). */
  missing: z.array(z.string()),
  channels: z.array(z.object({ name: z.string(), on: z.boolean(), webhookUrl: z.string() })),
  /**
   * On while the server has no PUBLIC_URL: an image the bot gives by its path (`/images/…`) cannot
   * reach this vendor, which fetches images from an absolute address, so it goes as its description.
   */
  imagePathsUnresolved: z.boolean(),
  /** Each setting with whether it is set; a credential's value never leaves the server (value null). */
  settings: z.array(
    z.object({
      variable: z.string(),
      secret: z.boolean(),
      required: z.boolean(),
      set: z.boolean(),
      value: z.string().nullable(),
    }),
  ),
  updatedAt: isoTime.nullable(),
  updatedBy: z.string().nullable(),
});

// ---- Versions.

const VERSION_ID = /^v[1-9]\d{0,9}$/;
const versionId = z.string().regex(VERSION_ID, 'must be a version id such as "v12"');
const stepRef = z.object({ dialogId: z.string().min(1).max(64), stepId: z.string().min(1).max(64) }).strict();
const versionMessage = z.string().max(500, 'must be at most 500 characters');
/** Any JSON the bounds allowed; the checks say what is wrong with it. */
const definition = z.unknown().refine((value) => value !== undefined, 'is required');
const versionParams = z.object({ id: versionId.meta({ description: 'A version id, e.g. v12.' }) });

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
  .refine((s) => s >= '1970-01-01', 'must be 1970-01-01 or later')
  // What the refinements check, as far as a pattern can say it (the server refuses 2026-02-30 with 400 too).
  .meta({ format: 'date', pattern: '^(19[7-9]\\d|[2-9]\\d{3})-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])$' });
const range = {
  from: dayParam
    .optional()
    .meta({ description: 'First UTC day included, YYYY-MM-DD; 29 days before `to` by default.' }),
  to: dayParam.optional().meta({ description: 'Last UTC day included, YYYY-MM-DD; today by default.' }),
};
const reportVersion = z
  .string()
  .regex(/^[A-Za-z0-9._-]{1,64}$/, 'must be a version id (as the versions list gives it)');
/** A channel's id, as users' addresses carry it (`channelId`). */
const channelParam = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a channel name');
const reportQuery = z.strictObject({
  ...range,
  version: reportVersion.optional(),
  channel: channelParam.optional().meta({
    description:
      'One channel (a `channelId`: webchat, telegram, whatsapp, twilio-sms, twilio-whatsapp, slack, messenger, teams or a REST channel): conversations started on it, and their messages, calls, clicks and sends; every channel when absent.',
  }),
});
/** The user id is checked by the route (a 400 that names it), so any text reaches it. */
const userParams = z.object({ userId: z.string().min(1).max(256) });

const schemas = {
  signInOptions: { answer: signInOptions },
  login: { body: z.strictObject({ email: emailField, password: passwordField }), answer: sessionInfo },
  // The token comes as a query parameter named `token`, which the request log redacts by name.
  checkSetupLink: {
    query: z.strictObject({ token: setupTokenField }),
    answer: setupLinkInfo,
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
    answer: sessionsEnded,
  },
  listSessions: { answer: sessionList },
  endSession: { params: z.object({ id: handle('a session id') }) },
  changePassword: { body: z.strictObject({ currentPassword: passwordField, newPassword: passwordField }) },
  listTokens: { answer: tokenList },
  createToken: {
    body: z.strictObject({ name: nameField, expiresInDays: z.int().min(1).max(3650).optional() }),
    answer: createdToken,
    status: 201,
  },
  revokeToken: { params: z.object({ id: idField('a token id') }) },
  listAccounts: { answer: accountList },
  inviteAccount: {
    body: z.strictObject({ email: emailField, role: roleField }),
    answer: invitation,
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
  listSecrets: { answer: secretList },
  setSecret: {
    params: secretParams,
    body: z.strictObject({ value: secretValueField }),
    answer: secretChanged,
  },
  deleteSecret: { params: secretParams, answer: secretChanged },
  listChannels: { answer: z.array(channelView) },
  saveChannel: {
    params: channelParams,
    /** The settings to change: a value sets one, null removes it from the studio; the others stay. */
    body: z.strictObject({
      values: z.record(
        z.string().regex(SECRET_NAME, 'a setting is named as its environment variable, such as TELEGRAM_BOT_TOKEN'),
        z.string().max(MAX_CHANNEL_SETTING, `a setting has at most ${MAX_CHANNEL_SETTING} characters`).nullable(),
      ),
    }),
    answer: channelView,
  },
  testChannel: {
    params: channelParams,
    body: z.strictObject({
      /** Which of the connector's channels (Twilio's SMS or WhatsApp); its first when omitted. */
      channel: z.string().max(64).optional(),
      /** The user address as the vendor names it: a Telegram chat id, a phone number, a Slack channel id. */
      address: z
        .string()
        .trim()
        .min(1, 'give the address to write to')
        .max(200, 'an address has at most 200 characters'),
      /** What the user receives, in the studio's language. */
      text: z.string().trim().min(1, 'give the text to send').max(1000, 'a test message has at most 1000 characters'),
    }),
    /** The vendor's answer: accepted, or refused with its code and its words. */
    answer: z.object({
      channel: z.string(),
      delivered: z.boolean(),
      vendorCode: z.string().nullable(),
      vendorAnswer: z.string(),
    }),
  },
  readAudit: {
    query: z.strictObject({
      fromTimestamp: secondsField.optional(),
      toTimestamp: secondsField.optional(),
      limit: limitField(4, 1000).optional(),
      cursor: z
        .string()
        .regex(/^[0-9a-z-]{1,64}$/, 'must be the nextCursor of the previous page')
        .optional(),
    }),
    answer: auditPage,
  },
  listVersions: {
    query: z
      .object({
        limit: z.coerce.number().int().min(1).max(200).default(50),
        before: z.coerce.number().int().min(1).optional().meta({ description: 'Versions numbered below this.' }),
      })
      .strict(),
    answer: versionList,
  },
  saveVersion: {
    body: z.object({ baseVersionId: versionId, definition, message: versionMessage.default('') }).strict(),
    answer: saveResult,
  },
  readVersion: { params: versionParams, answer: versionRead },
  /** The answer is the file itself (JSON or YAML), as an attachment. */
  exportVersion: {
    params: versionParams,
    query: z.object({ format: z.enum(['json', 'yaml']).default('json') }).strict(),
  },
  readDraft: { answer: draftRead },
  autosaveDraft: {
    body: z
      .object({ baseVersionId: versionId.nullable(), revision: z.number().int().min(1).nullable(), definition })
      .strict(),
    answer: draftSaved,
  },
  checkDefinition: { body: z.object({ definition }).strict(), answer: problems },
  publishPlan: { body: z.object({ versionId }).strict(), answer: publishPlan },
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
    answer: published,
  },
  /** The body is the file as it is (JSON or YAML), not a JSON object of fields. */
  importVersion: { query: z.object({ message: versionMessage.default('') }).strict(), answer: saveResult },
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
        z.object({
          accountId: z.string(),
          name: z.string(),
          dialog: z.string().optional(),
          at: z.iso.datetime().meta({ pattern: undefined }),
        }),
      ),
    }),
  },
  previewChannels: { body: z.strictObject({ message: previewedMessage }), answer: channelPreviews },
  insightsDashboard: { query: reportQuery, answer: dashboard },
  insightsDropOff: { query: reportQuery, answer: dropOff },
  searchConversations: {
    query: z.strictObject({
      ...range,
      text: z
        .string()
        .min(1)
        .max(TEXT_LIMIT, `must be at most ${TEXT_LIMIT} characters`)
        .optional()
        .meta({ description: 'Words the user wrote (case-insensitive).' }),
      field: z
        .string()
        .regex(/^[A-Za-z][A-Za-z0-9_]{0,63}$/, 'must be a user-data field name')
        .optional()
        .meta({ description: 'A user-data field the bot declares; with `value`.' }),
      value: z
        .string()
        .max(TEXT_LIMIT, `must be at most ${TEXT_LIMIT} characters`)
        .optional()
        .meta({ description: 'The value `field` must have (compared as text).' }),
      channel: channelParam
        .optional()
        .meta({ description: 'The channel the conversation started on (its `channelId`).' }),
      reached: z
        .string()
        .regex(/^[A-Za-z0-9_-]{1,64}\/[A-Za-z0-9_-]{1,64}$/, 'must be dialogId/stepId')
        .optional()
        .meta({ description: 'dialogId/stepId the conversation reached.' }),
      integrationError: z
        .enum(['true', 'false'])
        .optional()
        .meta({ description: 'true: only conversations where an integration call failed.' }),
      cursor: z.string().max(300).optional(),
      limit: limitField(3, 100).optional(),
    }),
    answer: conversationSearchPage,
  },
  readUserTranscript: {
    params: userParams,
    query: z.strictObject({
      afterSeq: z
        .string()
        .regex(/^\d{1,12}$/, 'must be a whole number (the nextAfterSeq of the previous page)')
        .transform(Number)
        .meta({ type: 'integer', minimum: 0, maximum: 999_999_999_999, pattern: undefined })
        .optional(),
    }),
    answer: transcript,
  },
  eraseUserFromStudio: { params: userParams, answer: userErased },
  insightsMisses: { query: z.strictObject(range), answer: misses },
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
    answer: missesAdded,
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
