import type { Problem } from '../model/problems.ts';
import type { DefinitionDoc } from '../model/types.ts';
import { BackendError, type Catalogue, type DesignerBackend, type DesignerSession, type Draft, type PresenceEntry } from './backend.ts';

/**
 * The designer's backend over the studio's HTTP API (same origin, session cookie, the CSRF
 * token from /studio/api/session on every write). Catalogue errors become BackendError.
 */
export class HttpDesignerBackend implements DesignerBackend {
  private csrfToken: string | undefined;

  constructor(private readonly base = '/studio/api') {}

  async session(): Promise<DesignerSession> {
    const body = (await this.request('GET', '/session')) as { account: { id: string; name?: string; email?: string; role: DesignerSession['role'] }; csrfToken?: string };
    this.csrfToken = body.csrfToken;
    return { accountId: body.account.id, name: body.account.name ?? body.account.email ?? body.account.id, role: body.account.role };
  }

  catalogue(): Promise<Catalogue> {
    return this.request('GET', '/designer/catalogue') as Promise<Catalogue>;
  }

  loadDraft(): Promise<Draft> {
    return this.request('GET', '/draft') as Promise<Draft>;
  }

  async loadHead(): Promise<{ versionId: string | null; definition: DefinitionDoc }> {
    const list = (await this.request('GET', '/versions')) as { headId?: string | null };
    if (!list.headId) throw new BackendError(404, 'not_found', 'The bot has no version yet.');
    const version = (await this.request('GET', `/versions/${encodeURIComponent(list.headId)}`)) as { definition: DefinitionDoc };
    return { versionId: list.headId, definition: version.definition };
  }

  async saveDraft(draft: { baseVersionId: string | null; revision: number; definition: DefinitionDoc }): Promise<{ revision: number }> {
    return (await this.request('PUT', '/draft', draft)) as { revision: number };
  }

  async saveVersion(version: { baseVersionId: string | null; definition: DefinitionDoc; message: string }): Promise<{ id: string }> {
    return (await this.request('POST', '/versions', version)) as { id: string };
  }

  async check(definition: DefinitionDoc, signal?: AbortSignal): Promise<Problem[]> {
    const body = (await this.request('POST', '/check', { definition }, signal)) as { problems: { path: string; severity?: string; message: string; hint?: string }[] };
    return body.problems.map((p) => ({ path: p.path, severity: p.severity === 'warning' ? 'warning' : 'error', message: p.message, ...(p.hint ? { hint: p.hint } : {}) }));
  }

  async presence(dialog: string | undefined): Promise<PresenceEntry[]> {
    const body = (await this.request('POST', '/designer/presence', dialog === undefined ? {} : { dialog })) as { editors: PresenceEntry[] };
    return body.editors;
  }

  private async request(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<unknown> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (method !== 'GET' && this.csrfToken) headers['x-csrf-token'] = this.csrfToken;
    let response: Response;
    try {
      response = await fetch(`${this.base}${path}`, { method, headers, credentials: 'same-origin', ...(body === undefined ? {} : { body: JSON.stringify(body) }), ...(signal ? { signal } : {}) });
    } catch (error) {
      if ((error as Error).name === 'AbortError') throw error;
      throw new BackendError(0, 'offline', 'The server cannot be reached.');
    }
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (!response.ok) {
      const error = (parsed as { error?: { code?: string; message?: string; details?: unknown } } | undefined)?.error;
      throw new BackendError(response.status, error?.code ?? 'http_error', error?.message ?? `The server answered ${response.status}.`, error?.details);
    }
    return parsed;
  }
}
