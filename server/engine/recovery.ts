import type { BotDefinition } from '../definition/schema.ts';
import type { Position } from './types.ts';

/** Where a stranded position goes, and the position it came from. */
export interface Recovery {
  readonly from: { readonly dialogId: string; readonly stepId: string };
  /** Null only when the definition has no step to go to (it always has: startDialog must exist). */
  readonly to: Position | null;
}

/**
 * A position names a dialog or step this definition no longer has (a redeploy renamed or
 * removed it): says where the user goes instead, per `settings.recovery`. Undefined when the
 * position is fine (or there is none). Pure, so `check --compare` asks the same question.
 */
export function recoveryFor(definition: BotDefinition, position: Position | null): Recovery | undefined {
  if (!position) return undefined;
  const dialog = definition.dialogs.find((d) => d.id === position.dialogId);
  if (dialog?.steps.some((s) => s.id === position.stepId)) return undefined;
  const { recovery, recoveryDialog, startDialog } = definition.settings;
  const target = recovery === 'dialogStart' && dialog ? dialog : definition.dialogs.find((d) => d.id === (recoveryDialog ?? startDialog));
  const first = target?.steps[0];
  return {
    from: { dialogId: position.dialogId, stepId: position.stepId },
    to: target && first ? { dialogId: target.id, stepId: first.id, awaiting: false, retries: 0 } : null,
  };
}
