import { html, nothing } from 'lit';
import type { StudioAnswer } from '../../shared/studio-api.ts';
import { shared } from '../app/styles.ts';
import { StudioScreen } from '../app/studio-screen.ts';
import { t } from '../i18n/strings.ts';
import { states } from '../app/reactive.ts';

type SignInOptions = Omit<StudioAnswer<'signInOptions'>, 'signedIn'>;

/**
 * The sign-in page: email and password, and the company's single sign-on when configured.
 * @fires signed-in - with the session as detail
 */
export class StudioSignIn extends StudioScreen {
  static override styles = [shared];
  static override properties = {
    notice: {},
    ...states('options'),
  };
  declare notice: string | undefined;
  declare private options: SignInOptions;

  constructor() {
    super();
    this.options = { password: true, singleSignOn: null };
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.api
      .request('signInOptions')
      .then((options) => (this.options = options))
      .catch(() => undefined);
    const failed = new URLSearchParams(location.search).get('sso_error');
    if (failed) this.error = failed === 'forbidden' ? t('errorForbidden') : t('errorInvalidCredentials');
  }

  private async submit(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = new FormData(event.target as HTMLFormElement);
    const signedIn = await this.change(async () => {
      const session = await this.api.request('login', {
        body: { email: String(form.get('email') ?? ''), password: String(form.get('password') ?? '') },
      });
      this.dispatchEvent(new CustomEvent('signed-in', { detail: session, bubbles: true, composed: true }));
      return true;
    });
    if (!signedIn) {
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLInputElement>('input[name=password]')?.focus();
    }
  }

  override render() {
    const sso = this.options.singleSignOn;
    return html`
      <h1>${t('signInTitle')}</h1>
      ${this.notice ? html`<p class="notice" role="status">${this.notice}</p>` : nothing}
      <p class="error" role="alert">${this.error}</p>
      ${sso ? html`<p><a class="button" href="/studio/api/oidc/login" data-reload>${t('signInWithSso', { label: sso.label })}</a></p><p>${t('or')}</p>` : nothing}
      <form @submit=${this.submit} novalidate>
        <label>${t('email')} <input name="email" type="email" autocomplete="username" required /></label>
        <label>${t('password')} <input name="password" type="password" autocomplete="current-password" required /></label>
        <button type="submit" ?disabled=${this.busy}>${this.busy ? t('signingIn') : t('signIn')}</button>
      </form>
    `;
  }
}
customElements.define('studio-sign-in', StudioSignIn);
