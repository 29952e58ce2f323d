import { formatPath, parsePath } from './paths.ts';
import type { StepAt } from './types.ts';

/** One problem as `chatbot check` (and the check endpoint) reports it. */
export interface Problem {
  readonly path: string;
  readonly severity: 'error' | 'warning';
  readonly message: string;
  readonly hint?: string;
}

export interface PlacedProblem extends Problem {
  /** The step it belongs to, when it is in one. */
  readonly at?: StepAt;
  /** The field inside the step (`branches[0].when.value`), '' for the step itself; the whole path outside steps. */
  readonly field: string;
}

/** Where each problem is: on a step and a field of it, or elsewhere in the definition. */
export function placeProblems(problems: readonly Problem[]): PlacedProblem[] {
  return problems.map((problem) => {
    const path = parsePath(problem.path);
    if (path[0] === 'dialogs' && typeof path[1] === 'number' && path[2] === 'steps' && typeof path[3] === 'number') {
      const rest = path.slice(4);
      return { ...problem, at: { dialog: path[1], step: path[3] }, field: rest.length === 0 ? '' : formatPath(rest) };
    }
    return { ...problem, field: problem.path };
  });
}

/** Problems by step (`"2/4"`), for the cards and the map. */
export function problemsByStep(placed: readonly PlacedProblem[]): Map<string, PlacedProblem[]> {
  const out = new Map<string, PlacedProblem[]>();
  for (const problem of placed) {
    if (!problem.at) continue;
    const key = `${problem.at.dialog}/${problem.at.step}`;
    const list = out.get(key) ?? [];
    list.push(problem);
    out.set(key, list);
  }
  return out;
}

/** The problems of a field and everything inside it (`choices` takes `choices[1].then`). */
export function problemsUnder(problems: readonly PlacedProblem[], field: string): PlacedProblem[] {
  if (field === '') return problems.filter((p) => p.field === '');
  return problems.filter(
    (p) => p.field === field || p.field.startsWith(`${field}.`) || p.field.startsWith(`${field}[`),
  );
}

export const hasErrors = (problems: readonly Problem[]): boolean => problems.some((p) => p.severity !== 'warning');
