import type { StudioAnswer, StudioBody } from '../../../shared/studio-api.ts';
import { html, nothing } from 'lit';
import { roleName, t } from '../../i18n/strings.ts';
import { dataTable } from '../../app/data-table.ts';
import { submittedForm } from '../../app/submitted-form.ts';
import { RecordsPanel, when } from './panel.ts';
import { states } from '../../app/reactive.ts';

type AccountRow = StudioAnswer<'listAccounts'>['accounts'][number];
type Invitation = StudioAnswer<'listAccounts'>['invitations'][number];
type Role = StudioBody<'inviteAccount'>['role'];
const ROLES = ['owner', 'editor', 'analyst', 'viewer'];

/** Owners: every account with its role, invitations by one-time link. */
export class StudioAccountsPanel extends RecordsPanel {
  static override properties = {
    ...RecordsPanel.properties,
    ...states('accounts', 'invitations', 'link'),
  };
  declare private accounts: AccountRow[];
  declare private invitations: Invitation[];
  declare private link: { email: string; url: string } | undefined;

  constructor() {
    super();
    this.accounts = [];
    this.invitations = [];
  }

  protected async load(): Promise<void> {
    const answer = await this.attempt(() => this.api.request('listAccounts'));
    if (answer) {
      this.accounts = answer.accounts;
      this.invitations = answer.invitations;
    }
  }

  private async changeRole(account: AccountRow, event: Event): Promise<void> {
    const role = (event.target as HTMLSelectElement).value;
    await this.changeRecords(
      () => this.api.request('updateAccount', { params: { id: account.id }, body: { role: role as Role } }),
      t('saved'),
    );
  }

  private async deleteRow(account: AccountRow): Promise<void> {
    if (!confirm(t('confirmDelete', { email: account.email }))) return;
    await this.changeRecords(() => this.api.request('deleteAccount', { params: { id: account.id } }), t('saved'));
  }

  private async invite(event: SubmitEvent): Promise<void> {
    const { form, fields } = submittedForm(event);
    const made = await this.attempt(() =>
      this.api.request('inviteAccount', {
        body: { email: String(fields.get('email')), role: String(fields.get('role')) as Role },
      }),
    );
    if (made) {
      // An invitation made here always names its email (the map allows none for links made otherwise).
      this.link = { email: made.email ?? '', url: made.link };
      form.reset();
      await this.load();
    }
  }

  private async cancel(invitation: Invitation): Promise<void> {
    await this.changeRecords(() => this.api.request('cancelInvitation', { params: { id: invitation.id } }), t('saved'));
  }

  override render() {
    const me = this.session.account.id;
    return html`
      <h2>${t('accountsTitle')}</h2>
      ${this.statusLines()}
      ${dataTable(
        { columns: [t('colName'), t('colEmail'), t('colRole'), t('colSignIn'), t('colActions')] },
        this.accounts.map(
          (account) => html`<tr>
            <td>${account.name}</td>
            <td>${account.email}</td>
            <td>
              <select aria-label=${t('roleOf', { name: account.name })} @change=${(event: Event) => this.changeRole(account, event)}>
                ${ROLES.map((role) => html`<option value=${role} ?selected=${role === account.role}>${roleName(role)}</option>`)}
              </select>
            </td>
            <td>${[account.password ? t('signInPassword') : '', account.singleSignOn ? t('signInSso') : ''].filter(Boolean).join(', ')}</td>
            <td>${account.id === me ? nothing : html`<button type="button" class="danger" @click=${() => this.deleteRow(account)}>${t('deleteAccount', { email: account.email })}</button>`}</td>
          </tr>`,
        ),
      )}
      <h2>${t('inviteTitle')}</h2>
      <form @submit=${this.invite}>
        <label>${t('email')} <input name="email" type="email" required autocomplete="off" /></label>
        <label for="invite-role">${t('colRole')}</label>
        <select id="invite-role" name="role">
          ${ROLES.map((role) => html`<option value=${role} ?selected=${role === 'viewer'}>${roleName(role)}</option>`)}
        </select>
        <button type="submit">${t('invite')}</button>
      </form>
      ${
        this.link
          ? html`<p class="notice">${t('invitationCreated', { email: this.link.email })}</p>
            <label>${t('invitationLink')} <input readonly .value=${this.link.url} class="secret-once" @focus=${(event: FocusEvent) => (event.target as HTMLInputElement).select()} /></label>`
          : nothing
      }
      ${
        this.invitations.length > 0
          ? html`<h2>${t('pendingInvitations')}</h2>
            <ul>
              ${this.invitations.map(
                (invitation) => html`<li>
                  ${invitation.email ?? '—'} (${roleName(invitation.role)}, ${t('expires', { time: when(new Date(invitation.expiresAt).toISOString()) })})
                  <button type="button" class="secondary" @click=${() => this.cancel(invitation)}>${t('cancelInvitation', { email: invitation.email ?? '—' })}</button>
                </li>`,
              )}
            </ul>`
          : nothing
      }
    `;
  }
}
customElements.define('studio-accounts-panel', StudioAccountsPanel);
