import { uniqueId } from './ids.ts';
import { getAt, setAt } from './paths.ts';
import { listReferences, writeReference } from './references.ts';
import type { DefinitionDoc, DialogDoc, Path, StepDoc } from './types.ts';

/**
 * The edits the designer makes, as pure functions from one definition to the next. Each returns
 * a new object sharing what it did not touch, so the undo history holds whole snapshots cheaply
 * and a Lit element re-renders only what changed.
 */

/** Sets (or, with undefined, removes) one field anywhere. */
export function setField(definition: DefinitionDoc, path: Path, value: unknown): DefinitionDoc {
  return setAt(definition, path, value);
}

export function insertStep(definition: DefinitionDoc, dialog: number, at: number, step: StepDoc): DefinitionDoc {
  const steps = [...(definition.dialogs[dialog]?.steps ?? [])];
  const id = uniqueId(
    step.id,
    steps.map((s) => s.id),
  );
  steps.splice(clamp(at, 0, steps.length), 0, { ...step, id });
  return setAt(definition, ['dialogs', dialog, 'steps'], steps);
}

/** Moves a step within its dialog; `to` is its index afterwards. */
export function moveStep(definition: DefinitionDoc, dialog: number, from: number, to: number): DefinitionDoc {
  const steps = [...(definition.dialogs[dialog]?.steps ?? [])];
  if (from < 0 || from >= steps.length) return definition;
  const target = clamp(to, 0, steps.length - 1);
  if (target === from) return definition;
  const [step] = steps.splice(from, 1);
  steps.splice(target, 0, step!);
  return setAt(definition, ['dialogs', dialog, 'steps'], steps);
}

/** Removes a step. References to it stay, and `check` names them: the author decides where they go. */
export function deleteStep(definition: DefinitionDoc, dialog: number, step: number): DefinitionDoc {
  return setAt(definition, ['dialogs', dialog, 'steps', step], undefined);
}

/** A copy of the step right after it, under a free id. */
export function duplicateStep(definition: DefinitionDoc, dialog: number, step: number): DefinitionDoc {
  const original = definition.dialogs[dialog]?.steps[step];
  if (!original) return definition;
  return insertStep(definition, dialog, step + 1, structuredClone(original));
}

export function insertDialog(definition: DefinitionDoc, at: number, dialog: DialogDoc): DefinitionDoc {
  const dialogs = [...definition.dialogs];
  dialogs.splice(clamp(at, 0, dialogs.length), 0, {
    ...dialog,
    id: uniqueId(
      dialog.id,
      dialogs.map((d) => d.id),
    ),
  });
  return { ...definition, dialogs };
}

export function moveDialog(definition: DefinitionDoc, from: number, to: number): DefinitionDoc {
  const dialogs = [...definition.dialogs];
  if (from < 0 || from >= dialogs.length) return definition;
  const target = clamp(to, 0, dialogs.length - 1);
  if (target === from) return definition;
  const [dialog] = dialogs.splice(from, 1);
  dialogs.splice(target, 0, dialog!);
  return { ...definition, dialogs };
}

export function deleteDialog(definition: DefinitionDoc, dialog: number): DefinitionDoc {
  return { ...definition, dialogs: definition.dialogs.filter((_, i) => i !== dialog) };
}

/** A copy of the dialog right after it, under a free id; its own references to itself follow the copy. */
export function duplicateDialog(definition: DefinitionDoc, dialog: number): DefinitionDoc {
  const original = definition.dialogs[dialog];
  if (!original) return definition;
  const id = uniqueId(
    original.id,
    definition.dialogs.map((d) => d.id),
  );
  let next = insertDialog(definition, dialog + 1, { ...structuredClone(original), id });
  for (const ref of listReferences(next)) {
    if (ref.from?.dialog === dialog + 1 && ref.dialog === original.id && ref.shape !== 'step')
      next = writeReference(next, ref, { dialog: id, ...(ref.step === undefined ? {} : { step: ref.step }) });
  }
  return next;
}

/** Renames a dialog and rewrites every reference to it: targets, jumps, buttons, the start dialog, intents, page events. */
export function renameDialog(definition: DefinitionDoc, oldId: string, newId: string): DefinitionDoc {
  const index = definition.dialogs.findIndex((d) => d.id === oldId);
  if (index < 0 || oldId === newId) return definition;
  const refs = listReferences(definition).filter((ref) => ref.dialog === oldId && ref.shape !== 'step');
  let next = setAt(definition, ['dialogs', index, 'id'], newId);
  for (const ref of refs)
    next = writeReference(next, ref, { dialog: newId, ...(ref.step === undefined ? {} : { step: ref.step }) });
  return next;
}

/** Renames a step and rewrites every reference to it, in its own dialog and from every other. */
export function renameStep(definition: DefinitionDoc, dialog: number, oldId: string, newId: string): DefinitionDoc {
  const dialogDoc = definition.dialogs[dialog];
  const index = dialogDoc?.steps.findIndex((s) => s.id === oldId) ?? -1;
  if (!dialogDoc || index < 0 || oldId === newId) return definition;
  const refs = listReferences(definition).filter((ref) => ref.dialog === dialogDoc.id && ref.step === oldId);
  let next = setAt(definition, ['dialogs', dialog, 'steps', index, 'id'], newId);
  for (const ref of refs) next = writeReference(next, ref, { dialog: dialogDoc.id, step: newId });
  return next;
}

/** Adds user-data fields that are not declared yet, in the order given. */
export function declareUserDataFields(definition: DefinitionDoc, fields: Iterable<string>): DefinitionDoc {
  const declared = Array.isArray(definition.userDataFields) ? definition.userDataFields : [];
  const missing = [...new Set(fields)].filter((field) => !declared.includes(field));
  return missing.length === 0 ? definition : { ...definition, userDataFields: [...declared, ...missing] };
}

/** Moves an item of any list (choices, quick replies, branches, actions) within the list. */
export function moveItem(definition: DefinitionDoc, list: Path, from: number, to: number): DefinitionDoc {
  const items = getAt(definition, list);
  if (!Array.isArray(items) || from < 0 || from >= items.length) return definition;
  const copy = [...items];
  const [item] = copy.splice(from, 1);
  copy.splice(clamp(to, 0, copy.length), 0, item);
  return setAt(definition, list, copy);
}

function clamp(value: number, low: number, high: number): number {
  return Math.max(low, Math.min(high, value));
}
