import { html, nothing } from 'lit';
import type { StudioAnswer } from '../../shared/studio-api.ts';
import { ApiError } from '../api/client.ts';
import { shared } from '../app/styles.ts';
import { StudioScreen } from '../app/studio-screen.ts';
import { roleName, t } from '../i18n/strings.ts';
import { states } from '../app/reactive.ts';

type LinkInfo = StudioAnswer<'checkSetupLink'>;

/**
 * The page a one-time setup link opens (`/studio/setup#<token>`): the first owner's account, an
 * invitation, or a new password. The token stays after `#`, so no server log sees it, and is
 * dropped from the address once used.
 * @fires signed-in - with the session as detail
 */
export class StudioSetup extends StudioScreen {
  static override styles = [shared];
  static override properties = states('info');
  declare private info: LinkInfo | undefined;
  private token = '';

  override connectedCallback(): void {
    super.connectedCallback();
    this.token = location.hash.slice(1);
    if (!/^[A-Za-z0-9_-]{20,100}$/.test(this.token)) {
      this.error = t('setupLinkMissing');
      return;
    }
    void this.api
      .request('checkSetupLink', { query: { token: this.token } })
      .then((info) => (this.info = info))
      .catch((error: unknown) => (this.error = error instanceof ApiError ? error.message : t('errorGeneric')));
  }

  private async submit(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = new FormData(event.target as HTMLFormElement);
    await this.change(async () => {
      const email = form.get('email');
      const session = await this.api.request('completeSetup', {
        body: {
          token: this.token,
          name: String(form.get('name') ?? this.info?.email ?? ''),
          password: String(form.get('password') ?? ''),
          ...(email !== null ? { email: String(email) } : {}),
        },
      });
      this.dispatchEvent(new CustomEvent('signed-in', { detail: session, bubbles: true, composed: true }));
    });
  }

  override render() {
    const info = this.info;
    return html`
      <h1>${t('setupTitle')}</h1>
      <p class="error" role="alert">${this.error}</p>
      ${
        info
          ? html`
            <p>${info.existing ? t('setupResetIntro', { email: info.email ?? '' }) : t('setupIntro', { role: roleName(info.role) })}</p>
            <form @submit=${this.submit} novalidate>
              ${info.email ? html`<p>${t('email')}: <strong>${info.email}</strong></p>` : html`<label>${t('email')} <input name="email" type="email" autocomplete="username" required /></label>`}
              ${info.existing ? nothing : html`<label>${t('name')} <input name="name" autocomplete="name" required maxlength="100" /></label>`}
              <label
                >${info.existing ? t('newPassword') : t('password')}
                <input name="password" type="password" autocomplete="new-password" required minlength="12" aria-describedby="password-hint" />
              </label>
              <p class="hint" id="password-hint">${t('passwordHint')}</p>
              <button type="submit" ?disabled=${this.busy}>${info.existing ? t('setPassword') : t('createAccount')}</button>
            </form>
          `
          : nothing
      }
    `;
  }
}
customElements.define('studio-setup', StudioSetup);
