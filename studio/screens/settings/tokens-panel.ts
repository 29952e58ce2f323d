import type { StudioAnswer } from '../../../shared/studio-api.ts';
import { html, nothing } from 'lit';
import { t } from '../../i18n/strings.ts';
import { dataTable } from '../../app/data-table.ts';
import { submittedForm } from '../../app/submitted-form.ts';
import { ListPanel, when } from './panel.ts';
import { states } from '../../app/reactive.ts';

type TokenRow = StudioAnswer<'listTokens'>[number];

/** The person's own API tokens: made (shown once), listed, revoked. */
export class StudioTokensPanel extends ListPanel<TokenRow> {
  static override properties = { ...ListPanel.properties, ...states('fresh') };
  declare private fresh: string | undefined;

  protected read(): Promise<TokenRow[]> {
    return this.api.request('listTokens');
  }

  private async create(event: SubmitEvent): Promise<void> {
    const { form, fields } = submittedForm(event);
    const days = String(fields.get('days') ?? '').trim();
    const made = await this.attempt(() =>
      this.api.request('createToken', {
        body: { name: String(fields.get('name')), ...(days ? { expiresInDays: Number(days) } : {}) },
      }),
    );
    if (made) {
      this.fresh = made.token;
      form.reset();
      await this.load();
    }
  }

  private async revoke(token: TokenRow): Promise<void> {
    await this.changeRecords(() => this.api.request('revokeToken', { params: { id: token.id } }), t('saved'));
  }

  override render() {
    return html`
      <h2>${t('tokensTitle')}</h2>
      <p>${t('tokensIntro')}</p>
      ${this.statusLines()}
      <form @submit=${this.create}>
        <label>${t('tokenName')} <input name="name" required maxlength="100" autocomplete="off" /></label>
        <label>${t('tokenDays')} <input name="days" type="number" min="1" max="3650" inputmode="numeric" /></label>
        <button type="submit">${t('createToken')}</button>
      </form>
      ${
        this.fresh
          ? html`<p class="notice">${t('tokenCreated')}</p>
            <label>${t('newToken')} <input readonly .value=${this.fresh} class="secret-once" @focus=${(event: FocusEvent) => (event.target as HTMLInputElement).select()} /></label>`
          : nothing
      }
      ${
        this.records.length === 0
          ? html`<p>${t('noTokens')}</p>`
          : dataTable(
              { columns: [t('colName'), t('colCreated'), t('colExpires'), t('colLastUsed'), t('colActions')] },
              this.records.map(
                (token) => html`<tr>
                  <td>${token.name}</td>
                  <td>${when(token.createdAt)}</td>
                  <td>${when(token.expiresAt)}</td>
                  <td>${when(token.lastUsedAt)}</td>
                  <td><button type="button" class="danger" @click=${() => this.revoke(token)}>${t('revokeToken', { name: token.name })}</button></td>
                </tr>`,
              ),
            )
      }
    `;
  }
}
customElements.define('studio-tokens-panel', StudioTokensPanel);
