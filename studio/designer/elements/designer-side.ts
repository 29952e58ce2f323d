import { css, html, nothing } from 'lit';
import { DesignerPart } from './designer-part.ts';
import { format, plural } from '../../i18n/catalogue.ts';
import { formatPath } from '../model/paths.ts';
import type { PlacedProblem } from '../model/problems.ts';
import { searchDefinition } from '../model/search.ts';
import { variableIndex, type Place } from '../model/variables.ts';
import type { StepAt } from '../model/types.ts';
import { base } from './styles.ts';
import { fieldLabel, problemText } from '../model/problem-words.ts';
import { bound, states } from '../../app/reactive.ts';

export type SidePanel = 'problems' | 'variables' | 'search';

/**
 * The side panels: the problems `check` found (each opens its step at its field), the variables
 * with where each is set and used ("find references"), and search everywhere. One element, one
 * panel at a time, chosen by the designer's tabs.
 */
export class DesignerSide extends DesignerPart {
  static override styles = [
    base,
    css`
      :host {
        display: block;
      }
      label {
        display: block;
        font-weight: 600;
      }
      ul.list > li {
        padding: 6px 0;
        border-bottom: 1px solid var(--line);
      }
      .where {
        font-family: ui-monospace, SFMono-Regular, Menlo, monospace;
        font-size: 0.85em;
        overflow-wrap: anywhere;
      }
      .sev {
        font-weight: 600;
      }
      .sev.error {
        color: var(--danger);
      }
      .sev.warning {
        color: var(--warn);
      }
      .places {
        margin: 2px 0 0 12px;
        padding: 0;
        list-style: none;
        font-size: 0.9em;
      }
      .hint {
        color: var(--muted);
      }
      details summary {
        cursor: pointer;
        padding: 2px 0;
      }
      .kind {
        color: var(--muted);
        font-size: 0.85em;
      }
      .live {
        font-family: ui-monospace, SFMono-Regular, Menlo, monospace;
        font-size: 0.85em;
        color: var(--ok);
      }
    `,
  ];

  static override properties = {
    panel: {},
    ...bound('problems'),
    ...states('query', 'filter'),
  };

  declare panel: SidePanel;
  declare problems: readonly PlacedProblem[];
  declare private query: string;
  declare private filter: string;

  constructor() {
    super();
    this.panel = 'problems';
    this.problems = [];
    this.query = '';
    this.filter = '';
  }

  override render() {
    if (!this.definition || !this.ui) return nothing;
    if (this.panel === 'variables') return this.renderVariables();
    if (this.panel === 'search') return this.renderSearch();
    return this.renderProblems();
  }

  private where(at: StepAt | undefined, field: string): string {
    if (!at) return field;
    const dialog = this.definition.dialogs[at.dialog];
    const step = dialog?.steps[at.step];
    const label = fieldLabel(this.ui.t, field);
    return `${dialog?.id ?? '?'} / ${step?.id ?? '?'}${label ? ` · ${label}` : ''}`;
  }

  private renderProblems() {
    const t = this.ui.t;
    const state = this.ui.state;
    const sorted = [...this.problems].sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1));
    return html`
      <p class="help" aria-live="off">${state.checking ? t.checking : ''}${state.checkError ? format(t.checkFailed, { reason: state.checkError }) : ''}</p>
      ${sorted.length === 0 ? html`<p>${t.noProblems}</p>` : nothing}
      <ul class="plain list">
        ${sorted.map(
          (p) => html`<li>
            <span class="sev ${p.severity}">${p.severity === 'warning' ? t.warning : t.error}:</span>
            <span class="where">${p.at ? this.where(p.at, p.field) : `${t.outsideSteps} · ${p.field}`}</span>
            <div>${problemText(t, p)}</div>
            ${p.at ? html`<button type="button" class="link" @click=${() => this.ui.openStep(p.at!.dialog, p.at!.step, p.field || undefined)}>${t.goToProblem}<span class="visually-hidden">: ${this.where(p.at, p.field)}</span></button>` : nothing}
          </li>`,
        )}
      </ul>
    `;
  }

  private renderPlace(place: Place) {
    const at = place.at;
    const path = formatPath(place.path);
    if (!at) return html`<li class="where">${path}</li>`;
    const field = formatPath(place.path.slice(4));
    return html`<li><button type="button" class="link where" @click=${() => this.ui.openStep(at.dialog, at.step, field)}>${this.where(at, field)}</button></li>`;
  }

  private renderVariables() {
    const t = this.ui.t;
    const wanted = this.filter.trim().toLowerCase();
    const all = [...variableIndex(this.definition).values()].sort((a, b) => a.name.localeCompare(b.name));
    const shown = all.filter((v) => wanted === '' || v.name.toLowerCase().includes(wanted));
    const live = this.ui.liveValues;
    const kindText = (kind: string) =>
      kind === 'userData' ? t.declaredField : kind === 'builtIn' ? t.builtIn : t.suggestionKinds.variable;
    return html`
      <label for="variables-filter">${t.variablesSearch}</label>
      <input id="variables-filter" type="search" autocomplete="off" .value=${this.filter} @input=${(e: Event) => (this.filter = (e.target as HTMLInputElement).value)} />
      <ul class="plain list">
        ${shown.map(
          (v) => html`<li>
            <details>
              <summary>
                <span class="where">${v.name}</span> <span class="kind">${kindText(v.kind)}</span>
                ${live && v.name in live ? html`<span class="live">= ${JSON.stringify(live[v.name])}</span>` : nothing}
                <span class="visually-hidden">, ${format(t.findReferences, { name: v.name })}</span>
              </summary>
              <div>${t.setAt}:</div>
              <ul class="places">
                ${v.sets.filter((p) => p.at).length === 0 ? html`<li>${v.kind === 'userData' ? t.declaredField : v.kind === 'builtIn' ? t.builtIn : t.nowhere}</li>` : v.sets.filter((p) => p.at).map((p) => this.renderPlace(p))}
              </ul>
              <div>${t.usedAt}:</div>
              <ul class="places">
                ${v.uses.length === 0 ? html`<li>${t.nowhere}</li>` : v.uses.map((p) => this.renderPlace(p))}
              </ul>
            </details>
          </li>`,
        )}
      </ul>
    `;
  }

  private renderSearch() {
    const t = this.ui.t;
    const { hits, more } = searchDefinition(this.definition, this.query);
    return html`
      <label for="search-everywhere">${t.searchLabel}</label>
      <input id="search-everywhere" type="search" autocomplete="off" aria-describedby="search-help search-count" .value=${this.query} @input=${(e: Event) => (this.query = (e.target as HTMLInputElement).value)} />
      <p class="help" id="search-help">${t.searchHelp}</p>
      <p class="help" id="search-count" role="status">${this.query.trim() === '' ? '' : plural(t.searchResults, hits.length, this.ui.locale)}${more ? ` ${format(t.searchMore, { n: hits.length })}` : ''}</p>
      <ul class="plain list">
        ${hits.map((hit) => {
          const field = hit.at ? formatPath(hit.path.slice(4)) : formatPath(hit.path);
          const label = hit.at ? this.where(hit.at, hit.path.length > 4 ? field : 'id') : field;
          return html`<li>
            ${hit.at ? html`<button type="button" class="link where" @click=${() => this.ui.openStep(hit.at!.dialog, hit.at!.step, hit.path.length > 4 ? field : undefined)}>${label}</button>` : html`<span class="where">${label}</span>`}
            <div>${hit.excerpt}</div>
          </li>`;
        })}
      </ul>
    `;
  }

  /** Puts focus in the panel's own field (search, filter) when it opens from a shortcut. */
  focusInput(): void {
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>('input')?.focus());
  }
}

customElements.define('designer-side', DesignerSide);

declare global {
  interface HTMLElementTagNameMap {
    'designer-side': DesignerSide;
  }
}
