import type { StudioBody } from '../../../shared/studio-api.ts';
import { ApiError, type ApiClient, type SessionInfo } from '../../api/client.ts';
import type { Problem } from '../model/problems.ts';
import type { DefinitionDoc } from '../model/types.ts';
import {
  BackendError,
  type Catalogue,
  type DesignerBackend,
  type DesignerSession,
  type Draft,
  type PresenceEntry,
  type VersionConflictDetails,
} from './backend.ts';

/**
 * The designer's backend over the studio's API, through the shell's client (same origin, the
 * session cookie, the CSRF token on every write). The shell's ApiError becomes BackendError,
 * keeping the server's own sentence for the console and a person's sentence for the page.
 */
export class ApiDesignerBackend implements DesignerBackend {
  constructor(
    private readonly api: ApiClient,
    private readonly who: SessionInfo,
  ) {}

  session(): Promise<DesignerSession> {
    const account = this.who.account;
    return Promise.resolve({ accountId: account.id, name: account.name || account.email, role: account.role });
  }

  catalogue(): Promise<Catalogue> {
    return this.call(() => this.api.request('designerCatalogue'));
  }

  // A definition comes back as it was saved (any JSON, valid or not): the designer opens it as its
  // document and its checks say what is wrong, so it is taken as a DefinitionDoc here.
  async loadDraft(): Promise<Draft> {
    const draft = await this.call(() => this.api.request('readDraft'));
    return {
      baseVersionId: draft.baseVersionId,
      definition: draft.definition as DefinitionDoc,
      revision: draft.revision,
      updatedAt: new Date(draft.updatedAt).toISOString(),
    };
  }

  async loadHead(): Promise<{ versionId: string | null; definition: DefinitionDoc }> {
    const list = await this.call(() => this.api.request('listVersions', { query: { limit: 1 } }));
    if (!list.headId) throw new BackendError(404, 'not_found', 'The bot has no version yet.');
    const version = await this.call(() => this.api.request('readVersion', { params: { id: list.headId! } }));
    return { versionId: list.headId, definition: version.definition as DefinitionDoc };
  }

  saveDraft(draft: {
    baseVersionId: string | null;
    revision: number;
    definition: DefinitionDoc;
  }): Promise<{ revision: number }> {
    return this.call(() =>
      this.api.request('autosaveDraft', {
        body: {
          baseVersionId: draft.baseVersionId,
          revision: draft.revision,
          definition: draft.definition,
        },
      }),
    );
  }

  async saveVersion(version: {
    baseVersionId: string | null;
    definition: DefinitionDoc;
    message: string;
  }): Promise<{ id: string }> {
    // A designer with no version to build on sends null, which the server refuses (400 invalid_body).
    const body = version as StudioBody<'saveVersion'>;
    const saved = await this.call(() => this.api.request('saveVersion', { body }));
    return { id: saved.version.id };
  }

  async check(definition: DefinitionDoc, signal?: AbortSignal): Promise<Problem[]> {
    const body = await this.call(() => this.api.request('checkDefinition', { body: { definition } }));
    // The client cannot cancel a request; an answer for an older definition is simply dropped.
    if (signal?.aborted) throw new DOMException('superseded', 'AbortError');
    return body.problems.map((p) => ({
      path: p.path,
      severity: p.severity === 'warning' ? 'warning' : 'error',
      message: p.message,
      ...(p.hint ? { hint: p.hint } : {}),
    }));
  }

  async secretNames(): Promise<string[]> {
    const rows = await this.call(() => this.api.request('listSecrets'));
    return rows.map((row) => row.name);
  }

  async loadVersion(id: string): Promise<DefinitionDoc> {
    const version = await this.call(() => this.api.request('readVersion', { params: { id } }));
    return version.definition as DefinitionDoc;
  }

  async presence(dialog: string | undefined): Promise<PresenceEntry[]> {
    const body = await this.call(() =>
      this.api.request('designerPresence', { body: dialog === undefined ? {} : { dialog } }),
    );
    return body.editors;
  }

  private async call<T>(request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (error) {
      if (error instanceof ApiError)
        throw new BackendError(error.status, error.code, error.message, normaliseDetails(error.code, error.details));
      throw error;
    }
  }
}

/** A version conflict's details as the merge view reads them: the author as a name. */
function normaliseDetails(code: string, details: Record<string, unknown>): unknown {
  if (code !== 'version_conflict') return details;
  const theirs = details.theirs as
    | (Omit<VersionConflictDetails['theirs'], 'author' | 'createdAt'> & {
        author?: { name?: string; email?: string } | string;
        createdAt?: number | string;
      })
    | null
    | undefined;
  if (!theirs) return details;
  const author = typeof theirs.author === 'string' ? theirs.author : (theirs.author?.name ?? theirs.author?.email);
  const createdAt = theirs.createdAt === undefined ? undefined : new Date(theirs.createdAt).toISOString();
  return {
    ...details,
    theirs: {
      ...theirs,
      ...(author === undefined ? {} : { author }),
      ...(createdAt === undefined ? {} : { createdAt }),
    },
  };
}
