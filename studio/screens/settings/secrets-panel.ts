import type { StudioAnswer } from '../../../shared/studio-api.ts';
import { html, nothing } from 'lit';
import { t } from '../../i18n/strings.ts';
import { SettingsPanel, when } from './panel.ts';

type SecretRow = StudioAnswer<'listSecrets'>[number];

/** Secrets by name: their status for owners and editors; owners set and delete (a value goes in, never out). */
export class StudioSecretsPanel extends SettingsPanel {
  static override properties = { ...SettingsPanel.properties, secrets: { state: true } };
  declare private secrets: SecretRow[];

  constructor() {
    super();
    this.secrets = [];
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  private get owner(): boolean {
    return this.session.account.role === 'owner';
  }

  private async load(): Promise<void> {
    this.secrets = (await this.attempt(() => this.api.request('listSecrets'))) ?? this.secrets;
  }

  private async save(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const formElement = event.target as HTMLFormElement;
    const form = new FormData(formElement);
    const name = String(form.get('name')).trim();
    // The value leaves the page once: the field is emptied whatever the answer.
    const value = String(form.get('value'));
    formElement.reset();
    await this.attempt(
      () => this.api.request('setSecret', { params: { name }, body: { value } }),
      t('secretSaved', { name }),
    );
    await this.load();
  }

  private async deleteRow(row: SecretRow): Promise<void> {
    await this.attempt(() => this.api.request('deleteSecret', { params: { name: row.name } }), t('saved'));
    await this.load();
  }

  private statusOf(row: SecretRow): string {
    return row.fromEnvironment ? t('statusEnv') : row.set ? t('statusSet') : t('statusUnset');
  }

  override render() {
    return html`
      <h2>${t('secretsTitle')}</h2>
      <p>${t('secretsIntro')}</p>
      ${this.statusLines()}
      ${
        this.secrets.length === 0
          ? html`<p>${t('noSecrets')}</p>`
          : html`<table>
            <thead>
              <tr>
                <th scope="col">${t('colSecret')}</th><th scope="col">${t('colStatus')}</th><th scope="col">${t('colUsedBy')}</th>
                ${this.owner ? html`<th scope="col">${t('colUpdated')}</th><th scope="col">${t('colActions')}</th>` : nothing}
              </tr>
            </thead>
            <tbody>
              ${this.secrets.map(
                (row) => html`<tr>
                  <td><code>${row.name}</code></td>
                  <td>${this.statusOf(row)}</td>
                  <td>${row.usedBy.map((path) => html`<code>${path}</code> `)}</td>
                  ${
                    this.owner
                      ? html`<td>${row.updatedAt ? `${when(row.updatedAt)} (${row.updatedBy})` : '—'}</td>
                        <td>${row.set ? html`<button type="button" class="danger" @click=${() => this.deleteRow(row)}>${t('deleteSecret', { name: row.name })}</button>` : nothing}</td>`
                      : nothing
                  }
                </tr>`,
              )}
            </tbody>
          </table>`
      }
      ${
        this.owner
          ? html`<h2>${t('setSecretTitle')}</h2>
            <form @submit=${this.save}>
              <label
                >${t('secretName')}
                <input name="name" required pattern="[A-Z_][A-Z0-9_]*" list="secret-names" autocomplete="off" spellcheck="false" />
              </label>
              <datalist id="secret-names">${this.secrets.map((row) => html`<option value=${row.name}></option>`)}</datalist>
              <label>${t('secretValue')} <input name="value" type="password" required autocomplete="off" spellcheck="false" /></label>
              <button type="submit">${t('setSecret')}</button>
            </form>`
          : nothing
      }
    `;
  }
}
customElements.define('studio-secrets-panel', StudioSecretsPanel);
