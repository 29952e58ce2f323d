/** One thing wrong with a bot definition, where it is, and what to do about it. */
export interface Problem {
  /** Where, as people read it: `dialogs[2].steps[4].next`; `(file)` for the file as a whole. */
  readonly path: string;
  /** What is wrong, without a final full stop. */
  readonly message: string;
  /** What to do, e.g. `did you mean "quickReplies"?` */
  readonly hint?: string;
  /** A warning is shown but does not stop the bot: start-up and `check` still succeed. Errors when omitted. */
  readonly severity?: 'error' | 'warning';
}

/** The line `check` and start-up print: `path: problem. hint`, warnings prefixed. */
export function formatProblem(problem: Problem): string {
  const line = `${problem.path}: ${problem.message}${problem.hint ? `. ${capitalise(problem.hint)}` : ''}`;
  return problem.severity === 'warning' ? `warning: ${line}` : line;
}

export function isError(problem: Problem): boolean {
  return problem.severity !== 'warning';
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The known name closest to `wanted` (case, "_" and "-" ignored first), when it is close enough to be a likely typo. */
export function closest(wanted: string, known: Iterable<string>): string | undefined {
  const squash = (s: string) => s.toLowerCase().replace(/[_-]/g, '');
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    if (candidate === wanted) continue;
    const distance =
      squash(candidate) === squash(wanted) ? 0 : editDistance(wanted.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  // Short names need a closer match: "id" is not a typo of "if".
  const allowed = Math.max(1, Math.min(3, Math.floor(wanted.length / 3)));
  return best !== undefined && bestDistance <= allowed ? best : undefined;
}

/** "did you mean …?" or the list of what is allowed, for a name that is not. */
export function suggestion(wanted: string, known: readonly string[], what = 'known'): string {
  const near = closest(wanted, known);
  if (near !== undefined) return `did you mean "${near}"?`;
  const list = known
    .slice(0, 20)
    .map((k) => `"${k}"`)
    .join(', ');
  return `${what}: ${list}${known.length > 20 ? ', …' : ''}`;
}

/** Damerau-Levenshtein (optimal string alignment); names are short (bounded by the schema), so the table stays small. */
function editDistance(a: string, b: string): number {
  if (a.length > 200 || b.length > 200) return Infinity;
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        value = Math.min(value, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = value;
    }
  }
  return rows[a.length]![b.length]!;
}
