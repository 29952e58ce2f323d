import { html, nothing } from 'lit';
import { t } from '../../i18n/strings.ts';
import { auditSentence, actorWords, type AuditEntry as Entry, type PeopleById } from './audit-words.ts';
import { dataTable } from '../../app/data-table.ts';
import { RecordsPanel, when } from './panel.ts';
import { states } from '../../app/reactive.ts';

/**
 * Owners: the audit trail, newest pages on demand, each entry as a sentence with people's names;
 * "Show as JSON" shows the entries as stored, for programmers.
 */
export class StudioAuditPanel extends RecordsPanel {
  static override properties = {
    ...RecordsPanel.properties,
    ...states('entries', 'next', 'people', 'asJson'),
  };
  declare private entries: Entry[];
  declare private next: string | null;
  declare private people: PeopleById;
  declare private asJson: boolean;

  constructor() {
    super();
    this.entries = [];
    this.next = null;
    this.people = new Map();
    this.asJson = false;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.loadPeople();
  }

  /** The accounts' names, so the trail says who rather than an id (an account deleted since keeps its email). */
  private async loadPeople(): Promise<void> {
    const list = await this.api.request('listAccounts').catch(() => undefined);
    if (list)
      this.people = new Map(list.accounts.map((account) => [account.id, { name: account.name, email: account.email }]));
  }

  protected async load(cursor?: string): Promise<void> {
    const page = await this.attempt(() => this.api.request('readAudit', { query: { limit: 100, cursor } }));
    if (page) {
      this.entries = cursor ? [...this.entries, ...page.entries] : page.entries;
      this.next = page.nextCursor;
    }
  }

  override render() {
    return html`
      <h2>${t('auditTitle')}</h2>
      <p class="error" role="alert">${this.error}</p>
      <p><label class="check"><input type="checkbox" .checked=${this.asJson} @change=${(e: Event) => (this.asJson = (e.target as HTMLInputElement).checked)} /> ${t('auditShowJson')}</label></p>
      ${
        this.entries.length === 0
          ? html`<p>${t('noEntries')}</p>`
          : this.asJson
            ? html`<p class="hint">${t('auditJsonHint')}</p>
              <pre tabindex="0" aria-label=${t('auditTitle')}>${this.entries.map((entry) => JSON.stringify(entry)).join('\n')}</pre>`
            : dataTable(
                { columns: [t('colTime'), t('colWho'), t('colAction'), t('colIp')] },
                this.entries.map(
                  (entry) => html`<tr>
                    <td>${when(entry.timestamp)}</td>
                    <td>${actorWords(entry.actor, this.people)}</td>
                    <td>${auditSentence(entry, this.people)}</td>
                    <td>${entry.ip ?? ''}</td>
                  </tr>`,
                ),
              )
      }
      ${this.next ? html`<button type="button" class="secondary" @click=${() => this.load(this.next!)}>${t('loadMore')}</button>` : nothing}
    `;
  }
}
customElements.define('studio-audit-panel', StudioAuditPanel);
