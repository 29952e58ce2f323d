import type { StudioAnswer } from '../../../shared/studio-api.ts';
import { html, nothing } from 'lit';
import { t } from '../../i18n/strings.ts';
import { SettingsPanel, when } from './panel.ts';

type SessionRow = StudioAnswer<'listSessions'>[number];

/** The person's own sessions (each can be ended, or all at once) and their password. */
export class StudioSessionsPanel extends SettingsPanel {
  static override properties = { ...SettingsPanel.properties, sessions: { state: true } };
  declare private sessions: SessionRow[];

  constructor() {
    super();
    this.sessions = [];
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  private async load(): Promise<void> {
    this.sessions = (await this.attempt(() => this.api.request('listSessions'))) ?? this.sessions;
  }

  private async end(row: SessionRow): Promise<void> {
    await this.attempt(() => this.api.request('endSession', { params: { id: row.id } }), t('saved'));
    await this.load();
  }

  private async everywhere(): Promise<void> {
    // This session ends too: the shell shows the sign-in page on the next answer.
    const apiTokens = this.renderRoot.querySelector<HTMLInputElement>('#end-tokens')?.checked ?? false;
    await this.attempt(() => this.api.request('logoutEverywhere', { body: { apiTokens } }));
    await this.api.request('session').catch(() => undefined);
  }

  private async changePassword(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const formElement = event.target as HTMLFormElement;
    const form = new FormData(formElement);
    const done = await this.attempt(
      () =>
        this.api.request('changePassword', {
          body: { currentPassword: String(form.get('current')), newPassword: String(form.get('new')) },
        }),
      t('passwordChanged'),
    );
    formElement.reset();
    if (done !== undefined || !this.error) await this.load();
  }

  override render() {
    return html`
      <h2>${t('sessionsTitle')}</h2>
      ${this.statusLines()}
      <table>
        <thead>
          <tr><th scope="col">${t('colBrowser')}</th><th scope="col">${t('colIp')}</th><th scope="col">${t('colLastSeen')}</th><th scope="col">${t('colActions')}</th></tr>
        </thead>
        <tbody>
          ${this.sessions.map(
            (row) => html`<tr>
              <td>${row.userAgent}</td>
              <td>${row.ip}</td>
              <td>${when(row.lastSeenAt)}</td>
              <td>${row.current ? t('thisSession') : html`<button type="button" class="secondary" @click=${() => this.end(row)}>${t('endSession', { ip: row.ip })}</button>`}</td>
            </tr>`,
          )}
        </tbody>
      </table>
      <p><label class="check"><input id="end-tokens" type="checkbox" /> ${t('alsoEndTokens')}</label></p>
      <p><button type="button" class="danger" @click=${this.everywhere}>${t('logoutEverywhere')}</button></p>
      ${this.session.account && this.passwordForm()}
    `;
  }

  private passwordForm() {
    return html`<h2>${t('passwordTitle')}</h2>
      <form @submit=${this.changePassword}>
        <label>${t('currentPassword')} <input name="current" type="password" required autocomplete="current-password" /></label>
        <label>${t('newPassword')} <input name="new" type="password" required minlength="12" autocomplete="new-password" aria-describedby="new-hint" /></label>
        <p class="hint" id="new-hint">${t('passwordHint')}</p>
        <button type="submit">${t('changePassword')}</button>
      </form>
      ${nothing}`;
  }
}
customElements.define('studio-sessions-panel', StudioSessionsPanel);
