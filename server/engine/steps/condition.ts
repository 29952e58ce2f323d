import type { StepOf } from '../../definition/schema.ts';
import { toNext } from '../turn/jump.ts';
import { readPath } from '../turn/template.ts';
import type { StepHandler, TurnContext } from '../turn/types.ts';

type Condition = Extract<StepOf<'condition'>['branches'][number]['when'], { op: string }>;

/** Ordered branches over variables: the first whose conditions all hold decides; else `else`, else the next step. */
export const conditionStep: StepHandler<StepOf<'condition'>> = {
  enter(step, ctx) {
    for (const branch of step.branches) {
      const conditions = Array.isArray(branch.when) ? branch.when : [branch.when];
      if (conditions.every((c) => holds(c, ctx))) return toNext(branch.then);
    }
    return step.else !== undefined ? toNext(step.else) : { kind: 'advance', to: step.next };
  },
};

export function holds(condition: Condition, ctx: TurnContext): boolean {
  const actual = readPath([ctx.variables, ctx.userData], condition.variable);
  const expected = condition.value;
  switch (condition.op) {
    case 'empty':
      return isEmpty(actual);
    case 'notEmpty':
      return !isEmpty(actual);
    case 'equals':
      return same(actual, expected);
    case 'notEquals':
      return !same(actual, expected);
    case 'greater':
      return toNumber(actual) > Number(expected);
    case 'less':
      return toNumber(actual) < Number(expected);
    case 'contains':
      if (Array.isArray(actual)) return actual.some((item) => same(item, expected));
      return typeof actual === 'string' && actual.toLowerCase().includes(String(expected).toLowerCase());
    case 'matches':
      return actual !== undefined && actual !== null && new RegExp(String(expected), 'u').test(String(actual));
    case 'in':
      return Array.isArray(expected) && expected.some((item) => same(actual, item));
  }
}

/** Values compare as text, so "42" (typed) equals 42 (set) and true equals "true". */
function same(a: unknown, b: unknown): boolean {
  if (a === undefined || a === null) return b === undefined || b === null || b === '';
  return String(a) === String(b);
}

function toNumber(value: unknown): number {
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) ? n : Number.NaN;
}

/** Missing, null, "", [] and {} count as empty (as in the export's notEmpty). */
function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.keys(value).length === 0;
  return false;
}
