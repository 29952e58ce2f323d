import { css, html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { BASE, navigate } from '../app/navigation.ts';
import { shared } from '../app/styles.ts';
import { StudioScreen } from '../app/studio-screen.ts';
import { language } from '../i18n/catalogue.ts';
import { t } from '../i18n/strings.ts';
import type {
  ConversationEvent,
  ConversationSummary,
  Transcript,
  TranscriptMessage,
} from '../../shared/studio-insights.ts';
import { lastDays } from './last-days.ts';
import { channelName } from '../i18n/channel-names.ts';
import { dataTable } from '../app/data-table.ts';
import { states } from '../app/reactive.ts';

const time = (ms: number) => new Date(ms).toLocaleString(language());

/**
 * The conversations: a search (words, a user-data field, dates, channel, a step reached, an
 * integration error) with its results, and one visitor's transcript with the dialog and step
 * beside each message and the integration calls of each turn. Owners may erase the visitor.
 */
export class InsightsConversations extends StudioScreen {
  static override styles = [
    shared,
    css`
      fieldset {
        border: 1px solid #d0d5da;
        border-radius: 4px;
        margin: 0 0 1rem;
      }
      fieldset form {
        display: flex;
        flex-wrap: wrap;
        gap: 0.75rem 1rem;
        align-items: end;
        max-width: none;
      }
      label.check {
        display: flex;
        gap: 0.4rem;
        align-items: center;
      }
      caption {
        text-align: left;
        font-weight: 700;
        padding: 0.5rem 0;
      }
      pre {
        white-space: pre-wrap;
        overflow-wrap: anywhere;
        font-size: 0.85rem;
        background: #f4f6f8;
        padding: 0.5rem;
      }
      dl {
        display: grid;
        grid-template-columns: max-content 1fr;
        gap: 0.25rem 1rem;
      }
      dd {
        margin: 0;
      }
    `,
  ];
  static override properties = {
    userId: {},
    ...states('page', 'transcript', 'fields'),
  };
  /** A visitor's id: their transcript; '' for the search. */
  declare userId: string;
  declare private page:
    | { items: ConversationSummary[]; next: string | null; query: string; stopped?: { count: number; backTo: number } }
    | undefined;
  declare private transcript: Transcript | undefined;
  declare private fields: readonly string[];

  constructor() {
    super();
    this.userId = '';
    this.fields = [];
  }

  protected override willUpdate(changed: PropertyValues): void {
    if (changed.has('userId')) {
      if (this.userId) void this.loadTranscript();
      else if (!this.page) void this.search(`from=${lastDays(30).from}&to=${lastDays(30).to}`);
    }
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // The user-data fields the bot declares, for the field picker.
    void (async () => {
      const { publishedId } = await this.api.request('listVersions', { query: { limit: 1 } });
      if (!publishedId) return;
      const version = await this.api.request('readVersion', { params: { id: publishedId } });
      // The definition is any JSON as saved: only a list of texts is taken as the fields.
      const fields = (version.definition as { userDataFields?: unknown } | undefined)?.userDataFields;
      this.fields = Array.isArray(fields) ? fields.filter((f): f is string => typeof f === 'string') : [];
    })().catch(() => undefined);
  }

  /** Counts searches: an answer to an earlier one (the first list, slow on a busy store) never replaces a later one's. */
  private searches = 0;

  private async search(query: string, cursor?: string): Promise<void> {
    const asked = ++this.searches;
    const result = await this.attempt(() =>
      this.api.request('searchConversations', {
        query: { ...Object.fromEntries(new URLSearchParams(query)), cursor },
      }),
    );
    if (!result || asked !== this.searches) return;
    this.page = {
      items: [...(cursor && this.page ? this.page.items : []), ...result.conversations],
      next: result.nextCursor,
      query,
      ...(result.searchedBackTo !== undefined
        ? { stopped: { count: result.searchedConversations ?? 0, backTo: result.searchedBackTo } }
        : {}),
    };
  }

  private submit(event: SubmitEvent): void {
    event.preventDefault();
    const form = new FormData(event.target as HTMLFormElement);
    const query = new URLSearchParams();
    for (const name of ['from', 'to', 'text', 'field', 'value', 'channel', 'reached']) {
      const value = String(form.get(name) ?? '').trim();
      if (value) query.set(name, value);
    }
    if (!query.get('field') || !query.get('value')) {
      query.delete('field');
      query.delete('value');
    }
    if (form.get('integrationError')) query.set('integrationError', 'true');
    void this.search(query.toString());
  }

  private async loadTranscript(): Promise<void> {
    this.transcript = undefined;
    this.transcript = await this.attempt(() =>
      this.api.request('readUserTranscript', { params: { userId: this.userId } }),
    );
  }

  private async erase(): Promise<void> {
    if (!window.confirm(t('eraseConfirm'))) return;
    const done = await this.attempt(() => this.api.request('eraseUserFromStudio', { params: { userId: this.userId } }));
    if (done === undefined) return;
    this.page = undefined;
    navigate('insights/conversations');
  }

  override render(): TemplateResult {
    return html`<p class="error" role="alert">${this.error}</p>
      <p role="status">${this.status}</p>
      ${this.userId ? this.renderTranscript() : this.renderSearch()}`;
  }

  private renderSearch(): TemplateResult {
    const range = lastDays(30);
    return html`<fieldset>
        <legend>${t('searchLegend')}</legend>
        <form @submit=${this.submit}>
          <label>${t('fromDay')}<input type="date" name="from" .value=${range.from} /></label>
          <label>${t('toDay')}<input type="date" name="to" .value=${range.to} /></label>
          <label>${t('searchText')}<input type="search" name="text" maxlength="200" /></label>
          <label
            >${t('searchField')}
            <select name="field">
              <option value="">${t('anyField')}</option>
              ${this.fields.map((f) => html`<option value=${f}>${f}</option>`)}
            </select>
          </label>
          <label>${t('searchValue')}<input name="value" maxlength="200" /></label>
          <label>${t('searchChannel')}<input name="channel" maxlength="64" /></label>
          <label>${t('searchReached')}<input name="reached" maxlength="129" placeholder="dialog/step" /></label>
          <label class="check"><input type="checkbox" name="integrationError" value="true" />${t('searchError')}</label>
          <button type="submit">${t('search')}</button>
        </form>
      </fieldset>
      ${this.page ? this.renderResults(this.page) : html`<p role="status">${t('loading')}</p>`}`;
  }

  private renderResults(page: NonNullable<InsightsConversations['page']>): TemplateResult {
    // The search read as far as its budget allowed: said where the results are, so "nothing found" is never taken for "there is none".
    const stopped = page.stopped
      ? html`<p role="status">${t('searchStopped', { count: page.stopped.count.toLocaleString(language()), time: time(page.stopped.backTo) })}</p>`
      : nothing;
    const more = page.next
      ? html`<button type="button" class="secondary" @click=${() => this.search(page.query, page.next!)}>${t('loadMore')}</button>`
      : nothing;
    if (page.items.length === 0) return html`${stopped}<p>${t('nothingInRange')}</p>${more}`;
    const columns = [t('colStartedAt'), t('colUser'), t('colChannel'), t('colLastStep'), t('colWords'), t('colError')];
    return html`${stopped}${dataTable(
      { caption: t('conversationsCaption'), columns },
      page.items.map(
        (c) => html`<tr>
            <td>${time(c.startedAt)}</td>
            <td><a href="${BASE}insights/users/${encodeURIComponent(c.userId)}" aria-label=${t('openTranscript', { user: c.userId })}>${c.userId}</a></td>
            <td>${channelName(c.channel)}</td>
            <td><code>${c.lastStep ?? ''}</code></td>
            <td>${c.text}</td>
            <td>${c.integrationError ? t('yes') : t('no')}</td>
          </tr>`,
      ),
    )}
      ${more}`;
  }

  private renderTranscript(): TemplateResult {
    const tr = this.transcript;
    const back = html`<p><a href="${BASE}insights/conversations">${t('backToConversations')}</a></p>`;
    if (!tr) return html`${back}${this.error ? nothing : html`<p role="status">${t('loading')}</p>`}`;
    return html`${back}
      <h2>${t('transcriptTitle', { user: tr.userId })}</h2>
      ${this.session.account.role === 'owner' ? html`<button type="button" class="danger" @click=${this.erase}>${t('eraseUser')}</button>` : nothing}
      <h3>${t('userDataTitle')}</h3>
      <dl>
        ${Object.entries(tr.userData).map(([name, value]) => html`<dt>${name}</dt><dd>${typeof value === 'string' ? value : JSON.stringify(value)}</dd>`)}
      </dl>
      ${dataTable(
        {
          caption: t('transcriptCaption'),
          columns: [t('colTime'), t('colFrom'), t('colChannel'), t('colMessage'), t('colWhere')],
        },
        inTimeOrder(tr).map((item) => (item.event ? eventRow(item.event) : messageRow(item.message))),
      )}`;
  }
}

type TranscriptItem = { readonly at: number } & (
  | { readonly event: ConversationEvent; readonly message?: never }
  | { readonly message: TranscriptMessage; readonly event?: never }
);

/** Messages and events in time order; an event first when both have the same time (it led to the turn). */
function inTimeOrder(tr: Transcript): TranscriptItem[] {
  const items: TranscriptItem[] = [];
  let e = 0;
  for (const message of tr.messages) {
    while (e < tr.events.length && tr.events[e]!.at <= message.at)
      items.push({ at: tr.events[e]!.at, event: tr.events[e++]! });
    items.push({ at: message.at, message });
  }
  for (; e < tr.events.length; e++) items.push({ at: tr.events[e]!.at, event: tr.events[e]! });
  return items;
}

const EVENT_NAMES = { pageEvent: 'eventPageEvent', trigger: 'eventTrigger', timer: 'eventTimer' } as const;

/** A page event, trigger or timer as a row among the messages: its time, "Event", and what it was by name. */
function eventRow(event: ConversationEvent): TemplateResult {
  const key = EVENT_NAMES[event.kind as keyof typeof EVENT_NAMES] ?? 'eventPageEvent';
  return html`<tr>
    <td>${time(event.at)}</td>
    <td>${t('colEvent')}</td>
    <td></td>
    <td>${t(key, { name: event.name })}</td>
    <td></td>
  </tr>`;
}

function messageRow(m: TranscriptMessage): TemplateResult {
  return html`<tr>
    <td>${time(m.at)}</td>
    <td>${m.from === 'user' ? t('fromVisitor') : t('fromBot')}</td>
    <td>${channelName(m.channel)}</td>
    <td>
      ${m.text ?? html`<code>${String(m.message.type ?? '')}</code>`}
      ${
        m.integrationCalls.length > 0
          ? html`<details>
            <summary>${t(m.integrationCalls.length === 1 ? 'callsOfTurnOne' : 'callsOfTurn', { count: m.integrationCalls.length })}</summary>
            ${m.integrationCalls.map((call) => html`<pre>${JSON.stringify(call, null, 2)}</pre>`)}
          </details>`
          : nothing
      }
    </td>
    <td>${m.dialogId ? html`<code>${m.dialogId} / ${m.stepId}</code>` : ''}</td>
  </tr>`;
}

customElements.define('insights-conversations', InsightsConversations);

declare global {
  interface HTMLElementTagNameMap {
    'insights-conversations': InsightsConversations;
  }
}
