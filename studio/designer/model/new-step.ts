import type { StepDoc } from './types.ts';

/**
 * A new step of a kind, as the palette inserts it: the structure the kind cannot do without
 * (a condition's first branch, a set step's first action) and nothing the author must choose;
 * what is still missing shows as a problem on the new card until filled in.
 */
export function newStep(
  kind: string,
  options: { stepType?: string; otherDialog?: string; defaults?: Record<string, unknown> } = {},
): StepDoc {
  const id = kind === 'integration' && options.stepType ? options.stepType : kind;
  const step: StepDoc = { id, type: kind };
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
