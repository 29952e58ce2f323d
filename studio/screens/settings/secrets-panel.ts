import type { StudioAnswer } from '../../../shared/studio-api.ts';
import { html, nothing } from 'lit';
import { t } from '../../i18n/strings.ts';
import { dataTable } from '../../app/data-table.ts';
import { submittedForm } from '../../app/submitted-form.ts';
import { ListPanel, when } from './panel.ts';

type SecretRow = StudioAnswer<'listSecrets'>[number];

/** Secrets by name: their status for owners and editors; owners set and delete (a value goes in, never out). */
export class StudioSecretsPanel extends ListPanel<SecretRow> {
  private get owner(): boolean {
    return this.session.account.role === 'owner';
  }

  protected read(): Promise<SecretRow[]> {
    return this.api.request('listSecrets');
  }

  private async save(event: SubmitEvent): Promise<void> {
    const { form, fields } = submittedForm(event);
    const name = String(fields.get('name')).trim();
    // The value leaves the page once: the field is emptied whatever the answer.
    const value = String(fields.get('value'));
    form.reset();
    await this.changeRecords(
      () => this.api.request('setSecret', { params: { name }, body: { value } }),
      t('secretSaved', { name }),
    );
  }

  private async deleteRow(row: SecretRow): Promise<void> {
    await this.changeRecords(() => this.api.request('deleteSecret', { params: { name: row.name } }), t('saved'));
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
        this.records.length === 0
          ? html`<p>${t('noSecrets')}</p>`
          : dataTable(
              {
                columns: [
                  t('colSecret'),
                  t('colStatus'),
                  t('colUsedBy'),
                  ...(this.owner ? [t('colUpdated'), t('colActions')] : []),
                ],
              },
              this.records.map(
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
              ),
            )
      }
      ${
        this.owner
          ? html`<h2>${t('setSecretTitle')}</h2>
            <form @submit=${this.save}>
              <label
                >${t('secretName')}
                <input name="name" required pattern="[A-Z_][A-Z0-9_]*" list="secret-names" autocomplete="off" spellcheck="false" />
              </label>
              <datalist id="secret-names">${this.records.map((row) => html`<option value=${row.name}></option>`)}</datalist>
              <label>${t('secretValue')} <input name="value" type="password" required autocomplete="off" spellcheck="false" /></label>
              <button type="submit">${t('setSecret')}</button>
            </form>`
          : nothing
      }
    `;
  }
}
customElements.define('studio-secrets-panel', StudioSecretsPanel);
