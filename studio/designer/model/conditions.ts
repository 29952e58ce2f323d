import { isObject, type TargetDoc } from './types.ts';

/**
 * The condition builder's model. The engine tries a condition step's branches in order and takes
 * the first whose conditions all hold; "any" is therefore a run of branches, one condition each,
 * with the same target. The builder shows such a run as one group (mode "any") and writes it
 * back the same way, so nothing the engine reads changes meaning.
 */

/** What the value of an operator is: none, a text, a number, a regular expression or a list. */
export function valueKind(op: string): 'none' | 'text' | 'number' | 'regex' | 'list' {
  switch (op) {
    case 'empty':
    case 'notEmpty':
      return 'none';
    case 'greater':
    case 'less':
      return 'number';
    case 'matches':
      return 'regex';
    case 'in':
      return 'list';
    default:
      return 'text';
  }
}

export type ConditionValue = string | number | boolean | (string | number | boolean)[];

export interface ConditionRow {
  variable: string;
  op: string;
  value?: ConditionValue;
}

export interface BranchGroup {
  mode: 'all' | 'any';
  conditions: ConditionRow[];
  then: TargetDoc | undefined;
  /** The branches of the step this group stands for (problems on them show on the group). */
  branches: number[];
}

/** The step's branches as groups: a run of one-condition branches with the same target is one "any" group. */
export function groupsOf(branches: unknown): BranchGroup[] {
  const list = Array.isArray(branches) ? branches : [];
  const groups: (BranchGroup & { singles: boolean })[] = [];
  list.forEach((branch, b) => {
    const when = isObject(branch) ? branch.when : undefined;
    const then = isObject(branch) ? (branch.then as TargetDoc | undefined) : undefined;
    const conditions = (Array.isArray(when) ? when : when === undefined ? [] : [when]).map(toRow);
    // Only a bare condition (not a one-item list) joins a run: a list is the author's "all".
    const single = conditions.length === 1 && !Array.isArray(when);
    const last = groups[groups.length - 1];
    if (single && last?.singles && sameTarget(last.then, then)) {
      last.mode = 'any';
      last.conditions.push(conditions[0]!);
      last.branches.push(b);
      return;
    }
    groups.push({ mode: 'all', conditions, then, branches: [b], singles: single });
  });
  return groups.map(({ mode, conditions, then, branches: indexes }) => ({ mode, conditions, then, branches: indexes }));
}

/** Groups back to the engine's branches. */
export function branchesOf(
  groups: readonly BranchGroup[],
): { when: ConditionRow | ConditionRow[]; then: TargetDoc | undefined }[] {
  return groups.flatMap((group) => {
    const conditions = group.conditions.map(clean);
    if (group.mode === 'any' && conditions.length > 1)
      return conditions.map((condition) => ({ when: condition, then: group.then }));
    return [{ when: conditions.length === 1 ? conditions[0]! : conditions, then: group.then }];
  });
}

/**
 * The value a person typed, as the operator needs it: a number for greater/less (text that is
 * not a number is kept, so check can name it), a list for "in" (one item a line), text otherwise.
 */
export function parseValue(op: string, typed: string): ConditionValue | undefined {
  switch (valueKind(op)) {
    case 'none':
      return undefined;
    case 'number': {
      const n = Number(typed.trim());
      return typed.trim() !== '' && Number.isFinite(n) ? n : typed;
    }
    case 'list':
      return typed
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line !== '');
    default:
      return typed;
  }
}

/** A value shown in the builder's text field. */
export function formatValue(value: ConditionValue | undefined): string {
  if (value === undefined) return '';
  return Array.isArray(value) ? value.map(String).join('\n') : String(value);
}

function toRow(value: unknown): ConditionRow {
  if (!isObject(value)) return { variable: '', op: 'equals' };
  return {
    variable: typeof value.variable === 'string' ? value.variable : '',
    op: typeof value.op === 'string' ? value.op : 'equals',
    ...(value.value === undefined ? {} : { value: value.value as ConditionValue }),
  };
}

function clean(row: ConditionRow): ConditionRow {
  const needsValue = valueKind(row.op) !== 'none';
  return { variable: row.variable, op: row.op, ...(needsValue && row.value !== undefined ? { value: row.value } : {}) };
}

function sameTarget(a: TargetDoc | undefined, b: TargetDoc | undefined): boolean {
  if (a === undefined || b === undefined) return false;
  if (typeof a === 'string' || typeof b === 'string') return a === b;
  return a.dialog === b.dialog && a.step === b.step;
}
