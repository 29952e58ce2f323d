/** The versions API's answers, as the studio reads them (server/studio/versions/, OpenAPI "Studio: versions"). */
import type { Change, StepRef, Stranded } from '../../shared/studio-versions.ts';

export type { Change, StepRef, Stranded };

export interface VersionAuthor {
  readonly kind: string;
  readonly accountId?: string;
  readonly email?: string;
  readonly name?: string;
}

export interface VersionMeta {
  readonly id: string;
  readonly number: number;
  readonly parentId: string | null;
  readonly author: VersionAuthor;
  readonly createdAt: number;
  readonly message: string;
  readonly hash: string;
  readonly source: 'studio' | 'file' | 'push';
  readonly publishedAt?: number;
  /** Who last put it live: after a rollback, the person who rolled back, not the version's author. */
  readonly publishedBy?: VersionAuthor;
}

export interface VersionList {
  readonly versions: readonly VersionMeta[];
  readonly publishedId: string | null;
  readonly headId: string | null;
  readonly nextBefore?: number;
}

export interface Problem {
  readonly path: string;
  readonly message: string;
  readonly hint?: string;
  readonly severity: 'error' | 'warning';
}

export interface PublishPlan {
  readonly versionId: string;
  readonly liveVersionId: string | null;
  readonly rollback: boolean;
  readonly problems: readonly Problem[];
  readonly diff: readonly Change[];
  readonly stranded: readonly Stranded[];
  /** The bot's saved tests run on this version: a failing one blocks publishing. */
  readonly tests?: readonly TestOutcome[];
}

export interface TestOutcome {
  readonly name: string;
  readonly passed: boolean;
  /** What `chatbot test` prints for it: the diff of a failure. */
  readonly report: string;
}

/** The parts of a definition the target picker reads; anything else is left alone. */
export interface DefinitionOutline {
  readonly dialogs?: ReadonlyArray<{
    readonly id?: unknown;
    readonly steps?: ReadonlyArray<{ readonly id?: unknown }>;
  }>;
}
