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
    return this.call(() => this.api.get<Catalogue>('/designer/catalogue'));
  }

  async loadDraft(): Promise<Draft> {
    const draft = await this.call(() =>
      this.api.get<{ baseVersionId: string | null; definition: DefinitionDoc; revision: number; updatedAt: number }>(
        '/draft',
      ),
    );
    return {
      baseVersionId: draft.baseVersionId,
      definition: draft.definition,
      revision: draft.revision,
      updatedAt: new Date(draft.updatedAt).toISOString(),
    };
  }

  async loadHead(): Promise<{ versionId: string | null; definition: DefinitionDoc }> {
    const list = await this.call(() => this.api.get<{ headId: string | null }>('/versions?limit=1'));
    if (!list.headId) throw new BackendError(404, 'not_found', 'The bot has no version yet.');
    const version = await this.call(() =>
      this.api.get<{ definition: DefinitionDoc }>(`/versions/${encodeURIComponent(list.headId!)}`),
    );
    return { versionId: list.headId, definition: version.definition };
  }

  saveDraft(draft: {
    baseVersionId: string | null;
    revision: number;
    definition: DefinitionDoc;
  }): Promise<{ revision: number }> {
    return this.call(() =>
      this.api.put<{ revision: number }>('/draft', {
        baseVersionId: draft.baseVersionId,
        revision: draft.revision,
        definition: draft.definition,
      }),
    );
  }

  async saveVersion(version: {
    baseVersionId: string | null;
    definition: DefinitionDoc;
    message: string;
  }): Promise<{ id: string }> {
    const saved = await this.call(() => this.api.post<{ version: { id: string } }>('/versions', version));
    return { id: saved.version.id };
  }

  async check(definition: DefinitionDoc, signal?: AbortSignal): Promise<Problem[]> {
    const body = await this.call(() =>
      this.api.post<{ problems: { path: string; severity?: string; message: string; hint?: string }[] }>('/check', {
        definition,
      }),
    );
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
    const rows = await this.call(() => this.api.get<{ name: string }[]>('/secrets'));
    return rows.map((row) => row.name);
  }

  async loadVersion(id: string): Promise<DefinitionDoc> {
    const version = await this.call(() =>
      this.api.get<{ definition: DefinitionDoc }>(`/versions/${encodeURIComponent(id)}`),
    );
    return version.definition;
  }

  async presence(dialog: string | undefined): Promise<PresenceEntry[]> {
    const body = await this.call(() =>
      this.api.post<{ editors: PresenceEntry[] }>('/designer/presence', dialog === undefined ? {} : { dialog }),
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
