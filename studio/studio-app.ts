import { LitElement, css, html, nothing, type TemplateResult } from 'lit';
import { ApiClient, ApiError, type SessionInfo } from './api/client.ts';
import { pickLanguage, setLanguage } from './i18n/catalogue.ts';
import { roleName, t, type StringKey } from './i18n/strings.ts';
import './screens/setup-screen.ts';
import './screens/sign-in-screen.ts';
import { BASE, followLink, navigate, routeOf } from './app/navigation.ts';
import { shared } from './app/styles.ts';
import { states } from './app/reactive.ts';

/**
 * The studio's sections. Each is a custom element of its own, given `.api` and `.session`; one
 * whose element is not defined (its screen is built elsewhere) shows a placeholder. A screen
 * reads the rest of the route from `route` (`settings/tokens` → `tokens`).
 */
export const SECTIONS: ReadonlyArray<{ readonly route: string; readonly label: StringKey; readonly tag: string }> = [
  { route: 'versions', label: 'navVersions', tag: 'studio-versions' },
  { route: 'designer', label: 'navDesigner', tag: 'studio-designer' },
  { route: 'insights', label: 'navInsights', tag: 'studio-insights' },
  { route: 'settings', label: 'navSettings', tag: 'studio-settings' },
];

/**
 * The studio's shell: signs the person in (or runs a setup link), then draws the banner with the
 * sections' navigation, and the current section in the main landmark. Focus moves to the main
 * landmark on every move, so a screen reader hears the new page.
 */
export class StudioApp extends LitElement {
  /** How to load each section's screen (set by the entry, main.ts): its code downloads when it is first opened. */
  static screens: Readonly<Record<string, () => Promise<unknown>>> = {};
  private readonly loading = new Set<string>();
  private readonly failed = new Set<string>();

  static override styles = [
    shared,
    css`
      :host {
        display: block;
        min-height: 100vh;
      }
      header {
        display: flex;
        flex-wrap: wrap;
        align-items: center;
        gap: 1rem 2rem;
        padding: 0.5rem 1rem;
        background: #14213d;
        color: #fff;
      }
      header .name {
        font-weight: 700;
        font-size: 1.1rem;
      }
      nav ul {
        display: flex;
        flex-wrap: wrap;
        gap: 0.25rem 1rem;
        list-style: none;
        margin: 0;
        padding: 0;
      }
      nav a {
        color: #fff;
        padding: 0.25rem 0.25rem;
      }
      nav a[aria-current='page'] {
        font-weight: 700;
        text-decoration-thickness: 3px;
      }
      .who {
        margin-left: auto;
        display: flex;
        gap: 0.75rem;
        align-items: center;
      }
      .who button {
        background: transparent;
        border-color: #fff;
      }
      main {
        padding: 1rem;
        max-width: 72rem;
      }
      main:focus {
        outline: none;
      }
    `,
  ];
  static override properties = states('session', 'route', 'notice');
  declare private session: SessionInfo | null | undefined;
  declare private route: string;
  declare private notice: string | undefined;
  readonly api = new ApiClient();
  private readonly moved = () => this.routeChanged();
  /** The designer's "Publish…": the versions screen opens that version's plan (an address that can be bookmarked). */
  private readonly publishFromDesigner = (event: Event) => {
    const versionId = (event as CustomEvent<{ versionId?: string }>).detail?.versionId;
    if (versionId) navigate(`versions/publish/${encodeURIComponent(versionId)}`);
  };
  private readonly screens = new Map<
    string,
    HTMLElement & { api?: ApiClient; session?: SessionInfo; route?: string }
  >();

  constructor() {
    super();
    this.session = undefined;
    this.route = routeOf(location.pathname);
    const language = pickLanguage(navigator.languages ?? [navigator.language]);
    setLanguage(language);
    document.documentElement.lang = language;
    this.api.onSignedOut(() => {
      if (this.session) this.notice = t('sessionEnded');
      this.signedIn(null);
    });
  }

  override connectedCallback(): void {
    super.connectedCallback();
    window.addEventListener('popstate', this.moved);
    window.addEventListener('studio-navigate', this.moved);
    this.addEventListener('click', followLink);
    this.addEventListener('designer-publish', this.publishFromDesigner);
    if (this.route !== 'setup') void this.loadSession();
  }

  override disconnectedCallback(): void {
    window.removeEventListener('popstate', this.moved);
    window.removeEventListener('studio-navigate', this.moved);
    this.removeEventListener('click', followLink);
    this.removeEventListener('designer-publish', this.publishFromDesigner);
    super.disconnectedCallback();
  }

  private async loadSession(): Promise<void> {
    try {
      // Asked first, so a visitor who is not signed in causes no 401 (which browsers log as an error).
      const { signedIn } = await this.api.request('signInOptions');
      this.signedIn(signedIn ? await this.api.request('session') : null);
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 401)
        console.warn('Studio: could not read the session', error);
      this.signedIn(null);
    }
  }

  private signedIn(session: SessionInfo | null): void {
    // Another person may sign in next: nothing of this one's screens stays.
    if (session?.account.id !== this.session?.account.id) this.screens.clear();
    this.session = session;
    this.api.setCsrfToken(session?.csrfToken ?? null);
    document.title = t('appName');
  }

  private routeChanged(): void {
    this.route = routeOf(location.pathname);
    document.title = `${this.sectionLabel()} – ${t('appName')}`;
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>('main')?.focus());
  }

  private sectionLabel(): string {
    const section = SECTIONS.find((each) => this.route === each.route || this.route.startsWith(`${each.route}/`));
    return section ? t(section.label) : t('appName');
  }

  /** Loads a screen's code once; the shell draws again when its element is defined, or says why not. */
  private loadScreen(tag: string, load: () => Promise<unknown>): void {
    if (this.loading.has(tag)) return;
    this.loading.add(tag);
    load().then(
      () => this.requestUpdate(),
      (error: unknown) => {
        // A new release replaced the files this page knows (or the network failed): a reload fetches them again.
        console.warn(`Studio: the ${tag} screen could not be loaded`, error);
        this.failed.add(tag);
        this.requestUpdate();
      },
    );
  }

  private async signOut(): Promise<void> {
    await this.api.request('logout').catch(() => undefined);
    this.notice = undefined;
    this.signedIn(null);
  }

  private welcome(event: CustomEvent<SessionInfo>): void {
    this.notice = undefined;
    this.signedIn(event.detail);
    // A setup link's token leaves the address (and the history) once used.
    if (this.route === 'setup' || this.route === 'sign-in' || this.route === '') navigate('versions', true);
    else this.routeChanged();
  }

  override render(): TemplateResult {
    if (this.route === 'setup' && !this.session) {
      return html`<main id="main" tabindex="-1" @signed-in=${this.welcome}><studio-setup .api=${this.api}></studio-setup></main>`;
    }
    if (this.session === undefined)
      return html`<main id="main" tabindex="-1"><p role="status">${t('loading')}</p></main>`;
    if (this.session === null) {
      return html`<main id="main" tabindex="-1" @signed-in=${this.welcome}><studio-sign-in .api=${this.api} .notice=${this.notice}></studio-sign-in></main>`;
    }
    const account = this.session.account;
    const current =
      SECTIONS.find((each) => this.route === each.route || this.route.startsWith(`${each.route}/`)) ??
      (this.route === '' ? SECTIONS[0] : undefined);
    return html`
      <header>
        <span class="name">${t('appName')}</span>
        <nav aria-label=${t('mainNavigation')}>
          <ul>
            ${SECTIONS.map(
              (section) =>
                html`<li><a href="${BASE}${section.route}" aria-current=${section === current ? 'page' : 'false'}>${t(section.label)}</a></li>`,
            )}
          </ul>
        </nav>
        <div class="who">
          <span>${t('signedInAs', { name: account.name, role: roleName(account.role) })}</span>
          <button type="button" @click=${this.signOut}>${t('signOut')}</button>
        </div>
      </header>
      <main id="main" tabindex="-1">${current ? this.screen(current) : html`<h1>${t('notFoundPage')}</h1>`}</main>
    `;
  }

  private screen(section: (typeof SECTIONS)[number]): TemplateResult | typeof nothing {
    if (!customElements.get(section.tag)) {
      const load = StudioApp.screens[section.tag];
      if (!load) return html`<h1>${t(section.label)}</h1><p>${t('notHereYet')}</p>`;
      this.loadScreen(section.tag, load);
      if (this.failed.has(section.tag))
        return html`<h1>${t(section.label)}</h1><p role="alert">${t('errorNetwork')}</p>`;
      return html`<h1>${t(section.label)}</h1><p role="status">${t('loading')}</p>`;
    }
    const rest = this.route.startsWith(`${section.route}/`) ? this.route.slice(section.route.length + 1) : '';
    // A tag chosen from the fixed table above, never from the address: created by hand (Lit cannot bind a tag
    // name) and kept, so a screen keeps its state while the shell redraws.
    let element = this.screens.get(section.tag);
    if (!element) this.screens.set(section.tag, (element = document.createElement(section.tag)));
    element.api = this.api;
    element.session = this.session!;
    element.route = rest;
    return html`${element}`;
  }
}

customElements.define('studio-app', StudioApp);

declare global {
  interface HTMLElementTagNameMap {
    'studio-app': StudioApp;
  }
}
