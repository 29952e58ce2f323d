import type { BotDefinition, Dialog, Step } from '../definition/schema.ts';

interface IndexedDialog {
  readonly dialog: Dialog;
  /** Each step with its place in the dialog. */
  readonly steps: ReadonlyMap<string, { readonly step: Step; readonly at: number }>;
}

/**
 * Dialogs and steps by id, built once per definition: every turn looks up the step the user rests
 * on (and often a few more), and a scan of every dialog's steps grows with the bot. A loaded
 * definition is never changed in place (a reload or a publish brings a new object), so the index
 * lives as long as its definition. The first of two equal ids wins, as a scan's find would.
 */
const indexes = new WeakMap<BotDefinition, ReadonlyMap<string, IndexedDialog>>();

function indexOf(definition: BotDefinition): ReadonlyMap<string, IndexedDialog> {
  let index = indexes.get(definition);
  if (index === undefined) {
    const dialogs = new Map<string, IndexedDialog>();
    for (const dialog of definition.dialogs) {
      if (dialogs.has(dialog.id)) continue;
      const steps = new Map<string, { step: Step; at: number }>();
      dialog.steps.forEach((step, at) => {
        if (!steps.has(step.id)) steps.set(step.id, { step, at });
      });
      dialogs.set(dialog.id, { dialog, steps });
    }
    index = dialogs;
    indexes.set(definition, index);
  }
  return index;
}

export function dialogById(definition: BotDefinition, dialogId: string): Dialog | undefined {
  return indexOf(definition).get(dialogId)?.dialog;
}

export function stepById(definition: BotDefinition, dialogId: string, stepId: string): Step | undefined {
  return indexOf(definition).get(dialogId)?.steps.get(stepId)?.step;
}

/** The step after this one in its dialog; undefined after the last (or for a step the dialog lacks, its first). */
export function stepAfter(definition: BotDefinition, dialogId: string, stepId: string): Step | undefined {
  const dialog = indexOf(definition).get(dialogId);
  if (!dialog) return undefined;
  return dialog.dialog.steps[(dialog.steps.get(stepId)?.at ?? -1) + 1];
}
