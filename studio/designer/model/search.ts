import { dialogsOf, stepsOf } from './references.ts';
import { isObject, type DefinitionDoc, type Path, type StepAt } from './types.ts';

/** One place a search found: a step's text, an id, a variable, a value anywhere. */
export interface SearchHit {
  readonly path: Path;
  /** The step, when the hit is in one (or the dialog's first step for a dialog id). */
  readonly at?: StepAt;
  /** The field's own name: `text`, `id`, `label`, `userDataFields`… */
  readonly field: string;
  /** The text around the match. */
  readonly excerpt: string;
}

const MAX_HITS = 200;

/**
 * Searches every string and number of the definition (step text, ids, variables, values,
 * intents, FAQ, settings), ignoring case and accents ("resume" finds "Résumé"). At most 200 hits, in file order.
 */
export function searchDefinition(definition: DefinitionDoc, query: string): { hits: SearchHit[]; more: boolean } {
  const wanted = fold(query.trim());
  const hits: SearchHit[] = [];
  if (wanted === '') return { hits, more: false };
  let more = false;
  const visit = (
    value: unknown,
    path: (string | number)[],
    at: StepAt | undefined,
    field: string,
    depth: number,
  ): void => {
    if (more || depth > 40) return;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
      const textValue = String(value);
      const where = fold(textValue).indexOf(wanted);
      if (where < 0) return;
      if (hits.length >= MAX_HITS) {
        more = true;
        return;
      }
      hits.push({ path, ...(at ? { at } : {}), field, excerpt: excerpt(textValue, where, wanted.length) });
      return;
    }
    if (Array.isArray(value)) value.forEach((item, i) => visit(item, [...path, i], at, field, depth + 1));
    else if (isObject(value))
      for (const [key, inner] of Object.entries(value)) visit(inner, [...path, key], at, key, depth + 1);
  };
  for (const [key, value] of Object.entries(definition)) {
    if (key === 'dialogs') continue;
    visit(value, [key], undefined, key, 0);
  }
  dialogsOf(definition).forEach((dialog, d) => {
    visit(dialog.id, ['dialogs', d, 'id'], stepsOf(dialog).length > 0 ? { dialog: d, step: 0 } : undefined, 'id', 0);
    stepsOf(dialog).forEach((step, s) => visit(step, ['dialogs', d, 'steps', s], { dialog: d, step: s }, 'step', 0));
  });
  return { hits, more };
}

/** Lower case without accents. */
function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

function excerpt(text: string, at: number, length: number): string {
  const start = Math.max(0, at - 30);
  const end = Math.min(text.length, at + length + 50);
  return `${start > 0 ? '…' : ''}${text.slice(start, end)}${end < text.length ? '…' : ''}`;
}
