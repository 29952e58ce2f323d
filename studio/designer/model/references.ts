import { getAt, setAt } from './paths.ts';
import { isObject, type DefinitionDoc, type Loose, type Path, type StepAt, type StepDoc } from './types.ts';

/**
 * Every place a definition names a dialog or a step: the same places `chatbot check` follows
 * (server/definition/references.ts), so a rename, a paste or the map sees exactly the jumps
 * the engine takes.
 */

/** How a reference is written, so a rewrite keeps its form. */
export type ReferenceShape =
  /** A step id of the reference's own dialog: `"next": "ask"`. */
  | 'step'
  /** `{ "dialog": "order", "step"?: "ask" }`. */
  | 'target'
  /** A dialog id alone: a button, a start dialog, an intent. */
  | 'dialog'
  /** A goto step's own `dialog` and `step`. */
  | 'goto'
  /** An integration's `"onError": "dialog:order"`. */
  | 'errorDialog';

/** What a reference means to the person reading the flow (and to the map's edges). */
export type ReferenceRole =
  | 'next'
  | 'branch'
  | 'else'
  | 'choice'
  | 'retries'
  | 'noMatch'
  | 'error'
  | 'jump'
  | 'button'
  | 'timer'
  | 'start'
  | 'recovery'
  | 'intent'
  | 'pageEvent';

export interface Reference {
  /** The field holding it (for `goto`, the step itself). */
  readonly path: Path;
  /** The step holding it; absent for settings, intents and page events. */
  readonly from?: StepAt;
  /** The dialog it leads to. */
  readonly dialog: string;
  /** The step it leads to; the dialog's first when absent. */
  readonly step?: string;
  readonly shape: ReferenceShape;
  readonly role: ReferenceRole;
}

const ID = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

/** Every reference of the definition, in file order. */
export function listReferences(definition: DefinitionDoc): Reference[] {
  const out: Reference[] = [];
  const settings = isObject(definition.settings) ? definition.settings : {};
  if (typeof settings.startDialog === 'string')
    out.push({ path: ['settings', 'startDialog'], dialog: settings.startDialog, shape: 'dialog', role: 'start' });
  if (typeof settings.recoveryDialog === 'string')
    out.push({
      path: ['settings', 'recoveryDialog'],
      dialog: settings.recoveryDialog,
      shape: 'dialog',
      role: 'recovery',
    });
  dialogsOf(definition).forEach((dialog, d) =>
    stepsOf(dialog).forEach((step, s) => out.push(...stepReferences(step, dialog.id, { dialog: d, step: s }))),
  );
  listOf(definition.intents).forEach((intent, i) => {
    if (typeof intent.dialog === 'string')
      out.push({ path: ['intents', i, 'dialog'], dialog: intent.dialog, shape: 'dialog', role: 'intent' });
  });
  listOf(definition.pageEvents).forEach((event, i) => {
    if (typeof event.dialog === 'string')
      out.push({ path: ['pageEvents', i, 'dialog'], dialog: event.dialog, shape: 'dialog', role: 'pageEvent' });
  });
  return out;
}

/** The references one step holds; `ownDialog` is the id of the dialog it is in. */
export function stepReferences(step: StepDoc, ownDialog: string, at: StepAt): Reference[] {
  const out: Reference[] = [];
  const base: Path = ['dialogs', at.dialog, 'steps', at.step];
  const target = (field: Path, role: ReferenceRole) => {
    const value = getAt(step, field);
    const path = [...base, ...field];
    if (typeof value === 'string' && value !== '')
      out.push({ path, from: at, dialog: ownDialog, step: value, shape: 'step', role });
    else if (isObject(value) && typeof value.dialog === 'string') {
      out.push({
        path,
        from: at,
        dialog: value.dialog,
        ...(typeof value.step === 'string' ? { step: value.step } : {}),
        shape: 'target',
        role,
      });
    }
  };
  const buttons = (field: Path) =>
    listOf(getAt(step, field)).forEach((button, i) => {
      if (button.kind === 'dialog' && typeof button.dialog === 'string')
        out.push({
          path: [...base, ...field, i, 'dialog'],
          from: at,
          dialog: button.dialog,
          shape: 'dialog',
          role: 'button',
        });
    });

  if (step.type === 'goto') {
    if (typeof step.dialog === 'string')
      out.push({
        path: base,
        from: at,
        dialog: step.dialog,
        ...(typeof step.step === 'string' ? { step: step.step } : {}),
        shape: 'goto',
        role: 'jump',
      });
    return out;
  }
  if (typeof step.next === 'string' && step.next !== '')
    out.push({ path: [...base, 'next'], from: at, dialog: ownDialog, step: step.next, shape: 'step', role: 'next' });
  listOf(step.branches).forEach((_, b) => target(['branches', b, 'then'], 'branch'));
  target(['else'], 'else');
  listOf(step.choices).forEach((_, c) => target(['choices', c, 'then'], 'choice'));
  target(['onMaxRetries'], 'retries');
  target(['onNoMatch'], 'noMatch');
  if (step.type === 'wait') target(['then'], 'timer');
  if (step.type === 'integration') {
    if (typeof step.onError === 'string' && step.onError.startsWith('dialog:')) {
      out.push({
        path: [...base, 'onError'],
        from: at,
        dialog: step.onError.slice('dialog:'.length),
        shape: 'errorDialog',
        role: 'error',
      });
    }
  } else target(['onError'], 'error');
  buttons(['buttons']);
  listOf(step.cards).forEach((_, c) => buttons(['cards', c, 'buttons']));
  return out;
}

/**
 * Writes a reference anew, in its own form: a same-dialog step reference stays a bare id while
 * it stays in `ownDialog`, and becomes `{ dialog, step }` when it now leads elsewhere.
 */
export function writeReference<T extends DefinitionDoc>(
  definition: T,
  ref: Reference,
  to: { dialog: string; step?: string },
  ownDialog?: string,
): T {
  switch (ref.shape) {
    case 'dialog':
      return setAt(definition, ref.path, to.dialog);
    case 'errorDialog':
      return setAt(definition, ref.path, `dialog:${to.dialog}`);
    case 'goto': {
      const withDialog = setAt(definition, [...ref.path, 'dialog'], to.dialog);
      return setAt(withDialog, [...ref.path, 'step'], to.step);
    }
    case 'target':
    case 'step': {
      const own = ownDialog ?? (ref.from ? definition.dialogs[ref.from.dialog]?.id : undefined);
      if (ref.shape === 'step' && to.dialog === own && to.step !== undefined)
        return setAt(definition, ref.path, to.step);
      // `next` names a step of its own dialog only: it cannot lead elsewhere, so it stays (and check names it).
      if (ref.role === 'next') return definition;
      return setAt(
        definition,
        ref.path,
        to.step === undefined ? { dialog: to.dialog } : { dialog: to.dialog, step: to.step },
      );
    }
  }
}

/** The references that lead to a dialog (any of its steps), or to one step of it. */
export function referencesTo(definition: DefinitionDoc, dialog: string, step?: string): Reference[] {
  const first = definition.dialogs.find((d) => d.id === dialog)?.steps[0]?.id;
  return listReferences(definition).filter(
    (ref) => ref.dialog === dialog && (step === undefined || (ref.step ?? first) === step),
  );
}

export const isId = (value: unknown): value is string => typeof value === 'string' && ID.test(value);

export function dialogsOf(definition: DefinitionDoc): DefinitionDoc['dialogs'] {
  return Array.isArray(definition.dialogs) ? definition.dialogs : [];
}

export function stepsOf(dialog: { steps?: unknown }): StepDoc[] {
  return Array.isArray(dialog?.steps)
    ? (dialog.steps as unknown[]).map((step) =>
        isObject(step) ? (step as StepDoc) : ({ id: '', type: '' } as StepDoc),
      )
    : [];
}

function listOf(value: unknown): Loose[] {
  return Array.isArray(value) ? value.map((item) => (isObject(item) ? item : {})) : [];
}
