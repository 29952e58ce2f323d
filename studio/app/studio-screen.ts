import { html, LitElement, type PropertyDeclarations, type TemplateResult } from 'lit';
import { ApiError, type ApiClient, type SessionInfo } from '../api/client.ts';
import { t } from '../i18n/strings.ts';
import { bound, states } from './reactive.ts';

/**
 * What every studio screen that talks to the server shares: the API, the session, a status line,
 * an error line and a busy flag, and one way to run a call that shows its refusal in the person's
 * words (the server's own sentence goes to the console).
 */
export class StudioScreen extends LitElement {
  static override properties: PropertyDeclarations = {
    ...bound('api', 'session'),
    ...states('status', 'error', 'busy'),
  };
  declare api: ApiClient;
  declare session: SessionInfo;
  declare protected status: string;
  declare protected error: string;
  /** A change is under way: its buttons wait. */
  declare protected busy: boolean;

  constructor() {
    super();
    this.status = '';
    this.error = '';
    this.busy = false;
  }

  /** Runs an API call; `done` is the status line once it succeeded. Its failure is the error line, and the answer undefined. */
  protected async attempt<T>(work: () => Promise<T>, done?: string): Promise<T | undefined> {
    this.error = '';
    // A plain read (no `done` sentence) leaves the last change's confirmation in place.
    if (done !== undefined) this.status = '';
    try {
      const result = await work();
      if (done) this.status = done;
      return result;
    } catch (error) {
      this.error = error instanceof ApiError ? error.message : t('errorGeneric');
      return undefined;
    }
  }

  /** `attempt` for a change: busy until it ends, so that it is not sent twice. */
  protected async change<T>(work: () => Promise<T>, done?: string): Promise<T | undefined> {
    this.busy = true;
    try {
      return await this.attempt(work, done);
    } finally {
      this.busy = false;
    }
  }

  /** The status line and the error line, each announced when it changes. */
  protected statusLines(): TemplateResult {
    return html`<p role="status">${this.status}</p>
      <p class="error" role="alert">${this.error}</p>`;
  }
}
