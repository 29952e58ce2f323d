import { css, html, nothing } from 'lit';
import { DesignerPart } from './designer-part.ts';
import { repeat } from 'lit/directives/repeat.js';
import { format, plural } from '../../i18n/catalogue.ts';
import type { PlacedProblem } from '../model/problems.ts';
import type { StepDoc } from '../model/types.ts';
import type { DesignerStrings } from '../i18n/strings.ts';
import { stepTypeName } from '../model/step-type-words.ts';
import type { DesignerUi } from '../state/designer-ui.ts';
import { listKey } from './list-keys.ts';
import { short } from './short-label.ts';
import { base } from './styles.ts';
import type { StepForm } from './step-form.ts';
import './step-form.ts';
import { bound, states } from '../../app/reactive.ts';

const DRAG_TYPE = 'application/x-chatbot-step';

/**
 * The outline: the selected dialog's steps as cards in order. A card's header opens its form;
 * on the header, Alt+Up/Down move the step, Delete removes it, Ctrl+D duplicates it and Up/Down
 * go to the next card. The header row can be dragged to reorder. Problems show as a count on
 * the card and on their fields.
 */
export class DesignerOutline extends DesignerPart {
  static override styles = [
    base,
    css`
      :host {
        display: block;
      }
      .head {
        display: flex;
        flex-wrap: wrap;
        align-items: center;
        justify-content: space-between;
        gap: 8px;
        margin-bottom: 8px;
      }
      ol.steps {
        list-style: none;
        margin: 0;
        padding: 0;
      }
      .card {
        border: 1px solid var(--line);
        border-radius: var(--radius);
        background: var(--paper);
        margin-bottom: 8px;
      }
      .card.open {
        border-color: var(--accent);
        box-shadow: 0 0 0 1px var(--accent);
      }
      .card.current {
        background: #eef6ff;
      }
      .card.drop-before {
        box-shadow: 0 -3px 0 var(--accent);
      }
      .card.drop-after {
        box-shadow: 0 3px 0 var(--accent);
      }
      .card-head {
        display: flex;
        align-items: stretch;
        gap: 4px;
      }
      .grip {
        display: flex;
        align-items: center;
        padding: 0 6px;
        color: var(--muted);
        cursor: grab;
        user-select: none;
      }
      button.title {
        flex: 1;
        min-width: 0;
        display: grid;
        grid-template-columns: auto 1fr auto;
        gap: 2px 10px;
        align-items: baseline;
        text-align: start;
        border: none;
        background: none;
        padding: 8px;
      }
      .kind {
        font-weight: 600;
      }
      .id {
        font-family: ui-monospace, SFMono-Regular, Menlo, monospace;
        overflow-wrap: anywhere;
      }
      .summary {
        grid-column: 1 / -1;
        color: var(--muted);
        overflow: hidden;
        text-overflow: ellipsis;
        white-space: nowrap;
      }
      .marks {
        display: flex;
        gap: 4px;
        flex-wrap: wrap;
        justify-content: flex-end;
      }
      .body {
        padding: 0 12px 12px;
        border-top: 1px solid var(--line);
      }
      .actions {
        display: flex;
        flex-wrap: wrap;
        gap: 6px;
        margin: 10px 0;
      }
      .empty {
        color: var(--muted);
      }
      .keys {
        color: var(--muted);
        font-size: 0.85em;
      }
    `,
  ];

  static override properties = {
    dialog: { type: Number },
    open: { type: Number },
    ...bound('byStep', 'current', 'figures'),
    ...states('dropAt'),
  };

  /** A preview's position (ui.current), passed so the outline draws again when it moves. */
  declare current: DesignerUi['current'];
  /** The reach and drop-off figures (ui.figures), passed so the outline draws them when they arrive after it. */
  declare figures: DesignerUi['figures'];
  declare dialog: number;
  declare open: number | undefined;
  declare byStep: ReadonlyMap<string, PlacedProblem[]>;
  declare private dropAt: { index: number; after: boolean } | undefined;
  private dragFrom: number | undefined;

  constructor() {
    super();
    this.byStep = new Map();
  }

  override render() {
    const dialog = this.definition?.dialogs[this.dialog];
    if (!dialog) return nothing;
    const t = this.ui.t;
    const steps = dialog.steps;
    return html`
      <div class="head">
        <h2 id="outline-title">${format(t.steps, { dialog: dialog.id })}</h2>
        ${this.readOnly ? nothing : html`<p class="keys" id="outline-keys">${t.keyboardHelp}</p>`}
      </div>
      ${steps.length === 0 ? html`<p class="empty">${t.noSteps}</p>` : nothing}
      <ol class="steps" aria-labelledby="outline-title">
        ${repeat(steps, stableKeys(steps), (step, i) => this.renderCard(step, i, steps.length))}
      </ol>
      ${this.readOnly ? nothing : html`<button type="button" class="primary" data-add-step @click=${() => this.ui.openPalette(this.dialog, steps.length)}>${t.addStep}</button>`}
    `;
  }

  private renderCard(step: StepDoc, i: number, total: number) {
    const t = this.ui.t;
    const dialogId = this.definition.dialogs[this.dialog]!.id;
    const problems = this.byStep.get(`${this.dialog}/${i}`) ?? [];
    const errors = problems.filter((p) => p.severity !== 'warning').length;
    const warnings = problems.length - errors;
    const open = this.open === i;
    const current = this.ui.current?.dialog === dialogId && this.ui.current.step === step.id;
    const figure = this.figures?.get(`${dialogId}/${step.id}`);
    const drop = this.dropAt?.index === i ? (this.dropAt.after ? 'drop-after' : 'drop-before') : '';
    return html`<li class="card ${open ? 'open' : ''} ${current ? 'current' : ''} ${drop}" data-step=${i} @dragover=${(e: DragEvent) => this.onDragOver(e, i)} @dragleave=${() => (this.dropAt = undefined)} @drop=${(e: DragEvent) => this.onDrop(e, i)}>
      <div class="card-head" draggable=${this.readOnly ? 'false' : 'true'} @dragstart=${(e: DragEvent) => this.onDragStart(e, i)} @dragend=${() => this.onDragEnd()}>
        ${this.readOnly ? nothing : html`<span class="grip" aria-hidden="true" title=${format(t.dragHandle, { step: step.id })}>⠿</span>`}
        <button
          type="button"
          class="title"
          id=${`step-head-${i}`}
          data-step-head=${i}
          aria-expanded=${open ? 'true' : 'false'}
          aria-current=${current ? 'step' : nothing}
          aria-controls=${`step-body-${i}`}
          aria-describedby=${this.readOnly ? nothing : 'outline-keys'}
          @click=${() => this.ui.toggleStep(i)}
          @keydown=${(e: KeyboardEvent) => this.onHeadKey(e, i, total)}
        >
          <span class="kind">${this.ui.kindName(step.type)}</span>
          <span class="id">${step.id}</span>
          <span class="marks">
            ${errors > 0 ? html`<span class="badge error">${plural(t.stepProblems, errors, this.ui.locale)}</span>` : nothing}
            ${warnings > 0 ? html`<span class="badge warning">${plural(t.stepProblems, warnings, this.ui.locale)}</span>` : nothing}
            ${figure ? html`<span class="badge" title=${figure.description ?? nothing}>${figure.text}</span>` : nothing}
            <span class="visually-hidden">, ${format(t.stepPosition, { n: i + 1, total })}${current ? `, ${t.preview}` : ''}</span>
          </span>
          <span class="summary">${summary(step, t)}</span>
        </button>
      </div>
      ${
        open
          ? html`<div class="body" id=${`step-body-${i}`} role="group" aria-label=${format(t.form, { step: step.id })}>
            ${
              this.readOnly
                ? nothing
                : html`<div class="actions">
                  <button type="button" ?disabled=${i === 0} @click=${() => this.ui.moveStep(i, -1)}>${t.moveUp}<span class="visually-hidden"> ${step.id}</span></button>
                  <button type="button" ?disabled=${i === total - 1} @click=${() => this.ui.moveStep(i, 1)}>${t.moveDown}<span class="visually-hidden"> ${step.id}</span></button>
                  <button type="button" @click=${() => this.ui.duplicateStep(i)}>${t.duplicate}<span class="visually-hidden"> ${step.id}</span></button>
                  <button type="button" @click=${() => void this.ui.copy(this.ui.payloadForSteps([i]))}>${t.copy}<span class="visually-hidden"> ${step.id}</span></button>
                  <button type="button" @click=${() => void this.pasteAfter(i)}>${t.paste}</button>
                  <button type="button" @click=${() => this.ui.openPalette(this.dialog, i + 1)}>${short('+', format(t.insertAfter, { step: step.id }))}</button>
                  <button type="button" class="danger" @click=${() => this.ui.deleteStep(i)}>${t.delete}<span class="visually-hidden"> ${step.id}</span></button>
                </div>`
            }
            <step-form .ui=${this.ui} .definition=${this.definition} .dialog=${this.dialog} .step=${i} .problems=${problems} .readOnly=${this.readOnly}></step-form>
          </div>`
          : html`<div id=${`step-body-${i}`} hidden></div>`
      }
    </li>`;
  }

  /** Puts focus where the last action asked: a step's header or a field of its form, or the add button. */
  override updated(): void {
    const focus = this.ui?.focus;
    if (!focus) return;
    if (focus.kind === 'addStep') {
      this.ui.focus = undefined;
      this.renderRoot.querySelector<HTMLElement>('[data-add-step]')?.focus();
    } else if (focus.kind === 'step' && focus.dialog === this.dialog) {
      this.ui.focus = undefined;
      if (focus.field !== undefined && this.open === focus.step)
        this.renderRoot.querySelector<StepForm>('step-form')?.focusField(focus.field);
      else this.renderRoot.querySelector<HTMLElement>(`[data-step-head="${focus.step}"]`)?.focus();
    }
  }

  private async pasteAfter(i: number): Promise<void> {
    try {
      this.ui.paste(await navigator.clipboard.readText(), i);
    } catch {
      this.ui.announce(this.ui.t.clipboardDenied);
    }
  }

  private onHeadKey(event: KeyboardEvent, i: number, total: number): void {
    const focusHead = (n: number) => this.renderRoot.querySelector<HTMLElement>(`[data-step-head="${n}"]`)?.focus();
    const key = listKey(event, i, total);
    if (key) {
      if ('focus' in key) focusHead(key.focus);
      else if (!this.readOnly) this.ui.moveStep(i, key.move);
    } else if ((event.key === 'Delete' || event.key === 'Backspace') && !this.readOnly) {
      event.preventDefault();
      this.ui.deleteStep(i);
    } else if (event.key.toLowerCase() === 'd' && (event.ctrlKey || event.metaKey) && !this.readOnly) {
      event.preventDefault();
      this.ui.duplicateStep(i);
    }
  }

  private onDragStart(event: DragEvent, i: number): void {
    if (this.readOnly || !event.dataTransfer) return;
    this.dragFrom = i;
    event.dataTransfer.effectAllowed = 'move';
    event.dataTransfer.setData(DRAG_TYPE, String(i));
    event.dataTransfer.setData('text/plain', this.definition.dialogs[this.dialog]?.steps[i]?.id ?? '');
  }

  private onDragOver(event: DragEvent, i: number): void {
    if (this.dragFrom === undefined) return;
    event.preventDefault();
    if (event.dataTransfer) event.dataTransfer.dropEffect = 'move';
    const box = (event.currentTarget as HTMLElement).getBoundingClientRect();
    const after = event.clientY > box.top + box.height / 2;
    if (this.dropAt?.index !== i || this.dropAt.after !== after) this.dropAt = { index: i, after };
  }

  private onDrop(event: DragEvent, i: number): void {
    event.preventDefault();
    const from = this.dragFrom;
    const after = this.dropAt?.after ?? false;
    this.onDragEnd();
    if (from === undefined) return;
    // The index the step has once it is out of the list, then put before or after the card it was dropped on.
    let to = i + (after ? 1 : 0);
    if (from < to) to -= 1;
    if (to !== from) this.ui.moveStepTo(from, to);
  }

  private onDragEnd(): void {
    this.dragFrom = undefined;
    this.dropAt = undefined;
  }
}

/**
 * Keys that follow a step when it moves (its id), so a moved card keeps its DOM node and the
 * focus on it; a repeated id (a mistake check reports) gets its occurrence added.
 */
export function stableKeys(items: readonly { id: string }[]): (item: { id: string }, index: number) => string {
  const keys = new Map<number, string>();
  const seen = new Map<string, number>();
  items.forEach((item, i) => {
    const n = seen.get(item.id) ?? 0;
    seen.set(item.id, n + 1);
    keys.set(i, n === 0 ? item.id : `${item.id}#${n}`);
  });
  return (_item, index) => keys.get(index)!;
}

/** One line saying what a step does: its text, question, target or call (the step type in words, as the palette names it). */
export function summary(step: StepDoc, t: DesignerStrings): string {
  const pick = (value: unknown) => (typeof value === 'string' ? value : '');
  const text =
    pick(step.text) ||
    pick(step.prompt) ||
    pick(step.subject) ||
    pick(step.message) ||
    (step.type === 'goto' ? `→ ${pick(step.dialog)}${step.step ? ` / ${pick(step.step)}` : ''}` : '') ||
    (step.type === 'integration'
      ? `${stepTypeName(t, pick(step.integration))}${step.output ? ` → ${pick(step.output)}` : ''}`
      : '') ||
    (step.type === 'wait' ? pick(step.duration) : '') ||
    (step.type === 'event' ? pick(step.name) : '');
  return text.length > 120 ? `${text.slice(0, 117)}…` : text;
}

customElements.define('designer-outline', DesignerOutline);

declare global {
  interface HTMLElementTagNameMap {
    'designer-outline': DesignerOutline;
  }
}
