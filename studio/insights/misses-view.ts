import { css, html, nothing, type TemplateResult } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import { shared } from '../app/styles.ts';
import { StudioScreen } from '../app/studio-screen.ts';
import { rangeFormStyles } from './range-form-styles.ts';
import { t } from '../i18n/strings.ts';
import type { Misses, MissGroup, TaughtTo } from '../../shared/studio-misses.ts';
import { lastDays } from './last-days.ts';
import { mostFrequentSentence } from './misses-sentences.ts';
import { dataTable } from '../app/data-table.ts';
import { states } from '../app/reactive.ts';

type Kind = 'intent' | 'faq';

const percent = (share: number): string => `${Math.round(share * 100)} %`;
const taughtWords = (to: TaughtTo): string => t(to.kind === 'intent' ? 'taughtIntent' : 'taughtFaq', { id: to.id });
const targetWords = (to: TaughtTo): string => (to.kind === 'intent' ? `intent ${to.id}` : `FAQ ${to.id}`);

/**
 * Insights → Misses: the NLP log's unprocessed inputs and the FAQ log's unanswered questions,
 * grouped by likeness on the server, each group with the nearest intent and FAQ pair; owners and
 * editors add a group's inputs to an intent or FAQ pair of their draft (then preview, test and
 * publish it as any edit); analysts read only. The intent quality report sits beside.
 */
export class InsightsMisses extends StudioScreen {
  static override styles = [
    shared,
    rangeFormStyles,
    css`
      .layout {
        display: grid;
        grid-template-columns: minmax(0, 3fr) minmax(16rem, 1fr);
        gap: 1.5rem;
      }
      caption {
        text-align: left;
        font-weight: 700;
        padding: 0.5rem 0;
      }
      td.n {
        text-align: right;
        font-variant-numeric: tabular-nums;
      }
      ul.inputs {
        margin: 0;
        padding-left: 1rem;
      }
      ul.inputs label {
        display: inline-flex;
        flex-direction: row;
        align-items: baseline;
        gap: 0.35rem;
        margin: 0;
      }
      ul.inputs:has(input) {
        list-style: none;
        padding-left: 0;
      }
      .add {
        display: flex;
        flex-wrap: wrap;
        gap: 0.25rem;
        align-items: center;
        margin-bottom: 0.25rem;
      }
      p.taught {
        margin: 0.25rem 0 0;
        font-weight: 400;
      }
      aside {
        border-left: 1px solid #d0d5da;
        padding-left: 1rem;
      }
    `,
  ];
  static override properties = {
    ...states('from', 'to', 'misses', 'notice'),
  };
  declare private from: string;
  declare private to: string;
  declare private misses: Misses | undefined;
  declare private notice: string;

  constructor() {
    super();
    ({ from: this.from, to: this.to } = lastDays(30));
    this.notice = '';
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  private async load(): Promise<void> {
    await this.attempt(async () => {
      this.misses = await this.api.request('insightsMisses', { query: { from: this.from, to: this.to } });
    });
  }

  private apply(event: SubmitEvent): void {
    event.preventDefault();
    const form = new FormData(event.target as HTMLFormElement);
    this.from = String(form.get('from') ?? this.from);
    this.to = String(form.get('to') ?? this.to);
    this.notice = '';
    void this.load();
  }

  /** Adds the group's inputs to the target chosen in its row's picker, on the draft revision this page read. */
  private async add(group: MissGroup, kind: Kind, picker: HTMLSelectElement | null): Promise<void> {
    const misses = this.misses;
    if (!misses || misses.source.kind !== 'draft' || !picker) return;
    const draft = misses.source;
    if (!picker.value) {
      this.notice = '';
      this.error = t('missesChooseTarget');
      picker.focus();
      return;
    }
    this.notice = '';
    await this.change(async () => {
      const texts = [
        ...this.renderRoot.querySelectorAll<HTMLInputElement>(`input[name="input-${group.id}"]:checked`),
      ].map((box) => box.value);
      if (texts.length === 0) {
        this.error = t('missesNoneTicked');
        return;
      }
      const answer = await this.api.request('addMissesToDraft', {
        body: { target: { kind, id: picker.value }, texts, revision: draft.revision },
      });
      const target = targetWords({ kind, id: picker.value });
      const skipped = answer.skipped.length > 0 ? ` ${t('missesSkipped', { n: answer.skipped.length })}` : '';
      this.notice =
        answer.added.length > 0
          ? t(answer.added.length === 1 ? 'missesAddedOne' : 'missesAdded', {
              n: answer.added.length,
              target,
              revision: answer.revision,
            }) + skipped
          : t('missesNothingAdded', { target });
      await this.load();
    });
  }

  override render(): TemplateResult {
    const m = this.misses;
    return html`
      <fieldset>
        <legend>${t('missesRange')}</legend>
        <form @submit=${this.apply}>
          <label>${t('fromDay')}<input type="date" name="from" .value=${this.from} required /></label>
          <label>${t('toDay')}<input type="date" name="to" .value=${this.to} required /></label>
          <button type="submit">${t('show')}</button>
        </form>
      </fieldset>
      <p class="error" role="alert">${this.error}</p>
      <p role="status">${this.notice}</p>
      ${m ? this.renderMisses(m) : html`<p>${t('loading')}</p>`}
    `;
  }

  private sourceWords(m: Misses): string {
    if (m.source.kind === 'draft') return t('missesSourceDraft', { revision: m.source.revision });
    return m.source.versionId ? t('missesSourceVersion', { id: m.source.versionId }) : t('missesSourceNone');
  }

  private renderMisses(m: Misses): TemplateResult {
    const logs = [
      ['nlpLog', t('logNlp')],
      ['fuzzyQuestionAnswerLog', t('logFaq')],
    ] as const;
    const capped = logs.filter(([log]) => m.read[log].capped);
    return html`
      <p>${t('missesIntro', { source: this.sourceWords(m) })}</p>
      ${m.canAdd ? nothing : html`<p>${t('missesReadOnly')}</p>`}
      ${capped.map(([log, name]) => html`<p>${t('missesCapped', { log: name, cap: m.read.cap, time: new Date(m.read[log].readUpTo ?? 0).toISOString().slice(0, 16).replace('T', ' ') })}</p>`)}
      ${logs
        .filter(([log]) => m.read[log].distinct > m.read.groupedAtMost)
        .map(([log, name]) => html`<p>${mostFrequentSentence(name, m.read.groupedAtMost, m.read[log].distinct)}</p>`)}
      <div class="layout">
        <div>${this.groups(m, t('missesUnprocessed'), m.unprocessed)} ${this.groups(m, t('missesFaq'), m.faqMisses)}</div>
        ${this.quality(m)}
      </div>
    `;
  }

  private groups(m: Misses, caption: string, groups: readonly MissGroup[]): TemplateResult {
    if (groups.length === 0) return html`<h2>${caption}</h2><p>${t('missesNone')}</p>`;
    return dataTable(
      { caption, columns: [t('colInputs'), t('colCount'), t('colNearest'), ...(m.canAdd ? [t('colAdd')] : [])] },
      repeat(
        groups,
        (group) => group.id,
        (group) => this.row(m, group),
      ),
    );
  }

  private row(m: Misses, group: MissGroup): TemplateResult {
    const score = (n: number) => n.toFixed(2);
    const { intent, faq } = group.suggestion;
    return html`<tr>
      <th scope="row">
        <ul class="inputs">
          ${group.examples.map((e) => {
            // One span: the label lays out its box and its words side by side.
            const words = html`<span>${e.text}${e.count > 1 ? html` (${e.count})` : nothing}${e.taught ? html` <em>(${taughtWords(e.taught)})</em>` : nothing}</span>`;
            // Editors choose which of the group's inputs go: all those the draft lacks unless unticked.
            return m.canAdd
              ? html`<li><label><input type="checkbox" name="input-${group.id}" .value=${e.text} .checked=${!e.taught} />${words}</label></li>`
              : html`<li>${words}</li>`;
          })}
        </ul>
        ${group.distinct > group.examples.length ? html`<span>${t('moreInputs', { n: group.distinct - group.examples.length })}</span>` : nothing}
        ${group.taught.to.length > 0 ? html`<p class="taught"><strong>${t(group.taught.all ? 'groupTaught' : 'groupPartlyTaught', { targets: group.taught.to.map(targetWords).join(', ') })}</strong></p>` : nothing}
      </th>
      <td class="n">${group.count}</td>
      <td>
        ${intent ? t('nearestIntent', { id: intent.id, score: score(intent.score) }) : t('nearestNoIntent')}
        ${m.faq.length > 0 ? html`<br />${faq ? t('nearestFaq', { id: faq.id, score: score(faq.score) }) : t('nearestNoFaq')}` : nothing}
      </td>
      ${
        m.canAdd
          ? html`<td>
            ${
              m.intents.length > 0
                ? this.picker(
                    group,
                    'intent',
                    m.intents.map((i) => [i.id, i.id]),
                    intent?.id,
                  )
                : nothing
            }
            ${
              m.faq.length > 0
                ? this.picker(
                    group,
                    'faq',
                    m.faq.map((p) => [p.id, `${p.id}: ${p.question}`]),
                    faq?.id,
                  )
                : nothing
            }
          </td>`
          : nothing
      }
    </tr>`;
  }

  private picker(
    group: MissGroup,
    kind: Kind,
    options: readonly (readonly [string, string])[],
    suggested: string | undefined,
  ): TemplateResult {
    const lead = group.examples[0]!.text;
    const id = `${kind}-${group.id}`;
    return html`<div class="add">
      <select id=${id} aria-label=${t(kind === 'intent' ? 'intentFor' : 'faqFor', { text: lead })}>
        ${suggested ? nothing : html`<option value="" selected>${t(kind === 'intent' ? 'chooseIntent' : 'chooseFaq')}</option>`}
        ${options.map(([value, label]) => html`<option value=${value} ?selected=${value === suggested}>${label}</option>`)}
      </select>
      <button
        type="button"
        ?disabled=${this.busy}
        aria-label=${t(kind === 'intent' ? 'addToIntent' : 'addToFaq', { text: lead })}
        @click=${() => void this.add(group, kind, this.renderRoot.querySelector<HTMLSelectElement>(`#${id}`))}
      >
        ${t(kind === 'intent' ? 'addToIntentShort' : 'addToFaqShort')}
      </button>
    </div>`;
  }

  /** The calibrated threshold, whether the bot uses it, and what cross-validation expects of it. */
  private threshold(q: Misses['quality']): string {
    if (q.suggestedThreshold === null || q.atSuggested === null)
      return q.thresholdSource === 'definition'
        ? t('qualityOnlyDefinition', { threshold: q.threshold })
        : t('qualityNoThreshold', { threshold: q.threshold });
    const expected = {
      suggested: q.suggestedThreshold,
      routed: percent(q.atSuggested.routedRight),
      refused: percent(q.atSuggested.outOfScopeRecall),
    };
    return q.thresholdSource === 'calibrated'
      ? t('qualityThreshold', expected)
      : t('qualityThresholdOverridden', { ...expected, threshold: q.threshold });
  }

  private quality(m: Misses): TemplateResult {
    const q = m.quality;
    return html`<aside aria-labelledby="quality-title">
      <h2 id="quality-title">${t('qualityTitle', { source: this.sourceWords(m) })}</h2>
      <p>
        ${
          q.accuracy === null || q.accuracyAtThreshold === null
            ? t('qualityTooFew')
            : t('qualityAccuracy', {
                accuracy: percent(q.accuracy),
                atThreshold: percent(q.accuracyAtThreshold),
                threshold: q.threshold,
              })
        }
      </p>
      <p>${this.threshold(q)}</p>
      <p>${q.thinIntents.length > 0 ? t('qualityThin', { ids: q.thinIntents.join(', ') }) : t('qualityNoThin')}</p>
      ${
        q.confusable.length > 0
          ? dataTable(
              { caption: t('qualityConfusable'), columns: [t('colIntents'), t('colTimes')] },
              q.confusable.map(
                (c) =>
                  html`<tr><th scope="row">${c.intents[0]} / ${c.intents[1]}</th><td class="n">${c.count}</td></tr>`,
              ),
            )
          : html`<p>${t('qualityNoConfusable')}</p>`
      }
    </aside>`;
  }
}

customElements.define('insights-misses', InsightsMisses);

declare global {
  interface HTMLElementTagNameMap {
    'insights-misses': InsightsMisses;
  }
}
