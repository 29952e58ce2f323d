import { isObject, type DefinitionDoc, type DialogDoc } from './types.ts';

/**
 * A save on a stale base: someone else saved a version since this draft's base. The designer
 * shows their change beside yours, part by part (each dialog, each top-level section), merges
 * what only one side changed, and lets the author choose where both did. Nothing is overwritten
 * unseen.
 */

export type MergeStatus = 'same' | 'theirs' | 'yours' | 'conflict';

export interface MergeUnit {
  /** `dialog:<id>` or `section:<key>`. */
  readonly key: string;
  readonly kind: 'dialog' | 'section';
  readonly name: string;
  readonly base: unknown;
  readonly theirs: unknown;
  readonly yours: unknown;
  /** Who changed it: nobody, only them (theirs is taken), only you (yours is kept), or both. */
  readonly status: MergeStatus;
}

export type MergeChoice = 'theirs' | 'yours';

export function mergeUnits(base: DefinitionDoc, theirs: DefinitionDoc, yours: DefinitionDoc): MergeUnit[] {
  const units: MergeUnit[] = [];
  const sections = new Set(
    [...Object.keys(base), ...Object.keys(theirs), ...Object.keys(yours)].filter((key) => key !== 'dialogs'),
  );
  for (const key of sections) units.push(unit(`section:${key}`, 'section', key, base[key], theirs[key], yours[key]));
  const ids = orderedIds(theirs.dialogs, yours.dialogs, base.dialogs);
  for (const id of ids)
    units.push(unit(`dialog:${id}`, 'dialog', id, find(base, id), find(theirs, id), find(yours, id)));
  return units;
}

/**
 * The merged definition: each unit as its status says, conflicts as chosen (yours when no
 * choice is given). Lists of names (user-data fields, step type modules) changed on both sides
 * are joined rather than chosen between when no choice is given.
 */
export function buildMerge(
  units: readonly MergeUnit[],
  choices: ReadonlyMap<string, MergeChoice> = new Map(),
): DefinitionDoc {
  const pick = (u: MergeUnit): unknown => {
    if (u.status === 'theirs') return u.theirs;
    if (u.status === 'yours' || u.status === 'same') return u.yours;
    const choice = choices.get(u.key);
    if (choice === undefined && isNameList(u.theirs) && isNameList(u.yours))
      return [...new Set([...(u.yours as string[]), ...(u.theirs as string[])])];
    return choice === 'theirs' ? u.theirs : u.yours;
  };
  const out: Record<string, unknown> = {};
  const dialogs: DialogDoc[] = [];
  for (const u of units) {
    const value = pick(u);
    if (value === undefined) continue;
    if (u.kind === 'section') out[u.name] = value;
    else dialogs.push(value as DialogDoc);
  }
  return { ...(out as Omit<DefinitionDoc, 'dialogs'>), dialogs } as DefinitionDoc;
}

export const conflicts = (units: readonly MergeUnit[]): MergeUnit[] => units.filter((u) => u.status === 'conflict');

function unit(
  key: string,
  kind: MergeUnit['kind'],
  name: string,
  base: unknown,
  theirs: unknown,
  yours: unknown,
): MergeUnit {
  const [b, t, y] = [stable(base), stable(theirs), stable(yours)];
  const status: MergeStatus = t === y ? 'same' : y === b ? 'theirs' : t === b ? 'yours' : 'conflict';
  return { key, kind, name, base, theirs, yours, status };
}

/** Your order of dialogs, with dialogs only they have placed after the one before them in theirs. */
function orderedIds(
  theirs: readonly DialogDoc[] = [],
  yours: readonly DialogDoc[] = [],
  base: readonly DialogDoc[] = [],
): string[] {
  const out = yours.map((d) => d.id);
  theirs.forEach((dialog, i) => {
    if (out.includes(dialog.id)) return;
    const before = theirs[i - 1]?.id;
    const at = before === undefined ? 0 : out.indexOf(before) + 1;
    out.splice(at <= 0 && before !== undefined ? out.length : at, 0, dialog.id);
  });
  for (const dialog of base) if (!out.includes(dialog.id)) out.push(dialog.id);
  return out;
}

function find(definition: DefinitionDoc, id: string): DialogDoc | undefined {
  return (definition.dialogs ?? []).find((d) => d.id === id);
}

function isNameList(value: unknown): boolean {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

/** JSON with keys sorted, so two equal values compare equal whatever their key order. */
export function stable(value: unknown): string {
  return (
    JSON.stringify(value, (_key, inner: unknown) =>
      isObject(inner)
        ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
        : inner,
    ) ?? 'undefined'
  );
}
