import type { DesignerStrings } from '../i18n/strings.ts';
import { idFromWords } from './ids.ts';
import { stepTypeName } from './step-type-words.ts';
import type { StepDoc } from './types.ts';

/**
 * A new step of a kind, as the palette inserts it: the structure the kind cannot do without
 * (a condition's first branch, a set step's first action) and nothing the author must choose;
 * what is still missing shows as a problem on the new card until filled in.
 *
 * Its id is the name the person picked it by, in the studio's language ("Question" → `question`,
 * "Einen Webhook senden" → `einen-webhook-senden`), as a new dialog's is: the outline, the problems
 * and the preview then speak of it in the person's words, never by the kind's or step type's key.
 */
export function newStep(
  kind: string,
  t: DesignerStrings,
  options: { stepType?: string; otherDialog?: string; defaults?: Record<string, unknown> } = {},
): StepDoc {
  const name = kind === 'integration' && options.stepType ? stepTypeName(t, options.stepType) : t.kinds[kind];
  const step: StepDoc = { id: idFromWords(name ?? kind), type: kind };
  switch (kind) {
    case 'condition':
      return { ...step, branches: [{ when: { op: 'notEmpty' } }] };
    case 'set':
      return { ...step, actions: [{ op: 'set' }] };
    case 'goto':
      return options.otherDialog === undefined ? step : { ...step, dialog: options.otherDialog };
    case 'wait':
      return { ...step, duration: '10m' };
    case 'integration':
      return { ...step, integration: options.stepType ?? 'http', params: { ...(options.defaults ?? {}) } };
    default:
      return step;
  }
}
