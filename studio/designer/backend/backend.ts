import type { Problem } from '../model/problems.ts';
import type { DefinitionDoc } from '../model/types.ts';

/**
 * What the designer needs from the server, and nothing more: the studio's API (docs: the studio
 * contract) behind a narrow interface, so the element does not care how requests are made.
 */

export type Role = 'owner' | 'editor' | 'analyst' | 'viewer';

export interface DesignerSession {
  readonly accountId: string;
  readonly name: string;
  readonly role: Role;
}

export interface Draft {
  readonly baseVersionId: string | null;
  readonly definition: DefinitionDoc;
  readonly revision: number;
  readonly updatedAt?: string;
}

/** An integration step type as the catalogue describes it. */
export interface StepTypeInfo {
  readonly name: string;
  readonly description: string;
  readonly level: string;
  /** Where it comes from: shipped with the product, a preset, or the bot's own `stepTypes` module. */
  readonly source: 'builtIn' | 'preset' | 'own';
  readonly params: Record<string, unknown>;
  readonly mappings: readonly string[];
  readonly needsService?: 'always' | 'optional';
}

export interface Catalogue {
  /** The editor JSON Schema of the definition (the one served at /bot-definition.schema.json). */
  readonly schema: Record<string, unknown>;
  readonly stepTypes: readonly StepTypeInfo[];
}

export interface PresenceEntry {
  readonly accountId: string;
  readonly name: string;
  readonly dialog?: string;
  readonly at: string;
}

export interface VersionConflictDetails {
  readonly base?: DefinitionDoc;
  readonly theirs: {
    readonly id: string;
    readonly definition: DefinitionDoc;
    readonly author?: string;
    readonly createdAt?: string;
  };
}

/** An answer in the product's error catalogue: status, code, a sentence for people, details. */
export class BackendError extends Error {
  override readonly name = 'BackendError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

export interface DesignerBackend {
  session(): Promise<DesignerSession>;
  catalogue(): Promise<Catalogue>;
  /** The caller's own draft (owners and editors). */
  loadDraft(): Promise<Draft>;
  /** The newest version, for roles that read but do not edit. */
  loadHead(): Promise<{ readonly versionId: string | null; readonly definition: DefinitionDoc }>;
  /** Autosave; BackendError `draft_conflict` (409) when another tab saved a newer revision. */
  saveDraft(draft: {
    baseVersionId: string | null;
    revision: number;
    definition: DefinitionDoc;
  }): Promise<{ readonly revision: number }>;
  /** A new version; BackendError `version_conflict` (409) with VersionConflictDetails when the head moved. */
  saveVersion(version: {
    baseVersionId: string | null;
    definition: DefinitionDoc;
    message: string;
  }): Promise<{ readonly id: string }>;
  /** `chatbot check`'s problems for a definition. */
  check(definition: DefinitionDoc, signal?: AbortSignal): Promise<Problem[]>;
  /** The names of the studio's secrets (owners and editors); values never leave the server. */
  secretNames(): Promise<string[]>;
  /** One saved version's definition. */
  loadVersion(id: string): Promise<DefinitionDoc>;
  /** Says where this editor is and returns who else has the bot open. */
  presence(dialog: string | undefined): Promise<PresenceEntry[]>;
}
