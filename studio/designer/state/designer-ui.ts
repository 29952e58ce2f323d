import {
  copyDialogs,
  copySteps,
  pasteDialogs,
  pasteSteps,
  PasteError,
  readClipboard,
  type ClipboardPayload,
  type PasteResult,
} from '../model/clipboard.ts';
import { uniqueId } from '../model/ids.ts';
import { newStep } from '../model/new-step.ts';
import {
  deleteDialog,
  deleteStep,
  duplicateDialog,
  duplicateStep,
  insertDialog,
  insertStep,
  moveDialog,
  moveStep,
  renameDialog,
  renameStep,
} from '../model/operations.ts';
import { listReferences, isId } from '../model/references.ts';
import type { DefinitionDoc } from '../model/types.ts';
import { type DesignerStrings } from '../i18n/strings.ts';
import { format, plural } from '../../i18n/catalogue.ts';
import type { DesignerState } from './designer-state.ts';

export type View = 'outline' | 'map' | 'bot';

/** What should get focus after the next render: a step's header, a field of its form, a dialog, the add button. */
export type FocusRequest =
  | { readonly kind: 'step'; readonly dialog: number; readonly step: number; readonly field?: string }
  | { readonly kind: 'dialog'; readonly dialog: number }
  | { readonly kind: 'addStep' }
  | { readonly kind: 'mapStep'; readonly dialog: number; readonly step: number };

/**
 * The designer's user-facing actions over the document: each edits through DesignerState (so
 * it can be undone), moves the selection and focus where a keyboard user expects them, and says
 * what happened in the live region. Shared by the outline, the dialog list, the map and the
 * keyboard shortcuts, so a mouse and a key do exactly the same.
 */
export class DesignerUi {
  dialog = 0;
  /** The open step of the selected dialog, if any. */
  step: number | undefined;
  view: View = 'outline';
  focus: FocusRequest | undefined;
  /** Where the palette inserts: dialog and index. */
  palette: { dialog: number; at: number } | undefined;
  /** The position of a preview run (set from outside, e.g. the preview panel): highlighted on the outline and the map. */
  current: { dialog: string; step: string } | undefined;
  /** Values of variables and user data in a preview run (set from outside): shown in the variables panel. */
  liveValues: Readonly<Record<string, unknown>> | undefined;
  /** Figures per step (`dialogId/stepId`), e.g. reach and drop-off from insights: shown on the outline and the map. */
  figures: ReadonlyMap<string, { readonly text: string; readonly description?: string }> = new Map();

  private readonly listeners = new Set<() => void>();

  constructor(
    readonly state: DesignerState,
    public t: DesignerStrings,
    public locale: string,
    readonly announce: (text: string) => void,
    /** Writes text to the system clipboard (navigator.clipboard in the browser). */
    private readonly writeClipboard: (text: string) => Promise<void>,
  ) {}

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get definition(): DefinitionDoc | undefined {
    return this.state.definition;
  }

  changed(): void {
    for (const listener of this.listeners) listener();
  }

  kindName(type: string): string {
    return this.t.kinds[type] ?? type;
  }

  // Selection

  openDialog(dialog: number, focus = false): void {
    this.dialog = dialog;
    this.step = undefined;
    this.view = 'outline';
    if (focus) this.focus = { kind: 'dialog', dialog };
    this.state.here(this.definition?.dialogs[dialog]?.id);
    this.changed();
  }

  /** Opens a step in the outline (from the map, a problem, a search hit), its header or a field focused. */
  openStep(dialog: number, step: number | undefined, field?: string): void {
    this.dialog = dialog;
    this.step = step;
    this.view = 'outline';
    if (step !== undefined) this.focus = { kind: 'step', dialog, step, ...(field === undefined ? {} : { field }) };
    this.state.here(this.definition?.dialogs[dialog]?.id);
    this.changed();
  }

  toggleStep(step: number): void {
    this.step = this.step === step ? undefined : step;
    this.focus = { kind: 'step', dialog: this.dialog, step };
    this.changed();
  }

  setView(view: View): void {
    this.view = view;
    this.changed();
  }

  openPalette(dialog: number, at: number): void {
    this.palette = { dialog, at };
    this.changed();
  }

  closePalette(): void {
    this.palette = undefined;
    this.changed();
  }

  // Steps

  addStep(kind: string, stepType?: string): void {
    const place = this.palette ?? { dialog: this.dialog, at: this.definition?.dialogs[this.dialog]?.steps.length ?? 0 };
    this.palette = undefined;
    const definition = this.definition;
    if (!definition?.dialogs[place.dialog]) return;
    const other = definition.dialogs.find((_, i) => i !== place.dialog)?.id;
    const typeInfo = this.state.catalogue?.stepTypes.find((t) => t.name === stepType);
    const defaults = typeInfo ? requiredDefaults(typeInfo.params) : {};
    const step = newStep(kind, this.t, {
      ...(stepType === undefined ? {} : { stepType }),
      ...(other === undefined ? {} : { otherDialog: other }),
      defaults,
    });
    const id = uniqueId(
      step.id,
      definition.dialogs[place.dialog]!.steps.map((s) => s.id),
    );
    const label = format(this.t.inserted, { kind: this.kindName(kind), step: id });
    this.state.edit(label, (d) => insertStep(d, place.dialog, place.at, { ...step, id }));
    this.openStep(place.dialog, place.at, 'first');
    this.announce(label);
  }

  moveStep(step: number, by: number): void {
    const steps = this.definition?.dialogs[this.dialog]?.steps ?? [];
    const to = step + by;
    if (to < 0 || to >= steps.length) return;
    this.moveStepTo(step, to);
  }

  moveStepTo(from: number, to: number): void {
    const id = this.definition?.dialogs[this.dialog]?.steps[from]?.id ?? '';
    const label = format(this.t.moved, { step: id, n: to + 1 });
    if (!this.state.edit(label, (d) => moveStep(d, this.dialog, from, to))) return;
    if (this.step === from) this.step = to;
    this.focus = { kind: 'step', dialog: this.dialog, step: to };
    this.announce(label);
    this.changed();
  }

  deleteStep(step: number): void {
    const id = this.definition?.dialogs[this.dialog]?.steps[step]?.id ?? '';
    const label = format(this.t.deleted, { step: id });
    if (!this.state.edit(label, (d) => deleteStep(d, this.dialog, step))) return;
    this.step = undefined;
    const left = this.definition?.dialogs[this.dialog]?.steps.length ?? 0;
    this.focus =
      left === 0 ? { kind: 'addStep' } : { kind: 'step', dialog: this.dialog, step: Math.min(step, left - 1) };
    this.announce(label);
    this.changed();
  }

  duplicateStep(step: number): void {
    const label = this.duplicated(this.definition?.dialogs[this.dialog]?.steps ?? [], step);
    if (!this.state.edit(label, (d) => duplicateStep(d, this.dialog, step))) return;
    this.focus = { kind: 'step', dialog: this.dialog, step: step + 1 };
    this.announce(label);
    this.changed();
  }

  /** Renames a step; returns a sentence when the id cannot be used. */
  renameStep(step: number, newId: string): string | undefined {
    const dialog = this.definition?.dialogs[this.dialog];
    const old = dialog?.steps[step]?.id;
    if (!dialog || old === undefined || old === newId) return undefined;
    if (!isId(newId)) return this.t.idInvalid;
    if (dialog.steps.some((s) => s.id === newId)) return format(this.t.idTaken, { id: newId });
    const refs = listReferences(this.definition!).filter((r) => r.dialog === dialog.id && r.step === old).length;
    const label = format(this.t.renamed, { from: old, to: newId, n: refs });
    this.state.edit(label, (d) => renameStep(d, this.dialog, old, newId));
    this.announce(label);
    return undefined;
  }

  // Dialogs

  addDialog(): void {
    const definition = this.definition;
    if (!definition) return;
    const id = uniqueId(
      this.t.newDialogName,
      definition.dialogs.map((d) => d.id),
    );
    const at = definition.dialogs.length;
    const label = format(this.t.inserted, { kind: this.t.dialogs, step: id });
    this.state.edit(label, (d) => insertDialog(d, at, { id, steps: [newStep('message', this.t)] }));
    this.openDialog(at, true);
    this.announce(label);
  }

  renameDialog(dialog: number, newId: string): string | undefined {
    const definition = this.definition;
    const old = definition?.dialogs[dialog]?.id;
    if (!definition || old === undefined || old === newId) return undefined;
    if (!isId(newId)) return this.t.idInvalid;
    if (definition.dialogs.some((d) => d.id === newId)) return format(this.t.idTaken, { id: newId });
    const refs = listReferences(definition).filter((r) => r.dialog === old && r.shape !== 'step').length;
    const label = format(this.t.renamed, { from: old, to: newId, n: refs });
    this.state.edit(label, (d) => renameDialog(d, old, newId));
    this.announce(label);
    this.changed();
    return undefined;
  }

  moveDialog(dialog: number, by: number): void {
    const count = this.definition?.dialogs.length ?? 0;
    const to = dialog + by;
    if (to < 0 || to >= count) return;
    const id = this.definition!.dialogs[dialog]!.id;
    const label = format(this.t.moved, { step: id, n: to + 1 });
    this.state.edit(label, (d) => moveDialog(d, dialog, to));
    if (this.dialog === dialog) this.dialog = to;
    this.focus = { kind: 'dialog', dialog: to };
    this.announce(label);
    this.changed();
  }

  duplicateDialog(dialog: number): void {
    const label = this.duplicated(this.definition?.dialogs ?? [], dialog);
    if (!this.state.edit(label, (d) => duplicateDialog(d, dialog))) return;
    this.announce(label);
    this.openDialog(dialog + 1, true);
  }

  /** "Duplicated x as y": the item at `at` of the list, and the id its copy gets there. */
  private duplicated(list: readonly { readonly id: string }[], at: number): string {
    const id = list[at]?.id ?? '';
    return format(this.t.duplicated, {
      step: id,
      copy: uniqueId(
        id,
        list.map((item) => item.id),
      ),
    });
  }

  deleteDialog(dialog: number): void {
    const definition = this.definition;
    if (!definition || definition.dialogs.length <= 1) return;
    const id = definition.dialogs[dialog]?.id ?? '';
    const label = format(this.t.deleted, { step: id });
    this.state.edit(label, (d) => deleteDialog(d, dialog));
    this.dialog = Math.min(dialog, (this.definition?.dialogs.length ?? 1) - 1);
    this.step = undefined;
    this.focus = { kind: 'dialog', dialog: this.dialog };
    this.announce(label);
    this.changed();
  }

  // Clipboard

  payloadForSteps(steps: readonly number[]): ClipboardPayload | undefined {
    return this.definition ? copySteps(this.definition, this.dialog, steps) : undefined;
  }

  payloadForDialog(dialog: number): ClipboardPayload | undefined {
    return this.definition ? copyDialogs(this.definition, [dialog]) : undefined;
  }

  /** Copies through the Clipboard API (buttons); Ctrl+C goes through the copy event instead. */
  async copy(payload: ClipboardPayload | undefined): Promise<void> {
    if (!payload) return;
    try {
      await this.writeClipboard(JSON.stringify(payload, null, 2));
      this.copied(payload);
    } catch {
      this.announce(this.t.clipboardDenied);
    }
  }

  copied(payload: ClipboardPayload): void {
    this.announce(format(this.t.copied, { what: describe(payload) }));
  }

  /** Pastes clipboard text: dialogs after the selected dialog, steps after `afterStep` (or at the end) of the selected dialog. */
  paste(text: string, afterStep?: number): void {
    const definition = this.definition;
    if (!definition || this.state.readOnly) return;
    let payload: ClipboardPayload;
    try {
      payload = readClipboard(text);
    } catch (error) {
      const reason =
        error instanceof PasteError
          ? {
              tooLarge: this.t.pasteTooLarge,
              notJson: this.t.pasteNotJson,
              nothing: this.t.pasteNothing,
              tooDeep: this.t.pasteTooDeep,
            }[error.reason]
          : String(error);
      this.announce(format(this.t.pasteFailed, { reason }));
      return;
    }
    let result: PasteResult;
    const what = describe(payload);
    if (payload.kind === 'dialogs') {
      result = pasteDialogs(definition, payload, this.dialog + 1);
    } else {
      const at = afterStep === undefined ? (definition.dialogs[this.dialog]?.steps.length ?? 0) : afterStep + 1;
      result = pasteSteps(definition, payload, this.dialog, at);
    }
    const renames = result.renamed.map((r) => `${r.from} → ${r.to}`).join(', ');
    const label = renames === '' ? format(this.t.pasted, { what }) : format(this.t.pastedRenamed, { what, renames });
    this.state.edit(label, () => result.definition);
    if (payload.kind === 'dialogs') this.openDialog(result.indexes[0] ?? this.dialog, true);
    else if (result.indexes.length > 0) this.openStep(this.dialog, result.indexes[0]!);
    this.announce(
      result.declared.length > 0
        ? `${label} ${format(this.t.pastedDeclared, { fields: result.declared.join(', ') })}`
        : label,
    );
  }

  undo(): void {
    const label = this.state.undo();
    this.announce(label === undefined ? this.t.nothingToUndo : format(this.t.undone, { what: label }));
    this.keepSelection();
  }

  redo(): void {
    const label = this.state.redo();
    this.announce(label === undefined ? this.t.nothingToRedo : format(this.t.redone, { what: label }));
    this.keepSelection();
  }

  problemsSentence(): string {
    return plural(this.t.problemsUpdated, this.state.problems.length, this.locale);
  }

  /** After undo or redo the selection may point past the end; bring it back in range. */
  private keepSelection(): void {
    const dialogs = this.definition?.dialogs ?? [];
    if (this.dialog >= dialogs.length) this.dialog = Math.max(0, dialogs.length - 1);
    const steps = dialogs[this.dialog]?.steps.length ?? 0;
    if (this.step !== undefined && this.step >= steps) this.step = undefined;
    this.changed();
  }
}

function describe(payload: ClipboardPayload): string {
  return payload.items.map((item) => item.id).join(', ');
}

/** The defaults of a step type's required parameters, so a new step starts from them. */
function requiredDefaults(params: Record<string, unknown>): Record<string, unknown> {
  const properties = (params.properties ?? {}) as Record<string, { default?: unknown }>;
  const required = Array.isArray(params.required) ? (params.required as string[]) : [];
  return Object.fromEntries(
    required.filter((key) => properties[key]?.default !== undefined).map((key) => [key, properties[key]!.default]),
  );
}
