import type { StudioAnswer } from '../../../shared/studio-api.ts';
import { html, nothing } from 'lit';
import { t } from '../../i18n/strings.ts';
import { SettingsPanel, when } from './panel.ts';

type TokenRow = StudioAnswer<'listTokens'>[number];

/** The person's own API tokens: made (shown once), listed, revoked. */
export class StudioTokensPanel extends SettingsPanel {
  static override properties = { ...SettingsPanel.properties, tokens: { state: true }, fresh: { state: true } };
  declare private tokens: TokenRow[];
  declare private fresh: string | undefined;

  constructor() {
    super();
    this.tokens = [];
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  private async load(): Promise<void> {
    this.tokens = (await this.attempt(() => this.api.request('listTokens'))) ?? this.tokens;
  }

  private async create(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    // Read before any await: once the event is dispatched, its target (in a shadow root) is cleared.
    const formElement = event.target as HTMLFormElement;
    const form = new FormData(formElement);
    const days = String(form.get('days') ?? '').trim();
    const made = await this.attempt(() =>
      this.api.request('createToken', {
        body: { name: String(form.get('name')), ...(days ? { expiresInDays: Number(days) } : {}) },
      }),
    );
    if (made) {
      this.fresh = made.token;
      formElement.reset();
      await this.load();
    }
  }

  private async revoke(token: TokenRow): Promise<void> {
    await this.attempt(() => this.api.request('revokeToken', { params: { id: token.id } }), t('saved'));
    await this.load();
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
        this.tokens.length === 0
          ? html`<p>${t('noTokens')}</p>`
          : html`<table>
            <thead>
              <tr><th scope="col">${t('colName')}</th><th scope="col">${t('colCreated')}</th><th scope="col">${t('colExpires')}</th><th scope="col">${t('colLastUsed')}</th><th scope="col">${t('colActions')}</th></tr>
            </thead>
            <tbody>
              ${this.tokens.map(
                (token) => html`<tr>
                  <td>${token.name}</td>
                  <td>${when(token.createdAt)}</td>
                  <td>${when(token.expiresAt)}</td>
                  <td>${when(token.lastUsedAt)}</td>
                  <td><button type="button" class="danger" @click=${() => this.revoke(token)}>${t('revokeToken', { name: token.name })}</button></td>
                </tr>`,
              )}
            </tbody>
          </table>`
      }
    `;
  }
}
customElements.define('studio-tokens-panel', StudioTokensPanel);
