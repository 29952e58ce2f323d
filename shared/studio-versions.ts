/**
 * The shapes the studio's versions API answers with that the web app reads as they are: one
 * definition here, imported by the server (server/definition/diff.ts, server/studio-server/versions/)
 * and by studio/, so the two cannot drift apart. Types only; the routes that answer with them are
 * in studio-api.ts.
 */

/** A step of a dialog, by id. */
export interface StepRef {
  readonly dialogId: string;
  readonly stepId: string;
}

/** One difference between two definitions, as the publish plan lists it. */
export interface Change {
  readonly kind: 'added' | 'removed' | 'changed';
  readonly what: 'dialog' | 'step' | 'settings' | 'intent' | 'faq' | 'part';
  /** Where, in the version being published (in the live one for a removal): `dialogs[2].steps[0]`. */
  readonly path: string;
  readonly dialogId?: string;
  readonly stepId?: string;
  /** The id of an intent or FAQ pair; the name of a top-level part (`integrations`, `pageEvents`, …). */
  readonly id?: string;
  /** The fields that differ, for a change; `order` when only the order of steps changed. */
  readonly fields?: readonly string[];
  /** The same, in one English sentence (the studio composes its own in the reader's language from the fields above). */
  readonly words: string;
}

/** A position the version to publish no longer has, the users resting there now, and where they go unless told otherwise. */
export interface Stranded extends StepRef {
  readonly users: number;
  readonly defaultTarget: StepRef | null;
}

/**
 * Where a version came from: the studio's editor, BOT_DEFINITION at start or SIGHUP, an import
 * over the API (`chatbot push`, an upload). A rollback makes no version: it publishes an
 * earlier one (the publication's kind says so).
 */
export const VERSION_SOURCES = ['studio', 'file', 'push'] as const;
export type VersionSource = (typeof VERSION_SOURCES)[number];

/** Who made a version or a publication: an account (in person or by its API token), the definition file, or the server. */
export interface VersionAuthor {
  readonly kind: 'account' | 'token' | 'file' | 'system' | 'key';
  readonly accountId?: string;
  readonly email?: string;
  /** What the list shows: the account's name, or the file's path. */
  readonly name?: string;
}

export interface VersionMeta {
  /** `v1`, `v2`, …: the number says the order in which versions were made. */
  readonly id: string;
  readonly number: number;
  /** The head this version was saved on; null for the first. */
  readonly parentId: string | null;
  readonly author: VersionAuthor;
  readonly createdAt: number;
  readonly message: string;
  /** sha256 of the canonical JSON text: two versions with the same content have the same hash. */
  readonly hash: string;
  readonly source: VersionSource;
}

/** A version as the list shows it: with when it was last put live, and by whom. */
export interface ListedVersion extends VersionMeta {
  readonly publishedAt?: number;
  /** Who last put it live: after a rollback, the person who rolled back, not the version's author. */
  readonly publishedBy?: VersionAuthor;
}

/** GET /studio/api/versions: a page of versions, newest first. */
export interface VersionList {
  readonly versions: readonly ListedVersion[];
  readonly publishedId: string | null;
  readonly headId: string | null;
  /** There are older versions: ask again with `before` = this. */
  readonly nextBefore?: number;
}

/** A problem `chatbot check` finds, where it is, and what to do about it. */
export interface Problem {
  readonly path: string;
  readonly message: string;
  readonly hint?: string;
  readonly severity: 'error' | 'warning';
}

/** One of the bot's tests run before a publish, as `chatbot test` reports it. */
export interface TestOutcome {
  readonly name: string;
  readonly passed: boolean;
  /** What `chatbot test` prints for it: a line, and for a failure where it failed and the diff. */
  readonly report: string;
}

/** POST /studio/api/publish/plan. */
export interface PublishPlan {
  readonly versionId: string;
  /** The version in service now; null when this node runs a bot the versions room does not know yet. */
  readonly liveVersionId: string | null;
  /** Publishing an earlier version than the live one: recorded as a rollback. */
  readonly rollback: boolean;
  /** Every problem `chatbot check` finds; an error blocks the publish. */
  readonly problems: readonly Problem[];
  readonly diff: readonly Change[];
  readonly stranded: readonly Stranded[];
  /** The bot's saved tests run on this version: a failing one blocks publishing. */
  readonly tests?: readonly TestOutcome[];
}

/** GET /studio/api/versions/{id}: a version with its definition as written. */
export interface VersionRead extends ListedVersion {
  readonly definition: unknown;
}

/** GET /studio/api/draft: the caller's work in progress (any JSON: it may not be a valid definition yet). */
export interface DraftRead {
  readonly baseVersionId: string | null;
  readonly definition: unknown;
  readonly revision: number;
  readonly updatedAt: number;
}

/** PUT /studio/api/draft: the revision the autosave wrote. */
export interface DraftSaved {
  readonly revision: number;
  readonly updatedAt: number;
}

/** POST /studio/api/versions and /import: the version (new, or the newest when it held this already) and its problems. */
export interface SaveResult {
  readonly created: boolean;
  readonly version: VersionMeta;
  readonly problems: readonly Problem[];
}

/** Where the users resting on a step the published version no longer has go at their next message. */
export interface Move {
  readonly from: StepRef;
  readonly to: StepRef;
}

export interface NewPublication {
  readonly versionId: string;
  /** The version live before this one; null for the first publication. */
  readonly previousId: string | null;
  readonly at: number;
  readonly by: VersionAuthor;
  /** `rollback`: an earlier version than the live one was put back; `file`: BOT_DEFINITION brought it. */
  readonly kind: 'publish' | 'rollback' | 'file';
  readonly moves: readonly Move[];
  readonly message?: string;
}

export interface Publication extends NewPublication {
  /** 1, 2, …: the latest is what runs. */
  readonly seq: number;
}

/** POST /studio/api/publish. */
export interface Published {
  readonly publication: Publication;
  readonly rollback: boolean;
}
