import { LitElement, css, html, type TemplateResult } from 'lit';
import type { ApiClient, SessionInfo } from '../../api/client.ts';
import { BASE } from '../../app/navigation.ts';
import { shared } from '../../app/styles.ts';
import { t, type StringKey } from '../../i18n/strings.ts';
import './accounts-panel.ts';
import './audit-panel.ts';
import './channels-panel.ts';
import './secrets-panel.ts';
import './sessions-panel.ts';
import './tokens-panel.ts';
import { bound } from '../../app/reactive.ts';

type Role = SessionInfo['account']['role'];

/** The settings' tabs, each for the roles the server lets through (it checks again on every request). */
const TABS: ReadonlyArray<{
  readonly route: string;
  readonly label: StringKey;
  readonly roles: readonly Role[];
  readonly render: (api: ApiClient, session: SessionInfo) => TemplateResult;
}> = [
  {
    route: 'sessions',
    label: 'tabSessions',
    roles: ['owner', 'editor', 'analyst', 'viewer'],
    render: (api, session) => html`<studio-sessions-panel .api=${api} .session=${session}></studio-sessions-panel>`,
  },
  {
    route: 'tokens',
    label: 'tabTokens',
    roles: ['owner', 'editor', 'analyst', 'viewer'],
    render: (api, session) => html`<studio-tokens-panel .api=${api} .session=${session}></studio-tokens-panel>`,
  },
  {
    route: 'secrets',
    label: 'tabSecrets',
    roles: ['owner', 'editor'],
    render: (api, session) => html`<studio-secrets-panel .api=${api} .session=${session}></studio-secrets-panel>`,
  },
  {
    route: 'channels',
    label: 'tabChannels',
    roles: ['owner'],
    render: (api, session) => html`<studio-channels-panel .api=${api} .session=${session}></studio-channels-panel>`,
  },
  {
    route: 'accounts',
    label: 'tabAccounts',
    roles: ['owner'],
    render: (api, session) => html`<studio-accounts-panel .api=${api} .session=${session}></studio-accounts-panel>`,
  },
  {
    route: 'audit',
    label: 'tabAudit',
    roles: ['owner'],
    render: (api, session) => html`<studio-audit-panel .api=${api} .session=${session}></studio-audit-panel>`,
  },
];

/** Settings: the person's sessions and tokens; secrets, channels, accounts and the audit trail by role. */
export class StudioSettings extends LitElement {
  static override styles = [
    shared,
    css`
      nav ul {
        display: flex;
        flex-wrap: wrap;
        gap: 0.5rem 1.25rem;
        list-style: none;
        padding: 0;
        margin: 0 0 1rem;
        border-bottom: 1px solid #d0d5da;
      }
      nav a {
        display: inline-block;
        padding: 0.35rem 0;
        color: #0b5cad;
      }
      nav a[aria-current='page'] {
        font-weight: 700;
        border-bottom: 3px solid #0b5cad;
      }
    `,
  ];
  static override properties = { ...bound('api', 'session'), route: {} };
  declare api: ApiClient;
  declare session: SessionInfo;
  declare route: string;

  override render() {
    const tabs = TABS.filter((tab) => tab.roles.includes(this.session.account.role));
    const current = tabs.find((tab) => tab.route === this.route) ?? tabs[0]!;
    return html`
      <h1>${t('settingsTitle')}</h1>
      <nav aria-label=${t('settingsSections')}>
        <ul>
          ${tabs.map((tab) => html`<li><a href="${BASE}settings/${tab.route}" aria-current=${tab === current ? 'page' : 'false'}>${t(tab.label)}</a></li>`)}
        </ul>
      </nav>
      ${current.render(this.api, this.session)}
    `;
  }
}
customElements.define('studio-settings', StudioSettings);
