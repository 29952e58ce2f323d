import { LitElement, css, html, nothing } from 'lit';
import type { NameAtPoint } from '../model/variables.ts';
import type { PlacedProblem } from '../model/problems.ts';
import { base } from './styles.ts';
import { bound, states } from '../../app/reactive.ts';

let counter = 0;

/**
 * A text field whose value may hold `{{variable}}` templates, with autocomplete of the names a
 * conversation can hold at this step. Typing `{{` (or Ctrl+Space, or the button) opens the list;
 * arrows choose, Enter or Tab inserts, Escape closes. A one-line field is an ARIA combobox; a
 * multi-line one a textbox pointing at the same list (a textarea may not be a combobox).
 *
 * @fires value-change - detail `{ value }` on every change; `value` undefined when emptied.
 * @fires value-commit - when the field loses focus (ends one undo step).
 */
export class TemplateField extends LitElement {
  static override styles = [
    base,
    css`
      :host {
        display: block;
      }
      .row {
        display: flex;
        gap: 6px;
        align-items: flex-start;
      }
      .row > :first-child {
        flex: 1;
        min-width: 0;
      }
      [role='listbox'] {
        margin: 4px 0 0;
        padding: 4px;
        list-style: none;
        border: 1px solid var(--line);
        border-radius: var(--radius);
        background: var(--paper);
        max-height: 14em;
        overflow: auto;
        box-shadow: 0 4px 12px rgb(0 0 0 / 12%);
      }
      [role='option'] {
        padding: 4px 8px;
        border-radius: 4px;
        cursor: pointer;
        display: flex;
        justify-content: space-between;
        gap: 12px;
      }
      [role='option'][aria-selected='true'] {
        background: var(--accent);
        color: var(--accent-ink);
      }
      [role='option'] small {
        opacity: 0.85;
      }
      label {
        display: block;
        font-weight: 600;
        margin-bottom: 2px;
      }
      .req {
        font-weight: 400;
        color: var(--muted);
      }
      .insert {
        white-space: nowrap;
      }
    `,
  ];

  static override properties = {
    label: {},
    value: {},
    description: {},
    required: { type: Boolean },
    multiline: { type: Boolean },
    readonly: { type: Boolean },
    maxLength: { type: Number },
    ...bound('problems', 'names', 'kindLabels'),
    requiredText: {},
    insertText: {},
    listLabel: {},
    ...states('open', 'active', 'filter'),
  };

  declare label: string;
  declare value: string | undefined;
  declare description: string;
  declare required: boolean;
  declare multiline: boolean;
  declare readonly: boolean;
  declare maxLength: number | undefined;
  declare problems: readonly PlacedProblem[];
  /** The names offered; asked for when the list opens (they depend on the step's place in the flow). */
  declare names: () => readonly NameAtPoint[];
  declare kindLabels: Readonly<Record<string, string>>;
  declare requiredText: string;
  declare insertText: string;
  declare listLabel: string;
  declare private open: boolean;
  declare private active: number;
  declare private filter: string;

  constructor() {
    super();
    this.label = '';
    this.description = '';
    this.required = false;
    this.multiline = false;
    this.readonly = false;
    this.problems = [];
    this.names = () => [];
    this.kindLabels = {};
    this.requiredText = 'required';
    this.insertText = 'Insert a variable';
    this.listLabel = 'Variables';
    this.open = false;
    this.active = 0;
    this.filter = '';
  }

  private readonly uid = `tf${++counter}`;

  override focus(): void {
    this.renderRoot.querySelector<HTMLElement>('input, textarea')?.focus();
  }

  private options(): readonly NameAtPoint[] {
    const all = this.names();
    const wanted = this.filter.toLowerCase();
    return wanted === '' ? all : all.filter((n) => n.name.toLowerCase().includes(wanted));
  }

  override render() {
    const id = `${this.uid}-field`;
    const help = this.description ? `${this.uid}-help` : '';
    const problemIds = this.problems.map((_, i) => `${this.uid}-p${i}`);
    const describedBy = [help, ...problemIds].filter(Boolean).join(' ');
    const options = this.open ? this.options() : [];
    const active = options[this.active];
    const activeId = this.open && active ? `${this.uid}-o${this.active}` : '';
    const listId = `${this.uid}-list`;
    const invalid = this.problems.some((p) => p.severity !== 'warning');
    const common = {
      id,
      value: this.value ?? '',
    };
    const field = this.multiline
      ? html`<textarea
          id=${common.id}
          .value=${common.value}
          ?readonly=${this.readonly}
          ?required=${this.required}
          maxlength=${this.maxLength ?? nothing}
          aria-describedby=${describedBy || nothing}
          aria-invalid=${invalid ? 'true' : nothing}
          aria-controls=${this.open ? listId : nothing}
          aria-activedescendant=${activeId || nothing}
          @input=${this.onInput}
          @keydown=${this.onKeydown}
          @blur=${this.onBlur}
        ></textarea>`
      : html`<input
          id=${common.id}
          type="text"
          role="combobox"
          autocomplete="off"
          aria-autocomplete="list"
          aria-expanded=${this.open ? 'true' : 'false'}
          aria-controls=${listId}
          aria-activedescendant=${activeId || nothing}
          .value=${common.value}
          ?readonly=${this.readonly}
          ?required=${this.required}
          maxlength=${this.maxLength ?? nothing}
          aria-describedby=${describedBy || nothing}
          aria-invalid=${invalid ? 'true' : nothing}
          @input=${this.onInput}
          @keydown=${this.onKeydown}
          @blur=${this.onBlur}
        />`;
    return html`
      <label for=${id}>${this.label}${this.required ? html` <span class="req">(${this.requiredText})</span>` : nothing}</label>
      <div class="row">
        <div>${field}</div>
        ${
          this.readonly
            ? nothing
            : html`<button type="button" class="insert" aria-label=${`${this.insertText}: ${this.label}`} @mousedown=${(e: Event) => e.preventDefault()} @click=${this.openFromButton}>{{ }}</button>`
        }
      </div>
      <ul id=${listId} role="listbox" aria-label=${this.listLabel} ?hidden=${!this.open || options.length === 0}>
        ${options.map(
          (option, i) =>
            html`<li id=${`${this.uid}-o${i}`} role="option" aria-selected=${i === this.active ? 'true' : 'false'} @mousedown=${(e: Event) => e.preventDefault()} @click=${() => this.insert(option.name)}>
              <span>${option.name}</span><small>${this.kindLabels[option.kind] ?? option.kind}</small>
            </li>`,
        )}
      </ul>
      ${this.description ? html`<p class="help" id=${help}>${this.description}</p>` : nothing}
      ${this.problems.map((p, i) => html`<p class="problem ${p.severity}" id=${problemIds[i]!}>${p.message}${p.hint ? ` (${p.hint})` : ''}</p>`)}
    `;
  }

  private field(): HTMLInputElement | HTMLTextAreaElement | null {
    return this.renderRoot.querySelector('input, textarea');
  }

  private onInput(event: Event): void {
    const field = event.target as HTMLInputElement | HTMLTextAreaElement;
    this.emit(field.value);
    // Open the list while the caret sits in an unfinished `{{name`.
    const before = field.value.slice(0, field.selectionStart ?? field.value.length);
    const partial = /\{\{\s*([\w$.]*)$/.exec(before);
    if (partial) {
      this.filter = partial[1] ?? '';
      this.active = 0;
      this.open = true;
    } else this.open = false;
  }

  private onKeydown(event: KeyboardEvent): void {
    if (event.key === ' ' && event.ctrlKey) {
      event.preventDefault();
      this.filter = '';
      this.active = 0;
      this.open = true;
      return;
    }
    if (!this.open) return;
    const count = this.options().length;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (count > 0) this.active = (this.active + (event.key === 'ArrowDown' ? 1 : count - 1)) % count;
    } else if ((event.key === 'Enter' || event.key === 'Tab') && count > 0) {
      event.preventDefault();
      this.insert(this.options()[this.active]!.name);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      this.open = false;
    }
  }

  private onBlur(): void {
    this.open = false;
    this.dispatchEvent(new CustomEvent('value-commit', { bubbles: true, composed: true }));
  }

  private openFromButton(): void {
    this.filter = '';
    this.active = 0;
    this.open = true;
    this.field()?.focus();
  }

  /** Puts `{{name}}` at the caret, completing an unfinished `{{na` there. */
  private insert(name: string): void {
    const field = this.field();
    if (!field) return;
    const value = field.value;
    const caret = field.selectionStart ?? value.length;
    const before = value.slice(0, caret);
    const partial = /\{\{\s*[\w$.]*$/.exec(before);
    const start = partial ? caret - partial[0].length : caret;
    const text = `{{${name}}}`;
    const next = value.slice(0, start) + text + value.slice(caret);
    field.value = next;
    const at = start + text.length;
    field.setSelectionRange(at, at);
    this.open = false;
    this.emit(next);
  }

  private emit(value: string): void {
    this.value = value;
    this.dispatchEvent(
      new CustomEvent('value-change', {
        detail: { value: value === '' ? undefined : value },
        bubbles: true,
        composed: true,
      }),
    );
  }
}

customElements.define('template-field', TemplateField);

declare global {
  interface HTMLElementTagNameMap {
    'template-field': TemplateField;
  }
}
