import { css, html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { BASE } from '../app/navigation.ts';
import { shared } from '../app/styles.ts';
import { StudioScreen } from '../app/studio-screen.ts';
import { rangeFormStyles } from './range-form-styles.ts';
import { t } from '../i18n/strings.ts';
import './insights-chart.ts';
import './conversations-view.ts';
import './misses-view.ts';
import type { Dashboard, DropOff } from '../../shared/studio-insights.ts';
import type { VersionList } from '../../shared/studio-versions.ts';
import { lastDays } from './last-days.ts';
import { channelName, KNOWN_CHANNELS } from '../i18n/channel-names.ts';
import { dataTable } from '../app/data-table.ts';
import { states } from '../app/reactive.ts';

type Tab = 'dashboard' | 'drop-off' | 'conversations' | 'misses' | 'downloads';

/** The exports the studio offers for download (the management API's, by the same names). */
const EXPORTS = [
  'transcript',
  'userData',
  'userDataSnapshot',
  'nlpLog',
  'fuzzyQuestionAnswerLog',
  'integrationLog',
  'urlTracker',
  'outgoingEmail',
  'outgoingSms',
] as const;
const FORMATS = [
  ['csv', 'CSV'],
  ['ndjson', 'NDJSON'],
  ['json', 'JSON'],
] as const;

/**
 * Insights, for owners and analysts (they read personal data): the dashboard's charts, each with
 * its table; reach and drop-off per step of a published version; the conversations and one
 * visitor's transcript. Other roles get a sentence saying who may, and no request is made.
 */
export class StudioInsights extends StudioScreen {
  static override styles = [
    shared,
    rangeFormStyles,
    css`
      nav ul {
        display: flex;
        gap: 1rem;
        list-style: none;
        padding: 0;
        margin: 0 0 1rem;
      }
      nav a[aria-current='page'] {
        font-weight: 700;
      }
      td.n,
      th.n {
        text-align: right;
        font-variant-numeric: tabular-nums;
      }
      a.download {
        margin-right: 1rem;
      }
      caption {
        text-align: left;
        font-weight: 700;
        padding: 0.5rem 0;
      }
    `,
  ];
  static override properties = {
    route: {},
    ...states('from', 'to', 'version', 'channel', 'versions', 'dashboard', 'dropOff'),
  };
  declare route: string;
  declare private from: string;
  declare private to: string;
  /** '' = every version (the dashboard); the drop-off always names one. */
  declare private version: string;
  /** '' = every channel; otherwise every chart and the drop-off count the conversations started on this one. */
  declare private channel: string;
  /** Channels seen in the dashboard's figures, offered by the picker beside the built-in ones. */
  private seenChannels = new Set<string>();
  declare private versions: VersionList | undefined;
  declare private dashboard: Dashboard | undefined;
  declare private dropOff: DropOff | undefined;

  constructor() {
    super();
    this.route = '';
    ({ from: this.from, to: this.to } = lastDays(30));
    this.version = '';
    this.channel = '';
  }

  private get allowed(): boolean {
    return this.session?.account.role === 'owner' || this.session?.account.role === 'analyst';
  }

  /** Editors see the misses (what to teach the bot, without who wrote it), not the rest. */
  private get missesAllowed(): boolean {
    return this.allowed || this.session?.account.role === 'editor';
  }

  private get tab(): Tab | 'user' {
    if (!this.allowed && this.missesAllowed) return 'misses';
    if (this.route.startsWith('users/')) return 'user';
    return this.route === 'drop-off' ||
      this.route === 'conversations' ||
      this.route === 'downloads' ||
      this.route === 'misses'
      ? this.route
      : 'dashboard';
  }

  protected override willUpdate(changed: PropertyValues): void {
    if ((changed.has('route') || changed.has('session')) && this.allowed) void this.load();
  }

  private async load(): Promise<void> {
    this.versions ??= await this.attempt(() => this.api.request('listVersions', { query: { limit: 200 } }));
    const range = { from: this.from, to: this.to, channel: this.channel || undefined };
    if (this.tab === 'dashboard') {
      this.dashboard = await this.attempt(() =>
        this.api.request('insightsDashboard', { query: { ...range, version: this.version || undefined } }),
      );
      for (const { channel } of this.dashboard?.channels ?? []) this.seenChannels.add(channel);
    } else if (this.tab === 'drop-off') {
      const version = this.version || this.versions?.publishedId || '';
      this.dropOff = await this.attempt(() =>
        this.api.request('insightsDropOff', { query: { ...range, version: version || undefined } }),
      );
    }
  }

  private apply(event: SubmitEvent): void {
    event.preventDefault();
    const form = new FormData(event.target as HTMLFormElement);
    this.from = String(form.get('from') ?? this.from);
    this.to = String(form.get('to') ?? this.to);
    this.version = String(form.get('version') ?? '');
    this.channel = String(form.get('channel') ?? '');
    void this.load();
  }

  override render(): TemplateResult {
    const link = (route: string, label: string, current: boolean) =>
      html`<li><a href="${BASE}insights${route ? `/${route}` : ''}" aria-current=${current ? 'page' : 'false'}>${label}</a></li>`;
    if (!this.allowed && this.missesAllowed) {
      return html`
        <h1>${t('insightsTitle')}</h1>
        <nav aria-label=${t('insightsSections')}>
          <ul>
            ${link('misses', t('tabMisses'), true)}
          </ul>
        </nav>
        <insights-misses .api=${this.api}></insights-misses>
      `;
    }
    if (!this.allowed) return html`<h1>${t('insightsTitle')}</h1><p>${t('insightsNotAllowed')}</p>`;
    const tab = this.tab;
    return html`
      <h1>${t('insightsTitle')}</h1>
      <nav aria-label=${t('insightsSections')}>
        <ul>
          ${link('', t('tabDashboard'), tab === 'dashboard')} ${link('drop-off', t('tabDropOff'), tab === 'drop-off')}
          ${link('conversations', t('tabConversations'), tab === 'conversations' || tab === 'user')} ${link('misses', t('tabMisses'), tab === 'misses')}
          ${link('downloads', t('tabDownloads'), tab === 'downloads')}
        </ul>
      </nav>
      <p class="error" role="alert">${this.error}</p>
      ${tab === 'dashboard' || tab === 'drop-off' || tab === 'downloads' ? this.rangeForm(tab) : nothing}
      ${tab === 'downloads' ? this.renderDownloads() : nothing} ${tab === 'misses' ? html`<insights-misses .api=${this.api}></insights-misses>` : nothing}
      ${tab === 'dashboard' ? this.renderDashboard() : nothing} ${tab === 'drop-off' ? this.renderDropOff() : nothing}
      ${
        tab === 'conversations' || tab === 'user'
          ? html`<insights-conversations .api=${this.api} .session=${this.session} .userId=${tab === 'user' ? decodeURIComponent(this.route.slice('users/'.length)) : ''}></insights-conversations>`
          : nothing
      }
    `;
  }

  private rangeForm(tab: Tab): TemplateResult {
    const published = this.versions?.publishedId ?? null;
    const chosen = tab === 'drop-off' ? this.version || published || '' : this.version;
    return html`<fieldset>
      <legend>${t('rangeLegend')}</legend>
      <form @submit=${this.apply}>
        <label>${t('fromDay')}<input type="date" name="from" .value=${this.from} required /></label>
        <label>${t('toDay')}<input type="date" name="to" .value=${this.to} required /></label>
        ${
          tab === 'downloads'
            ? nothing
            : html`<label
              >${t('versionPicker')}
          <select name="version">
            ${tab !== 'drop-off' ? html`<option value="" ?selected=${chosen === ''}>${t('allVersions')}</option>` : nothing}
            ${(this.versions?.versions ?? []).map(
              (v) =>
                html`<option value=${v.id} ?selected=${chosen === v.id}>${v.id === published ? t('versionInService', { id: v.id }) : v.id}</option>`,
            )}
          </select>
        </label>
        ${this.channelPicker()}`
        }
        <button type="submit">${t('show')}</button>
      </form>
    </fieldset>`;
  }

  /** Every channel, or one: the built-in channels and any other the figures named, in words. */
  private channelPicker(): TemplateResult {
    const channels = [...new Set([...KNOWN_CHANNELS, ...this.seenChannels, ...(this.channel ? [this.channel] : [])])];
    return html`<label
      >${t('channelPicker')}
      <select name="channel">
        <option value="" ?selected=${this.channel === ''}>${t('allChannels')}</option>
        ${channels.map((id) => html`<option value=${id} ?selected=${this.channel === id}>${channelName(id)}</option>`)}
      </select>
    </label>`;
  }

  /** A chart's title, naming the channel its figures are of when one is picked. */
  private titled(title: string): string {
    return this.channel ? t('chartOfChannel', { title, channel: channelName(this.channel) }) : title;
  }

  /** Integration calls and their latency are two charts: counts and milliseconds on one scale would dwarf one or the other. */
  private renderDashboard(): TemplateResult | typeof nothing {
    const d = this.dashboard;
    if (!d) return html`<p role="status">${t('loading')}</p>`;
    return html`
      <insights-chart
        .title=${this.titled(t('chartDaily'))}
        kind="time"
        .labelHeader=${t('colDay')}
        .labels=${d.daily.map((day) => day.date)}
        .series=${[
          { label: t('colConversations'), values: d.daily.map((day) => day.conversations) },
          { label: t('colActiveUsers'), values: d.daily.map((day) => day.activeUsers) },
          { label: t('colMessages'), values: d.daily.map((day) => day.messagesUser + day.messagesBot) },
        ]}
      ></insights-chart>
      ${this.bars(
        t('chartChannels'),
        t('colChannel'),
        d.channels.map((x) => channelName(x.channel)),
        [
          { label: t('colConversations'), values: d.channels.map((x) => x.conversations) },
          { label: t('colMessages'), values: d.channels.map((x) => x.messagesUser + x.messagesBot) },
        ],
      )}
      ${this.bars(
        t('chartDialogs'),
        t('colDialog'),
        d.dialogs.map((x) => x.dialogId),
        [
          { label: t('colStarted'), values: d.dialogs.map((x) => x.started) },
          { label: t('colCompleted'), values: d.dialogs.map((x) => x.completed) },
        ],
      )}
      ${this.bars(
        t('chartUnprocessed'),
        t('colInput'),
        d.unprocessed.map((x) => x.text),
        [{ label: t('colCount'), values: d.unprocessed.map((x) => x.count) }],
      )}
      ${this.bars(t('chartFaq'), t('colKind'), [t('faqAnswered'), t('faqMissed')], [{ label: t('colCount'), values: [d.faq.answered, d.faq.missed] }])}
      ${this.bars(
        t('chartIntegrations'),
        t('colCallStatus'),
        d.integrations.map((x) => x.status),
        [{ label: t('colCalls'), values: d.integrations.map((x) => x.calls) }],
      )}
      ${this.bars(
        t('chartLatency'),
        t('colCallStatus'),
        d.integrations.map((x) => x.status),
        [
          { label: t('colP50'), values: d.integrations.map((x) => x.p50Ms) },
          { label: t('colP95'), values: d.integrations.map((x) => x.p95Ms) },
        ],
      )}
      ${this.bars(
        t('chartClicks'),
        t('colDomain'),
        d.urlClicks.map((x) => x.domain),
        [{ label: t('colClicks'), values: d.urlClicks.map((x) => x.clicks) }],
      )}
      ${this.bars(t('chartSent'), t('colKind'), [t('emails'), t('sms')], [{ label: t('colSent'), values: [d.sent.emails, d.sent.sms] }])}
    `;
  }

  private bars(
    title: string,
    header: string,
    labels: readonly string[],
    series: readonly { label: string; values: readonly number[] }[],
  ): TemplateResult {
    if (labels.length === 0) return html`<h2>${this.titled(title)}</h2><p>${t('nothingInRange')}</p>`;
    return html`<insights-chart .title=${this.titled(title)} kind="bars" .labelHeader=${header} .labels=${labels} .series=${series}></insights-chart>`;
  }

  /** Links straight to the export (the browser downloads it with the session cookie); `data-reload` keeps the shell from routing them. */
  private renderDownloads(): TemplateResult {
    const from = Math.floor(Date.parse(`${this.from}T00:00:00Z`) / 1000);
    const to = Math.floor(Date.parse(`${this.to}T00:00:00Z`) / 1000) + 86_399;
    return dataTable(
      { caption: t('downloadsCaption'), columns: [t('colExport'), t('colDownload')] },
      EXPORTS.map(
        (name) => html`<tr>
            <th scope="row">${t(`export_${name}`)}</th>
            <td>
              ${FORMATS.map(
                ([format, label]) =>
                  html`<a
                      class="download"
                      href="/studio/api/export/${name}?format=${format}${format === 'csv' ? '&bom=true' : ''}&fromTimestamp=${from}&toTimestamp=${to}"
                      download="${name}.${format}"
                      data-reload
                      aria-label=${t('downloadAs', { name: t(`export_${name}`), format: label })}
                      >${label}</a
                    >
                    `,
              )}
            </td>
          </tr>`,
      ),
    );
  }

  private renderDropOff(): TemplateResult {
    const d = this.dropOff;
    if (!d) return html`<p role="status">${t('loading')}</p>`;
    const dialogs = [...new Set(d.steps.map((s) => s.dialogId))];
    const minutes = Math.round(d.windowMs / 60_000);
    return html`
      <p>${t('dropOffIntro', { window: minutes >= 1 ? `${minutes} min` : `${Math.round(d.windowMs / 1000)} s`, open: d.open })}</p>
      ${dialogs.map((dialogId) =>
        dataTable(
          {
            caption: this.titled(t('dropOffCaption', { dialog: dialogId })),
            columns: [
              t('colStep'),
              { label: t('colReached'), numeric: true },
              { label: t('colStopped'), numeric: true },
            ],
          },
          d.steps
            .filter((s) => s.dialogId === dialogId)
            .map(
              (s) =>
                html`<tr><th scope="row">${s.stepId}</th><td class="n">${s.reached}</td><td class="n">${s.stopped}</td></tr>`,
            ),
        ),
      )}
    `;
  }
}

customElements.define('studio-insights', StudioInsights);

declare global {
  interface HTMLElementTagNameMap {
    'studio-insights': StudioInsights;
  }
}
