import type {
  Move,
  NewPublication,
  Publication,
  StepRef,
  VersionAuthor,
  VersionMeta,
  VersionSource,
} from '../../shared/studio-versions.ts';

/**
 * The versions room: the bot definition as immutable versions, the published pointer with its
 * history, and each account's draft. Definitions are kept as their canonical JSON text
 * (server/definition/canonical.ts), so the room never parses or reorders them and what is
 * read back is byte for byte what was written. Times are epoch milliseconds.
 */

export interface StoredVersion extends VersionMeta {
  /** The canonical JSON text of the definition, as written. */
  readonly definitionText: string;
}

export interface NewVersion {
  readonly author: VersionAuthor;
  readonly createdAt: number;
  readonly message: string;
  readonly hash: string;
  readonly source: VersionSource;
  readonly definitionText: string;
}

export type CreateOutcome =
  | { readonly status: 'created'; readonly version: VersionMeta }
  /** The head is not the version the save was based on: nothing was written. */
  | { readonly status: 'conflict'; readonly head: VersionMeta | null };

/** A position users may rest on. */
export type { StepRef };
/** The wire shapes of a version, in shared/ with the studio's HTTP contract. */
export type { Move, NewPublication, Publication, VersionAuthor, VersionMeta, VersionSource };
export { VERSION_SOURCES } from '../../shared/studio-versions.ts';

/** An account's work in progress: any JSON (it may not be a valid definition yet), autosaved. */
export interface Draft {
  readonly accountId: string;
  readonly baseVersionId: string | null;
  readonly definitionText: string;
  /** 1 on the first write, one more on each: an autosave names the revision it read. */
  readonly revision: number;
  readonly updatedAt: number;
}

export interface DraftWrite {
  readonly baseVersionId: string | null;
  readonly definitionText: string;
  readonly updatedAt: number;
}

export type DraftOutcome =
  | { readonly status: 'saved'; readonly draft: Draft }
  /** The draft moved on since `expectedRevision` (another tab): nothing was written; `draft` is what is stored. */
  | { readonly status: 'conflict'; readonly draft: Draft | null };

export interface VersionsRoom {
  /**
   * Adds a version on top of the head. With `expectHead` (a version id, or null for "no version
   * yet"), it is written only while that is still the head, atomically: of two saves on one
   * base, exactly one is created and the other gets `conflict`. `'any'` puts it on whatever is
   * the head (an import, the file).
   */
  createVersion(version: NewVersion, expectHead: string | null | 'any'): Promise<CreateOutcome>;
  getVersion(id: string): Promise<StoredVersion | null>;
  /** Newest first; `beforeNumber` pages on (versions with a smaller number). */
  listVersions(limit: number, beforeNumber?: number): Promise<VersionMeta[]>;
  head(): Promise<VersionMeta | null>;

  /** Records that `versionId` is now live; the latest publication is the published version. */
  publish(publication: NewPublication): Promise<Publication>;
  published(): Promise<Publication | null>;
  /** Newest first. */
  publications(limit: number): Promise<Publication[]>;

  readDraft(accountId: string): Promise<Draft | null>;
  /** Writes the account's draft if its revision is still `expectedRevision` (null: there is none yet). */
  writeDraft(accountId: string, write: DraftWrite, expectedRevision: number | null): Promise<DraftOutcome>;

  /** The content hash of BOT_DEFINITION as the last start or reload saw it; null before the first. */
  fileSeen(): Promise<string | null>;
  markFileSeen(hash: string, at: number): Promise<void>;

  /**
   * Runs `action` while no other caller (on any node sharing the store) runs one with the same
   * key: nodes starting together import a changed file once.
   */
  exclusive<T>(key: string, action: () => Promise<T>): Promise<T>;
}
