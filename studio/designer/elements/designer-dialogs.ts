import { css, html, nothing } from 'lit';
import { DesignerPart } from './designer-part.ts';
import { repeat } from 'lit/directives/repeat.js';
import { format, plural } from '../../i18n/catalogue.ts';
import type { PlacedProblem } from '../model/problems.ts';
import { stableKeys } from './designer-outline.ts';
import { listKey } from './list-keys.ts';
import { short } from './short-label.ts';
import { base } from './styles.ts';
import { bound, states } from '../../app/reactive.ts';

/**
 * The dialog list: one button per dialog (the selected one marked current), with its step
 * count and problems; Up/Down move between dialogs, Alt+Up/Down move the dialog itself. The
 * selected dialog's own tools (rename with every reference following, duplicate, copy, move,
 * delete) sit under it.
 */
export class DesignerDialogs extends DesignerPart {
  static override styles = [
    base,
    css`
      :host {
        display: block;
      }
      ol {
        list-style: none;
        margin: 0;
        padding: 0;
      }
      li + li {
        margin-top: 2px;
      }
      button.dialog {
        width: 100%;
        display: flex;
        justify-content: space-between;
        align-items: center;
        gap: 8px;
        text-align: start;
        border-color: transparent;
        background: none;
      }
      button.dialog[aria-current='true'] {
        background: #e3eefa;
        border-color: var(--accent);
        font-weight: 600;
      }
      .name {
        overflow-wrap: anywhere;
        font-family: ui-monospace, SFMono-Regular, Menlo, monospace;
      }
      .meta {
        display: flex;
        gap: 4px;
        align-items: center;
        flex-shrink: 0;
        font-weight: 400;
        color: var(--muted);
      }
      .tools {
        margin: 6px 0 10px;
        padding: 8px;
        border: 1px solid var(--line);
        border-radius: var(--radius);
        background: var(--soft);
      }
      .tools label {
        display: block;
        font-weight: 600;
      }
      .buttons {
        display: flex;
        flex-wrap: wrap;
        gap: 4px;
        margin-top: 6px;
      }
      .start {
        font-size: 0.75em;
        text-transform: uppercase;
        letter-spacing: 0.04em;
      }
    `,
  ];

  static override properties = {
    selected: { type: Number },
    ...bound('byStep'),
    ...states('renameError'),
  };

  declare selected: number;
  declare byStep: ReadonlyMap<string, PlacedProblem[]>;
  declare private renameError: string;

  constructor() {
    super();
    this.byStep = new Map();
    this.renameError = '';
  }

  /**
   * Not drawn again when the only change is inside a dialog's steps (a key typed in a step's form):
   * the list shows each dialog's id and step count, and redrawing a few hundred of them would cost
   * that key for nothing. A focus asked for a dialog (after an undo) still draws.
   */
  override shouldUpdate(changed: Map<PropertyKey, unknown>): boolean {
    if (changed.size !== 1 || !changed.has('definition') || this.ui?.focus?.kind === 'dialog') return true;
    return !sameList(changed.get('definition') as DesignerDialogs['definition'] | undefined, this.definition);
  }

  override render() {
    const dialogs = this.definition?.dialogs ?? [];
    const t = this.ui.t;
    const errorsOf = (d: number) => {
      let n = 0;
      for (const [key, list] of this.byStep)
        if (key.startsWith(`${d}/`)) n += list.filter((p) => p.severity !== 'warning').length;
      return n;
    };
    return html`
      <div class="top">
        <h2 id="dialogs-title">${plural(t.dialogsCount, dialogs.length, this.ui.locale)}</h2>
        ${this.readOnly ? nothing : html`<button type="button" @click=${() => this.ui.addDialog()}>${short('+', t.addDialog)}</button>`}
      </div>
      <ol aria-labelledby="dialogs-title">
        ${repeat(dialogs, stableKeys(dialogs), (dialog, d) => {
          const errors = errorsOf(d);
          const current = d === this.selected;
          return html`<li>
              <button type="button" class="dialog" data-dialog=${d} aria-current=${current ? 'true' : 'false'} @click=${() => this.ui.openDialog(d)} @keydown=${(e: KeyboardEvent) => this.onKey(e, d, dialogs.length)}>
                <span class="name">${dialog.id}</span>
                <span class="meta">
                  ${this.definition.settings?.startDialog === dialog.id ? html`<span class="start">${t.startDialog}</span>` : nothing}
                  <span aria-hidden="true">${dialog.steps.length}</span>
                  ${errors > 0 ? html`<span class="badge error">${plural(t.stepProblems, errors, this.ui.locale)}</span>` : nothing}
                </span>
              </button>
              ${current && !this.readOnly ? this.renderTools(d, dialog.id, dialogs.length) : nothing}
            </li>`;
        })}
      </ol>
    `;
  }

  private renderTools(d: number, id: string, count: number) {
    const t = this.ui.t;
    return html`<div class="tools" role="group" aria-label=${format(t.dialogActions, { dialog: id })}>
      <label for="dialog-id">${t.dialogId}</label>
      <input
        id="dialog-id"
        type="text"
        autocomplete="off"
        spellcheck="false"
        .value=${id}
        aria-describedby=${`dialog-id-help${this.renameError ? ' dialog-id-error' : ''}`}
        aria-invalid=${this.renameError ? 'true' : nothing}
        @change=${(e: Event) => {
          const input = e.target as HTMLInputElement;
          this.renameError = this.ui.renameDialog(d, input.value.trim()) ?? '';
          if (this.renameError) input.value = id;
        }}
      />
      <p class="help" id="dialog-id-help">${t.dialogIdHelp}</p>
      ${this.renameError ? html`<p class="problem" id="dialog-id-error" role="alert">${this.renameError}</p>` : nothing}
      <div class="buttons">
        <button type="button" ?disabled=${d === 0} @click=${() => this.ui.moveDialog(d, -1)}>${short('↑', t.moveDialogUp)}</button>
        <button type="button" ?disabled=${d === count - 1} @click=${() => this.ui.moveDialog(d, 1)}>${short('↓', t.moveDialogDown)}</button>
        <button type="button" @click=${() => this.ui.duplicateDialog(d)}>${t.duplicateDialog}</button>
        <button type="button" @click=${() => void this.ui.copy(this.ui.payloadForDialog(d))}>${t.copyDialog}</button>
        <button type="button" @click=${() => void this.paste()}>${t.paste}</button>
        <button type="button" class="danger" ?disabled=${count <= 1} @click=${() => this.ui.deleteDialog(d)}>${t.deleteDialog}</button>
      </div>
    </div>`;
  }

  override updated(): void {
    const focus = this.ui?.focus;
    if (focus?.kind === 'dialog') {
      this.ui.focus = undefined;
      this.renderRoot.querySelector<HTMLElement>(`[data-dialog="${focus.dialog}"]`)?.focus();
    }
  }

  private async paste(): Promise<void> {
    try {
      this.ui.paste(await navigator.clipboard.readText());
    } catch {
      this.ui.announce(this.ui.t.clipboardDenied);
    }
  }

  private onKey(event: KeyboardEvent, d: number, count: number): void {
    const focus = (n: number) => this.renderRoot.querySelector<HTMLElement>(`[data-dialog="${n}"]`)?.focus();
    const key = listKey(event, d, count);
    if (key && 'focus' in key) focus(key.focus);
    else if (key && !this.readOnly) this.ui.moveDialog(d, key.move);
  }
}

/** Whether two definitions show the same dialog list: the same start dialog, and each dialog with the same id and number of steps. */
function sameList(before: DesignerDialogs['definition'] | undefined, after: DesignerDialogs['definition']): boolean {
  if (!before || !after) return before === after;
  if (before.settings?.startDialog !== after.settings?.startDialog) return false;
  const a = before.dialogs ?? [];
  const b = after.dialogs ?? [];
  return (
    a.length === b.length &&
    a.every(
      (dialog, i) => dialog === b[i] || (dialog?.id === b[i]?.id && dialog?.steps?.length === b[i]?.steps?.length),
    )
  );
}

customElements.define('designer-dialogs', DesignerDialogs);

declare global {
  interface HTMLElementTagNameMap {
    'designer-dialogs': DesignerDialogs;
  }
}
