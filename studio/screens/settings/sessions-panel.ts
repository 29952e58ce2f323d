import type { StudioAnswer } from '../../../shared/studio-api.ts';
import { html, nothing } from 'lit';
import { t } from '../../i18n/strings.ts';
import { dataTable } from '../../app/data-table.ts';
import { submittedForm } from '../../app/submitted-form.ts';
import { ListPanel, when } from './panel.ts';

type SessionRow = StudioAnswer<'listSessions'>[number];

/** The person's own sessions (each can be ended, or all at once) and their password. */
export class StudioSessionsPanel extends ListPanel<SessionRow> {
  protected read(): Promise<SessionRow[]> {
    return this.api.request('listSessions');
  }

  private async end(row: SessionRow): Promise<void> {
    await this.changeRecords(() => this.api.request('endSession', { params: { id: row.id } }), t('saved'));
  }

  private async everywhere(): Promise<void> {
    // This session ends too: the shell shows the sign-in page on the next answer.
    const apiTokens = this.renderRoot.querySelector<HTMLInputElement>('#end-tokens')?.checked ?? false;
    await this.attempt(() => this.api.request('logoutEverywhere', { body: { apiTokens } }));
    await this.api.request('session').catch(() => undefined);
  }

  private async changePassword(event: SubmitEvent): Promise<void> {
    const { form, fields } = submittedForm(event);
    const done = await this.attempt(
      () =>
        this.api.request('changePassword', {
          body: { currentPassword: String(fields.get('current')), newPassword: String(fields.get('new')) },
        }),
      t('passwordChanged'),
    );
    form.reset();
    if (done !== undefined || !this.error) await this.load();
  }

  override render() {
    return html`
      <h2>${t('sessionsTitle')}</h2>
      ${this.statusLines()}
      ${dataTable(
        { columns: [t('colBrowser'), t('colIp'), t('colLastSeen'), t('colActions')] },
        this.records.map(
          (row) => html`<tr>
            <td>${row.userAgent}</td>
            <td>${row.ip}</td>
            <td>${when(row.lastSeenAt)}</td>
            <td>${row.current ? t('thisSession') : html`<button type="button" class="secondary" @click=${() => this.end(row)}>${t('endSession', { ip: row.ip })}</button>`}</td>
          </tr>`,
        ),
      )}
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
