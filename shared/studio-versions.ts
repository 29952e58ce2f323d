import { z } from 'zod';

/**
 * What the studio's versions API answers with, as zod schemas: the server checks its answers
 * against them in test and development (server/studio-server/http/studio-route.ts), the OpenAPI
 * document describes them from them (an `id` is the component's name there), and the server
 * (server/definition/diff.ts, server/studio-server/versions/) and the web app (studio/versions/)
 * use the types inferred from them. The web app imports the types only, so zod stays out of its
 * bundle. The routes that answer with them are in studio-api.ts.
 */

/**
 * A type made read-only all the way down: what a wire shape inferred from a zod schema (mutable
 * by default) becomes, so that the server's own read-only values can be answered as they are and
 * the web app cannot change what it was sent. The other wire shapes of the studio (studio-insights.ts,
 * studio-misses.ts) take it from here: a file of its own would be one more floor below them all.
 */
export type ReadonlyDeep<T> = T extends readonly (infer U)[]
  ? readonly ReadonlyDeep<U>[]
  : T extends (...args: never[]) => unknown
    ? T
    : T extends object
      ? { readonly [K in keyof T]: ReadonlyDeep<T[K]> }
      : T;

const epochMs = (description = 'Epoch milliseconds.') => z.int().meta({ description });

/** A step of a dialog, by id. */
export const stepRef = z.strictObject({ dialogId: z.string(), stepId: z.string() });
export type StepRef = ReadonlyDeep<z.infer<typeof stepRef>>;

/** One difference between two definitions, as the publish plan lists it. */
const change = z.strictObject({
  kind: z.enum(['added', 'removed', 'changed']),
  what: z.enum(['dialog', 'step', 'settings', 'intent', 'faq', 'part']),
  path: z.string().meta({
    description: 'Where, in the version being published (in the live one for a removal): `dialogs[2].steps[0]`.',
  }),
  dialogId: z.string().optional(),
  stepId: z.string().optional(),
  id: z.string().optional().meta({
    description: 'The id of an intent or FAQ pair; the name of a top-level part (`integrations`, `pageEvents`, …).',
  }),
  fields: z.array(z.string()).optional().meta({
    description: 'The fields that differ, for a change; `order` when only the order of steps changed.',
  }),
  words: z.string().meta({
    description:
      'The same, in one English sentence (the studio composes its own in the reader’s language from the fields above).',
  }),
});
export type Change = ReadonlyDeep<z.infer<typeof change>>;

/** A position the version to publish no longer has, the users resting there now, and where they go unless told otherwise. */
const stranded = z.strictObject({ ...stepRef.shape, users: z.int().min(0), defaultTarget: stepRef.nullable() });
export type Stranded = ReadonlyDeep<z.infer<typeof stranded>>;

/**
 * Where a version came from: the studio's editor, BOT_DEFINITION at start or SIGHUP, an import
 * over the API (`chatbot push`, an upload). A rollback makes no version: it publishes an
 * earlier one (the publication's kind says so).
 */
export const VERSION_SOURCES = ['studio', 'file', 'push'] as const;
export type VersionSource = (typeof VERSION_SOURCES)[number];

/** Who made a version or a publication: an account (in person or by its API token), the definition file, or the server. */
const versionAuthor = z.strictObject({
  kind: z.enum(['account', 'token', 'file', 'system', 'key']),
  accountId: z.string().optional(),
  email: z.string().optional(),
  name: z.string().optional().meta({ description: "What the list shows: the account's name, or the file's path." }),
});
export type VersionAuthor = ReadonlyDeep<z.infer<typeof versionAuthor>>;

const versionFields = {
  id: z
    .string()
    .regex(/^v[1-9][0-9]{0,9}$/)
    .meta({ description: '`v1`, `v2`, …: the number says the order in which versions were made.' }),
  number: z.int().min(1),
  parentId: z.string().nullable().meta({ description: 'The head this version was saved on; null for the first.' }),
  author: versionAuthor,
  createdAt: epochMs(),
  message: z.string(),
  hash: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .meta({ description: 'sha256 of the canonical JSON text: two versions with the same content have the same hash.' }),
  source: z.enum(VERSION_SOURCES),
};
const versionMeta = z.strictObject(versionFields).meta({ id: 'VersionMeta' });
export type VersionMeta = ReadonlyDeep<z.infer<typeof versionMeta>>;

/** A version as the list shows it: with when it was last put live, and by whom. */
const listedFields = {
  ...versionFields,
  publishedAt: epochMs('When it was last put live; absent when never.').optional(),
  publishedBy: versionAuthor.optional().meta({
    description:
      'Who last put it live (a publish, a rollback, or the file at start): after a rollback, the person who rolled back, not the version’s author; absent when never.',
  }),
};
const listedVersion = z.strictObject(listedFields).meta({ id: 'ListedVersion' });
export type ListedVersion = ReadonlyDeep<z.infer<typeof listedVersion>>;

/** GET /studio/api/versions: a page of versions, newest first. */
export const versionList = z
  .strictObject({
    versions: z.array(listedVersion),
    publishedId: z.string().nullable(),
    headId: z.string().nullable(),
    nextBefore: z.int().optional().meta({ description: 'There are older versions: ask again with `before` = this.' }),
  })
  .meta({ id: 'VersionList' });
export type VersionList = ReadonlyDeep<z.infer<typeof versionList>>;

/** A problem `chatbot check` finds, where it is, and what to do about it. */
const problem = z
  .strictObject({
    path: z.string(),
    message: z.string(),
    hint: z.string().optional(),
    severity: z.enum(['error', 'warning']),
  })
  .meta({ id: 'Problem' });
export type Problem = ReadonlyDeep<z.infer<typeof problem>>;

/** POST /studio/api/check. */
export const problems = z.strictObject({ problems: z.array(problem) });

/** One of the bot's tests run before a publish, as `chatbot test` reports it. */
const testOutcome = z.strictObject({
  name: z.string(),
  passed: z.boolean(),
  report: z.string().meta({
    description: 'What `chatbot test` prints for it: a line, and for a failure where it failed and the diff.',
  }),
});
export type TestOutcome = ReadonlyDeep<z.infer<typeof testOutcome>>;

/** POST /studio/api/publish/plan. */
export const publishPlan = z
  .strictObject({
    versionId: z.string(),
    liveVersionId: z.string().nullable().meta({
      description: 'The version in service now; null when this node runs a bot the versions store does not know yet.',
    }),
    rollback: z.boolean().meta({ description: 'An earlier version than the live one: publishing it is a rollback.' }),
    problems: z
      .array(problem)
      .meta({ description: 'Every problem `chatbot check` finds; an error blocks the publish.' }),
    diff: z.array(change),
    stranded: z.array(stranded),
    tests: z.array(testOutcome).optional().meta({
      description:
        "The bot's tests run on the version; a failing one blocks the publish. report is what chatbot test prints for it.",
    }),
  })
  .meta({ id: 'PublishPlan' });
export type PublishPlan = ReadonlyDeep<z.infer<typeof publishPlan>>;

/** The definition as written: any JSON. */
const definition = z.unknown().meta({
  description:
    'A bot definition as written (docs/bot-definition.md): any JSON, valid or not; at most 5 MB and 32 levels deep. The checks say what is wrong with it.',
});

/** GET /studio/api/versions/{id}: a version with its definition as written. */
export const versionRead = z.strictObject({ ...listedFields, definition }).meta({ id: 'Version' });
export type VersionRead = ReadonlyDeep<z.infer<typeof versionRead>>;

/** GET /studio/api/draft: the caller's work in progress (any JSON: it may not be a valid definition yet). */
export const draftRead = z
  .strictObject({
    baseVersionId: z.string().nullable(),
    definition,
    revision: z.int().min(1),
    updatedAt: epochMs(),
  })
  .meta({ id: 'Draft' });
export type DraftRead = ReadonlyDeep<z.infer<typeof draftRead>>;

/** PUT /studio/api/draft: the revision the autosave wrote. */
export const draftSaved = z.strictObject({ revision: z.int().min(1), updatedAt: epochMs() });
export type DraftSaved = ReadonlyDeep<z.infer<typeof draftSaved>>;

/** POST /studio/api/versions and /import: the version (new, or the newest when it held this already) and its problems. */
export const saveResult = z
  .strictObject({ created: z.boolean(), version: versionMeta, problems: z.array(problem) })
  .meta({ id: 'SaveResult' });
export type SaveResult = ReadonlyDeep<z.infer<typeof saveResult>>;

/** Where the users resting on a step the published version no longer has go at their next message. */
const move = z.strictObject({ from: stepRef, to: stepRef });
export type Move = ReadonlyDeep<z.infer<typeof move>>;

const newPublicationFields = {
  versionId: z.string(),
  previousId: z.string().nullable().meta({ description: 'The version live before this one; null for the first.' }),
  at: epochMs(),
  by: versionAuthor,
  kind: z.enum(['publish', 'rollback', 'file']).meta({
    description: '`rollback`: an earlier version than the live one was put back; `file`: BOT_DEFINITION brought it.',
  }),
  moves: z.array(move),
  message: z.string().optional(),
};
export type NewPublication = ReadonlyDeep<z.infer<z.ZodObject<typeof newPublicationFields>>>;

const publication = z.strictObject({
  seq: z.int().min(1).meta({ description: '1, 2, …: the latest is what runs.' }),
  ...newPublicationFields,
});
export type Publication = ReadonlyDeep<z.infer<typeof publication>>;

/** POST /studio/api/publish. */
export const published = z.strictObject({ publication, rollback: z.boolean() }).meta({ id: 'PublishResult' });
export type Published = ReadonlyDeep<z.infer<typeof published>>;
