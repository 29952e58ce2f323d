import type { BotDefinition } from '../definition/schema.ts';
import { stepById } from './step-index.ts';
import type { Position } from './turn/types.ts';

/** A step by its dialog and id. */
export interface StepRef {
  readonly dialogId: string;
  readonly stepId: string;
}

/** Chosen at publish in the studio: users resting on `from`, which the published version no longer has, go to `to`. */
export interface PublishMove {
  readonly from: StepRef;
  readonly to: StepRef;
}

/** Where a stranded position goes, and the position it came from. */
export interface Recovery {
  readonly from: StepRef;
  /** Null only when the definition has no step to go to (it always has: startDialog must exist). */
  readonly to: Position | null;
  /** True when the target was chosen at publish (a move), false when settings.recovery chose it. */
  readonly chosen: boolean;
}

const hasStep = (definition: BotDefinition, at: StepRef) => stepById(definition, at.dialogId, at.stepId) !== undefined;

/**
 * A position names a dialog or step this definition no longer has (a redeploy or a publish
 * renamed or removed it): says where the user goes instead. A move chosen at publish for that
 * position wins while its target exists; otherwise `settings.recovery` decides. Undefined when
 * the position is fine (or there is none). Pure, so `check --compare` and the publish plan ask
 * the same question.
 */
export function recoveryFor(
  definition: BotDefinition,
  position: Position | null,
  moves: readonly PublishMove[] = [],
): Recovery | undefined {
  if (!position) return undefined;
  if (hasStep(definition, position)) return undefined;
  const from = { dialogId: position.dialogId, stepId: position.stepId };
  const move = moves.find(
    (m) => m.from.dialogId === from.dialogId && m.from.stepId === from.stepId && hasStep(definition, m.to),
  );
  if (move)
    return {
      from,
      to: { dialogId: move.to.dialogId, stepId: move.to.stepId, awaiting: false, retries: 0 },
      chosen: true,
    };
  const dialog = definition.dialogs.find((d) => d.id === position.dialogId);
  const { recovery, recoveryDialog, startDialog } = definition.settings;
  const target =
    recovery === 'dialogStart' && dialog
      ? dialog
      : definition.dialogs.find((d) => d.id === (recoveryDialog ?? startDialog));
  const first = target?.steps[0];
  return {
    from,
    to: target && first ? { dialogId: target.id, stepId: first.id, awaiting: false, retries: 0 } : null,
    chosen: false,
  };
}
