import { LitElement } from 'lit';
import { ApiError, type ApiClient, type SessionInfo } from '../../api/client.ts';
import { shared } from '../../app/styles.ts';
import { language, t } from '../../i18n/strings.ts';

/** What every settings panel shares: the API, the session, a status line and an error line. */
export class SettingsPanel extends LitElement {
  static override styles = [shared];
  static override properties = {
    api: { attribute: false },
    session: { attribute: false },
    status: { state: true },
    error: { state: true },
  };
  declare api: ApiClient;
  declare session: SessionInfo;
  declare protected status: string;
  declare protected error: string;

  constructor() {
    super();
    this.status = '';
    this.error = '';
  }

  /** Runs an API call, showing its refusal in the person's words (the server's sentence goes to the console). */
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
}

/** A time in the studio's language, or "never". */
export const when = (iso: string | null): string => (iso ? new Date(iso).toLocaleString(language()) : t('never'));
