import { LitElement, css, html, nothing } from 'lit';
import { format } from '../../i18n/catalogue.ts';
import { stepKinds } from '../model/schema-form.ts';
import { stepTypeName } from '../model/step-type-words.ts';
import type { DesignerUi } from '../state/designer-ui.ts';
import { base } from './styles.ts';
import { dialogStyles } from './dialog-styles.ts';
import { bound, states } from '../../app/reactive.ts';

interface Entry {
  readonly kind: string;
  readonly stepType?: string;
  /** In the person's words; the key (`kind` or `stepType`) is shown beside it, quieter, for whoever writes the JSON. */
  readonly name: string;
  readonly description: string;
  readonly group: 'kinds' | 'builtIn' | 'preset' | 'own';
}

/**
 * The palette: every step kind of the engine and every integration step type the server knows
 * (built in, presets, the bot's own modules) by its name in words, its key beside it in small type
 * for whoever writes the JSON, searchable by either and by its description. A modal
 * dialog: focus starts in the search, Enter takes the first match, Up/Down walk the list,
 * Escape closes and focus returns where it was.
 */
export class StepPalette extends LitElement {
  static override styles = [
    base,
    dialogStyles,
    css`
      :host {
        --dialog-width: 40rem;
      }
      label {
        display: block;
        font-weight: 600;
      }
      h3 {
        margin: 12px 0 4px;
        font-size: 0.95em;
        color: var(--muted);
      }
      ul {
        list-style: none;
        margin: 0;
        padding: 0;
      }
      li {
        position: relative;
        border: 1px solid transparent;
        border-radius: 6px;
        padding: 6px 8px;
      }
      li:hover,
      li:focus-within {
        border-color: var(--line);
      }
      .title {
        display: flex;
        flex-wrap: wrap;
        align-items: baseline;
        justify-content: space-between;
        gap: 0 8px;
      }
      /* The name is the button; its box stretches over the whole entry, so a click on the description picks it too. */
      li button {
        padding: 0;
        border: 0;
        background: none;
        font: inherit;
        font-weight: 600;
        text-align: start;
        color: inherit;
      }
      li button::after {
        content: '';
        position: absolute;
        inset: 0;
        cursor: pointer;
      }
      .key {
        font-family: ui-monospace, SFMono-Regular, Menlo, monospace;
        font-size: 0.8em;
        color: var(--muted);
        overflow-wrap: anywhere;
      }
      .description {
        display: block;
        color: var(--muted);
        font-size: 0.9em;
      }
    `,
  ];

  static override properties = {
    ...bound('ui'),
    open: { type: Boolean },
    ...states('query'),
  };

  declare ui: DesignerUi;
  declare open: boolean;
  declare private query: string;
  private returnFocus: Element | null = null;

  constructor() {
    super();
    this.open = false;
    this.query = '';
  }

  private entries(): Entry[] {
    const catalogue = this.ui.state.catalogue;
    if (!catalogue) return [];
    const kinds: Entry[] = stepKinds(catalogue.schema)
      .filter((k) => k.type !== 'integration')
      .map((k) => ({ kind: k.type, name: this.ui.kindName(k.type), description: k.description, group: 'kinds' }));
    const types: Entry[] = catalogue.stepTypes.map((type) => ({
      kind: 'integration',
      stepType: type.name,
      name: stepTypeName(this.ui.t, type.name),
      description: type.description,
      group: type.source,
    }));
    return [...kinds, ...types];
  }

  override render() {
    // Closed, the palette is an empty dialog: its entries are drawn when it opens, not with the designer's first screen.
    if (!this.open)
      return html`<dialog aria-labelledby="palette-title" @close=${this.onClose} @cancel=${this.onClose}></dialog>`;
    const t = this.ui.t;
    // Every word typed, in any order: "send webhook" finds "Send a webhook", "sheets row" the Sheets step.
    const wanted = this.query.toLowerCase().split(/\s+/).filter(Boolean);
    const entries = this.entries().filter((e) => {
      const text = `${e.name} ${e.kind} ${e.stepType ?? ''} ${e.description}`.toLowerCase();
      return wanted.every((word) => text.includes(word));
    });
    const groups: [Entry['group'], string][] = [
      ['kinds', t.paletteKinds],
      ['builtIn', t.paletteBuiltIn],
      ['preset', t.palettePresets],
      ['own', t.paletteOwn],
    ];
    return html`<dialog aria-labelledby="palette-title" @close=${this.onClose} @cancel=${this.onClose}>
      <div class="top">
        <h2 id="palette-title">${t.paletteTitle}</h2>
        <button type="button" @click=${() => this.ui.closePalette()}>${t.close}</button>
      </div>
      <label for="palette-search">${t.paletteSearch}</label>
      <input
        id="palette-search"
        type="search"
        autocomplete="off"
        .value=${this.query}
        aria-describedby="palette-count"
        @input=${(e: Event) => (this.query = (e.target as HTMLInputElement).value)}
        @keydown=${(e: KeyboardEvent) => this.onSearchKey(e, entries)}
      />
      <p id="palette-count" class="help" role="status">${entries.length === 0 ? format(t.paletteNone, { query: this.query }) : ''}</p>
      ${groups.map(([group, title]) => {
        const list = entries.filter((e) => e.group === group);
        if (list.length === 0) return nothing;
        return html`<h3 id=${`palette-${group}`}>${title}</h3>
          <ul aria-labelledby=${`palette-${group}`}>
            ${list.map((entry, i) => {
              // Named by its words alone; what it does and its key are read after the name.
              const id = `palette-${group}-${i}`;
              return html`<li>
                <span class="title">
                  <button
                    type="button"
                    data-entry
                    aria-describedby=${`${id}-description ${id}-key`}
                    @click=${() => this.pick(entry)}
                    @keydown=${this.onEntryKey}
                  >
                    ${entry.name}
                  </button>
                  <code class="key" id=${`${id}-key`}>${entry.stepType ?? entry.kind}</code>
                </span>
                <span class="description" id=${`${id}-description`}>${entry.description}</span>
              </li>`;
            })}
          </ul>`;
      })}
    </dialog>`;
  }

  override updated(changed: Map<string, unknown>): void {
    const dialog = this.renderRoot.querySelector('dialog');
    if (!dialog || !changed.has('open')) return;
    if (this.open && !dialog.open) {
      this.returnFocus = deepActive();
      this.query = '';
      dialog.showModal();
      this.renderRoot.querySelector<HTMLInputElement>('#palette-search')?.focus();
    } else if (!this.open && dialog.open) dialog.close();
  }

  private pick(entry: Entry): void {
    this.returnFocus = null;
    this.ui.addStep(entry.kind, entry.stepType);
  }

  private onClose = () => {
    if (this.open) this.ui.closePalette();
    (this.returnFocus as HTMLElement | null)?.focus?.();
    this.returnFocus = null;
  };

  private onSearchKey(event: KeyboardEvent, entries: Entry[]): void {
    if (event.key === 'Enter' && entries[0]) {
      event.preventDefault();
      this.pick(entries[0]);
    } else if (event.key === 'ArrowDown') {
      event.preventDefault();
      this.renderRoot.querySelector<HTMLElement>('[data-entry]')?.focus();
    }
  }

  private onEntryKey = (event: KeyboardEvent) => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    event.preventDefault();
    const all = [...this.renderRoot.querySelectorAll<HTMLElement>('[data-entry]')];
    const at = all.indexOf(event.currentTarget as HTMLElement);
    const next = at + (event.key === 'ArrowDown' ? 1 : -1);
    if (next < 0) this.renderRoot.querySelector<HTMLElement>('#palette-search')?.focus();
    else all[Math.min(next, all.length - 1)]?.focus();
  };
}

/** The focused element, looking inside shadow roots. */
export function deepActive(): Element | null {
  let active: Element | null = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active;
}

customElements.define('step-palette', StepPalette);

declare global {
  interface HTMLElementTagNameMap {
    'step-palette': StepPalette;
  }
}
