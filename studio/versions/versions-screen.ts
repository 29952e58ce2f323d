import { css, html, nothing } from 'lit';
import { navigate } from '../app/navigation.ts';
import { shared } from '../app/styles.ts';
import { StudioScreen } from '../app/studio-screen.ts';
import { language } from '../i18n/catalogue.ts';
import { t } from '../i18n/strings.ts';
import './publish-plan.ts';
import type { ListedVersion, VersionAuthor, VersionList } from '../../shared/studio-versions.ts';
import { dataTable } from '../app/data-table.ts';
import { states } from '../app/reactive.ts';

const PUBLISHERS = new Set(['owner', 'editor']);

/**
 * The versions screen (`/studio/versions`): every version with its author, time, message and
 * source, which one is live, downloads as JSON or YAML, and the way to publish one (or roll back
 * to an earlier one) through its plan. Every role reads it; owners and editors publish.
 */
export class StudioVersions extends StudioScreen {
  static override styles = [
    shared,
    css`
      .live-badge {
        display: inline-block;
        padding: 0 0.5rem;
        border-radius: 999px;
        background: #1e6b34;
        color: #fff;
        font-weight: 700;
      }
      .downloads {
        display: flex;
        flex-wrap: wrap;
        gap: 0.25rem 0.75rem;
        margin-top: 0.25rem;
      }
      td.message {
        max-width: 22rem;
        overflow-wrap: anywhere;
      }
      .muted {
        color: #4a535c;
      }
    `,
  ];
  static override properties = {
    route: {},
    ...states('list', 'older', 'notice', 'reviewing'),
  };
  declare route: string;
  declare private list: VersionList | undefined;
  declare private older: ListedVersion[];
  declare private notice: string;
  declare private reviewing: string | undefined;
  /** The button that opened the plan, for focus to return to. */
  private opener: string | undefined;

  constructor() {
    super();
    this.older = [];
    this.notice = '';
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  /** `publish/<id>` (from the designer's "Publish…"): that version's plan opens. */
  protected override willUpdate(changed: Map<string, unknown>): void {
    if (!changed.has('route')) return;
    // Version ids are the store's `v<number>`; any other address (a typo, a hostile link) just shows the list.
    const match = /^publish\/(v\d{1,12})$/.exec(this.route ?? '');
    if (match) this.review(match[1]!);
  }

  private async load(): Promise<void> {
    await this.attempt(async () => {
      this.list = await this.api.request('listVersions', { query: { limit: 50 } });
      this.older = [];
    });
  }

  private async loadOlder(): Promise<void> {
    const before = this.older.length > 0 ? this.older.at(-1)!.number : this.list?.versions.at(-1)?.number;
    if (before === undefined) return;
    await this.attempt(async () => {
      const page = await this.api.request('listVersions', { query: { limit: 50, before } });
      this.older = [...this.older, ...page.versions];
      if (page.nextBefore === undefined && this.list) this.list = { ...this.list, nextBefore: undefined };
    });
  }

  private get versions(): ListedVersion[] {
    return [...(this.list?.versions ?? []), ...this.older];
  }

  private canPublish(): boolean {
    return PUBLISHERS.has(this.session?.account.role ?? '');
  }

  private review(id: string): void {
    this.notice = '';
    this.opener = id;
    this.reviewing = id;
  }

  /** Leaves `publish/<id>` once the plan is closed, so a reload does not open it again. */
  private leavePlanAddress(): void {
    if (this.route?.startsWith('publish/')) navigate('versions', true);
  }

  private async closed(): Promise<void> {
    this.reviewing = undefined;
    this.leavePlanAddress();
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLButtonElement>(`button[data-version="${this.opener ?? ''}"]`)?.focus();
  }

  private async published(event: CustomEvent<{ id: string; rollback: boolean }>): Promise<void> {
    this.reviewing = undefined;
    this.leavePlanAddress();
    this.notice = event.detail.rollback
      ? t('rolledBackNotice', { id: event.detail.id })
      : t('publishedNotice', { id: event.detail.id });
    await this.load();
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('.notice')?.focus();
  }

  private when(ms: number): string {
    return new Intl.DateTimeFormat(language(), { dateStyle: 'medium', timeStyle: 'short' }).format(ms);
  }

  private who(author: VersionAuthor): string {
    return author.name ?? author.email ?? author.kind;
  }

  private source(version: ListedVersion): string {
    return version.source === 'file'
      ? t('sourceFile')
      : version.source === 'push'
        ? t('sourcePush')
        : t('sourceStudio');
  }

  override render() {
    const list = this.list;
    const live = list?.publishedId ? this.versions.find((v) => v.id === list.publishedId) : undefined;
    return html`
      <h1>${t('versionsTitle')}</h1>
      ${this.notice ? html`<p class="notice" role="status" tabindex="-1">${this.notice}</p>` : nothing}
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      ${
        !list
          ? this.error
            ? nothing
            : html`<p role="status">${t('loading')}</p>`
          : html`
            <p>${live ? t('versionsLive', { id: live.id, time: this.when(live.publishedAt ?? live.createdAt), name: this.who(live.publishedBy ?? live.author) }) : t('versionsNoneLive')}</p>
            ${
              this.reviewing
                ? html`<studio-publish-plan
                  .api=${this.api}
                  .versionId=${this.reviewing}
                  ?canPublish=${this.canPublish()}
                  @published=${this.published}
                  @cancel=${this.closed}
                ></studio-publish-plan>`
                : nothing
            }
            ${this.table(list)}
          `
      }
    `;
  }

  private table(list: VersionList) {
    const liveNumber = this.versions.find((v) => v.id === list.publishedId)?.number;
    const columns = [
      'versionColumn',
      'messageColumn',
      'authorColumn',
      'savedColumn',
      'sourceColumn',
      'statusColumn',
      'actionsColumn',
    ] as const;
    return html`${dataTable(
      { caption: t('versionsCaption'), captionHidden: true, columns: columns.map((column) => t(column)) },
      this.versions.map((version) => {
        const isLive = version.id === list.publishedId;
        const earlier = liveNumber !== undefined && version.number < liveNumber;
        const action = !this.canPublish()
          ? t('reviewOnly', { id: version.id })
          : earlier
            ? t('reviewRollback', { id: version.id })
            : t('reviewPublish', { id: version.id });
        return html`<tr>
              <th scope="row">${version.id}</th>
              <td class="message">${version.message || html`<span class="muted">${t('noMessage')}</span>`}</td>
              <td>${this.who(version.author)}</td>
              <td><time datetime=${new Date(version.createdAt).toISOString()}>${this.when(version.createdAt)}</time></td>
              <td>${this.source(version)}</td>
              <td>
                ${
                  isLive
                    ? html`<span class="live-badge">${t('statusLive')}</span>`
                    : version.publishedAt !== undefined
                      ? t('statusWasLive', { time: this.when(version.publishedAt) })
                      : html`<span class="muted">${t('statusNeverLive')}</span>`
                }
              </td>
              <td>
                ${isLive ? nothing : html`<button type="button" class="secondary" data-version=${version.id} @click=${() => this.review(version.id)}>${action}</button>`}
                <div class="downloads">
                  ${(['json', 'yaml'] as const).map(
                    (format) =>
                      html`<a href="/studio/api/versions/${version.id}/export?format=${format}" download data-reload aria-label=${t('exportAs', { id: version.id, format: format.toUpperCase() })}
                        >${format.toUpperCase()}</a
                      >`,
                  )}
                </div>
              </td>
            </tr>`;
      }),
    )}
      ${list.nextBefore !== undefined ? html`<p><button type="button" class="secondary" @click=${this.loadOlder}>${t('olderVersions')}</button></p>` : nothing}`;
  }
}
customElements.define('studio-versions', StudioVersions);

declare global {
  interface HTMLElementTagNameMap {
    'studio-versions': StudioVersions;
  }
}
