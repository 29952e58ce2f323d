import { LitElement, css, html, nothing } from 'lit';
import type { VersionConflictDetails } from '../backend/backend.ts';
import { format } from '../../i18n/catalogue.ts';
import { buildMerge, conflicts, mergeUnits, type MergeChoice, type MergeUnit } from '../model/merge.ts';
import { isObject, type DefinitionDoc, type DialogDoc } from '../model/types.ts';
import type { DesignerUi } from '../state/designer-ui.ts';
import { summary } from './designer-outline.ts';
import { base } from './styles.ts';
import { dialogStyles } from './dialog-styles.ts';
import { bound, states } from '../../app/reactive.ts';

/**
 * A save on a stale base: their version beside yours, part by part. What only one side changed
 * is merged already (and listed); where both changed the same dialog or section, the author
 * keeps theirs or mine. Saving stores the merge as a version on top of theirs: nothing is
 * overwritten unseen.
 *
 * @fires merge-resolved - detail `{ definition, baseVersionId }`.
 * @fires merge-cancelled
 */
export class ConflictView extends LitElement {
  static override styles = [
    base,
    dialogStyles,
    css`
      :host {
        --dialog-width: 64rem;
      }
      .sides {
        display: grid;
        grid-template-columns: repeat(auto-fit, minmax(16rem, 1fr));
        gap: 12px;
      }
      .side {
        border: 1px solid var(--line);
        border-radius: var(--radius);
        padding: 8px;
        background: var(--soft);
        overflow: auto;
        max-height: 40vh;
      }
      .side h3 {
        font-size: 1rem;
        margin-bottom: 4px;
      }
      pre {
        margin: 0;
        white-space: pre-wrap;
        overflow-wrap: anywhere;
        font-size: 0.85em;
      }
      fieldset {
        margin: 12px 0;
        border: 1px solid var(--line);
        border-radius: var(--radius);
      }
      legend {
        font-weight: 600;
      }
      .choices {
        display: flex;
        flex-wrap: wrap;
        gap: 16px;
        margin-top: 8px;
      }
      .buttons {
        display: flex;
        gap: 8px;
        justify-content: flex-end;
        margin-top: 12px;
      }
      ol {
        margin: 0;
        padding-inline-start: 1.4em;
      }
    `,
  ];

  static override properties = {
    ...bound('ui', 'details', 'yours'),
    ...states('choices'),
  };

  declare ui: DesignerUi;
  declare details: VersionConflictDetails | undefined;
  declare yours: DefinitionDoc | undefined;
  declare private choices: Map<string, MergeChoice>;

  constructor() {
    super();
    this.choices = new Map();
  }

  private units(): MergeUnit[] {
    if (!this.details || !this.yours) return [];
    const rawBase = this.details.base as unknown;
    // The base may come as a definition or as a version holding one; without it, every difference is a question.
    const baseDefinition = (isObject(rawBase) && isObject(rawBase.definition) ? rawBase.definition : rawBase) as
      DefinitionDoc | undefined;
    return mergeUnits(
      baseDefinition ?? ({ settings: {}, dialogs: [] } as DefinitionDoc),
      this.details.theirs.definition,
      this.yours,
    );
  }

  override render() {
    const t = this.ui?.t;
    if (!t || !this.details) return html`<dialog></dialog>`;
    const units = this.units();
    const open = conflicts(units);
    const merged = units.filter((u) => u.status === 'theirs' || u.status === 'yours');
    const time = this.details.theirs.createdAt
      ? new Date(this.details.theirs.createdAt).toLocaleString(this.ui.locale)
      : '';
    return html`<dialog aria-labelledby="conflict-title" aria-describedby="conflict-intro" @cancel=${this.cancel}>
      <h2 id="conflict-title">${t.conflictTitle}</h2>
      <p id="conflict-intro">${format(t.conflictIntro, { author: this.details.theirs.author ?? t.someone, time })}</p>
      ${merged.length > 0 ? html`<p>${format(t.conflictMerged, { parts: merged.map((u) => u.name).join(', ') })}</p>` : nothing}
      ${open.map((unit) => {
        const choice = this.choices.get(unit.key) ?? 'yours';
        const name = `choice-${unit.key.replace(/[^A-Za-z0-9_-]/g, '_')}`;
        return html`<fieldset>
          <legend>${format(t.conflictChoice, { part: unit.name })}</legend>
          <div class="sides">
            <section class="side" aria-label=${`${t.conflictTheirs}: ${unit.name}`}>
              <h3>${t.conflictTheirs}</h3>
              ${this.show(unit, unit.theirs)}
            </section>
            <section class="side" aria-label=${`${t.conflictYours}: ${unit.name}`}>
              <h3>${t.conflictYours}</h3>
              ${this.show(unit, unit.yours)}
            </section>
          </div>
          <div class="choices">
            <label><input type="radio" name=${name} value="theirs" .checked=${choice === 'theirs'} @change=${() => this.choose(unit.key, 'theirs')} /> ${t.conflictKeepTheirs}</label>
            <label><input type="radio" name=${name} value="yours" .checked=${choice === 'yours'} @change=${() => this.choose(unit.key, 'yours')} /> ${t.conflictKeepYours}</label>
          </div>
        </fieldset>`;
      })}
      <div class="buttons">
        <button type="button" @click=${this.cancel}>${t.cancel}</button>
        <button type="button" class="primary" @click=${() => this.resolve(units)}>${t.conflictSave}</button>
      </div>
    </dialog>`;
  }

  override updated(): void {
    const dialog = this.renderRoot.querySelector('dialog');
    if (this.details && dialog && !dialog.open) {
      dialog.showModal();
      dialog.querySelector<HTMLElement>('input[type="radio"], button.primary')?.focus();
    }
  }

  private show(unit: MergeUnit, value: unknown) {
    if (value === undefined) return html`<p>${this.ui.t.conflictNone}</p>`;
    if (unit.kind === 'dialog' && isObject(value) && Array.isArray((value as DialogDoc).steps)) {
      return html`<ol>${(value as DialogDoc).steps.map((step) => html`<li><strong>${this.ui.kindName(step.type)}</strong> ${step.id}: ${summary(step, this.ui.t)}</li>`)}</ol>`;
    }
    return html`<pre>${JSON.stringify(value, null, 2)}</pre>`;
  }

  private choose(key: string, choice: MergeChoice): void {
    this.choices = new Map(this.choices).set(key, choice);
  }

  private resolve(units: MergeUnit[]): void {
    const definition = buildMerge(units, this.choices);
    const baseVersionId = this.details!.theirs.id;
    this.close();
    this.dispatchEvent(
      new CustomEvent('merge-resolved', { detail: { definition, baseVersionId }, bubbles: true, composed: true }),
    );
  }

  private cancel = (event?: Event) => {
    event?.preventDefault();
    this.close();
    this.dispatchEvent(new CustomEvent('merge-cancelled', { bubbles: true, composed: true }));
  };

  private close(): void {
    this.renderRoot.querySelector('dialog')?.close();
    this.choices = new Map();
  }
}

customElements.define('conflict-view', ConflictView);

declare global {
  interface HTMLElementTagNameMap {
    'conflict-view': ConflictView;
  }
}
