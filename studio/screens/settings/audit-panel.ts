import { html, nothing } from 'lit';
import { t } from '../../i18n/strings.ts';
import { SettingsPanel, when } from './panel.ts';

interface Entry {
  readonly id: string;
  readonly timestamp: string;
  readonly actor: { readonly kind: string; readonly email?: string };
  readonly ip?: string;
  readonly action: string;
  readonly target?: string;
  readonly details?: Record<string, unknown>;
}

/** Owners: the audit trail, newest pages on demand. */
export class StudioAuditPanel extends SettingsPanel {
  static override properties = { ...SettingsPanel.properties, entries: { state: true }, next: { state: true } };
  private declare entries: Entry[];
  private declare next: string | null;

  constructor() {
    super();
    this.entries = [];
    this.next = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  private async load(cursor?: string): Promise<void> {
    const page = await this.attempt(() => this.api.get<{ entries: Entry[]; nextCursor: string | null }>(`/audit?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`));
    if (page) {
      this.entries = cursor ? [...this.entries, ...page.entries] : page.entries;
      this.next = page.nextCursor;
    }
  }

  override render() {
    return html`
      <h2>${t('auditTitle')}</h2>
      <p class="error" role="alert">${this.error}</p>
      ${this.entries.length === 0
        ? html`<p>${t('noEntries')}</p>`
        : html`<table>
            <thead>
              <tr><th scope="col">${t('colTime')}</th><th scope="col">${t('colWho')}</th><th scope="col">${t('colAction')}</th><th scope="col">${t('colTarget')}</th><th scope="col">${t('colIp')}</th></tr>
            </thead>
            <tbody>
              ${this.entries.map(
                (entry) => html`<tr>
                  <td>${when(entry.timestamp)}</td>
                  <td>${entry.actor.email ?? entry.actor.kind}</td>
                  <td><code>${entry.action}</code>${entry.details ? html` <span class="hint">${JSON.stringify(entry.details)}</span>` : nothing}</td>
                  <td>${entry.target ?? ''}</td>
                  <td>${entry.ip ?? ''}</td>
                </tr>`,
              )}
            </tbody>
          </table>`}
      ${this.next ? html`<button type="button" class="secondary" @click=${() => this.load(this.next!)}>${t('loadMore')}</button>` : nothing}
    `;
  }
}
customElements.define('studio-audit-panel', StudioAuditPanel);
