import { getAt, setAt } from './paths.ts';
import { isObject, type DefinitionDoc, type Loose, type Path } from './types.ts';

/**
 * Edits of a map of named objects (`integrations.services`): add, rename, remove. An entry's name
 * is its identity, so renaming a service rewrites every place that names it (an integration
 * step's `service`, a dataset's `source.service`), as renaming a step rewrites its jumps.
 */

/** The maps whose names other parts of the definition refer to, and how to find those references. */
const REFERRED: readonly { readonly path: Path; readonly references: (definition: DefinitionDoc) => Path[] }[] = [
  { path: ['integrations', 'services'], references: serviceReferences },
];

export function entriesOf(definition: DefinitionDoc, path: Path): [string, unknown][] {
  const map = getAt(definition, path);
  return isObject(map) ? Object.entries(map) : [];
}

/** A name not taken yet: `service1`, `service2`… */
export function freeName(names: readonly string[], stem: string): string {
  const taken = new Set(names);
  let n = 1;
  while (taken.has(`${stem}${n}`)) n++;
  return `${stem}${n}`;
}

export function addEntry(definition: DefinitionDoc, path: Path, name: string, value: Loose): DefinitionDoc {
  return setAt(definition, path, Object.fromEntries([...entriesOf(definition, path), [name, value]]));
}

/** Renames an entry where it stands (the order of the map is kept) and makes every reference to it follow. */
export function renameEntry(definition: DefinitionDoc, path: Path, from: string, to: string): DefinitionDoc {
  const entries = entriesOf(definition, path);
  if (from === to || !entries.some(([name]) => name === from) || entries.some(([name]) => name === to))
    return definition;
  let next = setAt(
    definition,
    path,
    Object.fromEntries(entries.map(([name, value]) => [name === from ? to : name, value])),
  );
  const referred = REFERRED.find((r) => samePath(r.path, path));
  for (const at of referred?.references(definition) ?? [])
    if (getAt(definition, at) === from) next = setAt(next, at, to);
  return next;
}

/** Removes an entry; with the last one gone the map goes too. References stay, and `check` names them. */
export function removeEntry(definition: DefinitionDoc, path: Path, name: string): DefinitionDoc {
  const left = entriesOf(definition, path).filter(([key]) => key !== name);
  return setAt(definition, path, left.length === 0 ? undefined : Object.fromEntries(left));
}

/** How many places name an entry (said before a rename or a removal). */
export function referencesTo(definition: DefinitionDoc, path: Path, name: string): number {
  const referred = REFERRED.find((r) => samePath(r.path, path));
  return (referred?.references(definition) ?? []).filter((at) => getAt(definition, at) === name).length;
}

/** Every place a service is named: integration steps and dataset sources. */
function serviceReferences(definition: DefinitionDoc): Path[] {
  const out: Path[] = [];
  definition.dialogs.forEach((dialog, d) =>
    (Array.isArray(dialog.steps) ? dialog.steps : []).forEach((step, s) => {
      if (isObject(step) && step.type === 'integration' && typeof step.service === 'string')
        out.push(['dialogs', d, 'steps', s, 'service']);
    }),
  );
  const datasets = getAt(definition, ['integrations', 'datasets']);
  (Array.isArray(datasets) ? datasets : []).forEach((dataset, i) => {
    if (isObject(dataset) && isObject(dataset.source) && typeof dataset.source.service === 'string')
      out.push(['integrations', 'datasets', i, 'source', 'service']);
  });
  return out;
}

const samePath = (a: Path, b: Path): boolean => a.length === b.length && a.every((part, i) => part === b[i]);
