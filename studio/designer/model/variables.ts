import {
  BUILT_IN_VARIABLES,
  NOT_TEMPLATE_KEYS,
  PARAMS_ONLY,
  TEMPLATE_PLACEHOLDER,
  namesSetBy,
} from '../../../shared/bot-names.ts';
import { flowEdges, stepsLeadingTo } from './graph.ts';
import { dialogsOf, stepsOf } from './references.ts';
import { isObject, type DefinitionDoc, type Path, type StepAt, type StepDoc } from './types.ts';

/**
 * What a conversation can hold and where: the variables panel ("find references"), template
 * autocomplete and the paste's field declarations. The names and which step sets which come
 * from shared/bot-names.ts, the same knowledge `chatbot check` uses.
 */

export type VariableKind = 'userData' | 'variable' | 'builtIn' | 'params';

export interface Place {
  readonly path: Path;
  /** The step, when the place is in one. */
  readonly at?: StepAt;
}

export interface VariableInfo {
  readonly name: string;
  readonly kind: VariableKind;
  readonly sets: Place[];
  readonly uses: Place[];
}

/** Every name the definition declares, sets or reads, with where. */
export function variableIndex(definition: DefinitionDoc): Map<string, VariableInfo> {
  const index = new Map<string, { name: string; kind: VariableKind; sets: Place[]; uses: Place[] }>();
  const entry = (name: string, kind: VariableKind) => {
    let found = index.get(name);
    if (!found) index.set(name, (found = { name, kind, sets: [], uses: [] }));
    else if (kind === 'userData' && found.kind !== 'userData') found.kind = 'userData';
    return found;
  };
  const fields = declaredFields(definition);
  fields.forEach((field, i) => entry(field, 'userData').sets.push({ path: ['userDataFields', i] }));
  for (const name of BUILT_IN_VARIABLES) entry(name, 'builtIn');
  const kindOf = (name: string): VariableKind =>
    fields.includes(name)
      ? 'userData'
      : (BUILT_IN_VARIABLES as readonly string[]).includes(name)
        ? 'builtIn'
        : 'variable';

  dialogsOf(definition).forEach((dialog, d) =>
    stepsOf(dialog).forEach((step, s) => {
      const at = { dialog: d, step: s };
      const base = ['dialogs', d, 'steps', s];
      for (const set of namesSetBy(step))
        entry(set.name, set.kind === 'userData' ? 'userData' : kindOf(set.name)).sets.push({
          path: [...base, ...fieldPath(set.field)],
          at,
        });
      for (const use of usesIn(step)) {
        const name = use.name === 'userData' || use.name === 'variables' ? use.inner : use.name;
        if (
          name === undefined ||
          (use.inParams && (PARAMS_ONLY as readonly string[]).includes(name) && name === use.name)
        )
          continue;
        entry(name, kindOf(name)).uses.push({ path: [...base, ...use.path], at });
      }
    }),
  );
  (definition.faq ?? []).forEach((pair, i) => {
    if (typeof pair?.answer === 'string')
      for (const name of firstNames(pair.answer)) entry(name, kindOf(name)).uses.push({ path: ['faq', i, 'answer'] });
  });
  return index as Map<string, VariableInfo>;
}

export interface NameAtPoint {
  readonly name: string;
  readonly kind: VariableKind;
}

/**
 * The names a template at this step can read: user-data fields, built-ins, variables set by
 * steps that can run before it, and in integration parameters `userId`, `userData.…`, `variables.…`.
 */
export function namesAt(definition: DefinitionDoc, at: StepAt | undefined, inParams = false): NameAtPoint[] {
  const out = new Map<string, VariableKind>();
  for (const field of declaredFields(definition)) out.set(field, 'userData');
  for (const name of BUILT_IN_VARIABLES) out.set(name, 'builtIn');
  if (at) {
    const dialogs = dialogsOf(definition);
    const edges = flowEdges(definition);
    for (const before of stepsLeadingTo(definition, at, edges)) {
      const step = stepsOf(dialogs[before.dialog]!)[before.step];
      if (step)
        for (const set of namesSetBy(step))
          if (!out.has(set.name)) out.set(set.name, set.kind === 'userData' ? 'userData' : 'variable');
    }
  }
  if (inParams) for (const name of PARAMS_ONLY) out.set(name, 'params');
  return [...out].map(([name, kind]) => ({ name, kind })).sort((a, b) => a.name.localeCompare(b.name));
}

/** The user-data fields some steps use (set, clear, read in a template or a condition): what a paste of them needs declared. */
export function userDataFieldsUsedBy(definition: DefinitionDoc, steps: readonly StepDoc[]): string[] {
  const declared = declaredFields(definition);
  const out = new Set<string>();
  for (const step of steps) {
    for (const set of namesSetBy(step)) if (set.kind === 'userData') out.add(set.name);
    if (step.type === 'clearUserData' && Array.isArray(step.fields))
      for (const field of step.fields) if (typeof field === 'string') out.add(field);
    for (const use of usesIn(step)) {
      const name = use.name === 'userData' ? use.inner : use.name;
      if (name !== undefined && declared.includes(name)) out.add(name);
    }
  }
  return [...out];
}

interface Use {
  readonly name: string;
  /** For `{{userData.email}}` / `{{variables.x}}`: the name inside. */
  readonly inner?: string;
  readonly path: Path;
  readonly inParams: boolean;
}

/** Every name a step reads: templates, a condition's variable, cardsFrom, cleared fields. */
function usesIn(step: StepDoc): Use[] {
  const out: Use[] = [];
  const visit = (value: unknown, path: (string | number)[], inParams: boolean, depth: number): void => {
    if (depth > 32) return;
    if (typeof value === 'string') {
      for (const match of value.matchAll(TEMPLATE_PLACEHOLDER)) {
        const inner = /^\{\{\s*[A-Za-z_$][\w$]*\.([A-Za-z_$][\w$]*)/.exec(match[0])?.[1];
        out.push({ name: match[1]!, ...(inner === undefined ? {} : { inner }), path, inParams });
      }
      return;
    }
    if (Array.isArray(value)) value.forEach((item, i) => visit(item, [...path, i], inParams, depth + 1));
    else if (isObject(value)) {
      for (const [key, inner] of Object.entries(value)) {
        if (NOT_TEMPLATE_KEYS.has(key) && !inParams) continue;
        visit(inner, [...path, key], inParams || (key === 'params' && depth === 0), depth + 1);
      }
    }
  };
  if (step.type === 'set') {
    (Array.isArray(step.actions) ? step.actions : []).forEach((action, a) => {
      if (isObject(action) && typeof action.template === 'string')
        visit(action.template, ['actions', a, 'template'], false, 1);
    });
  } else visit(step, [], false, 0);
  if (step.type === 'condition' && Array.isArray(step.branches)) {
    step.branches.forEach((branch, b) => {
      const when = isObject(branch) ? branch.when : undefined;
      const list = Array.isArray(when) ? when : [when];
      list.forEach((condition, c) => {
        if (isObject(condition) && typeof condition.variable === 'string') {
          out.push({
            name: condition.variable.split('.')[0]!,
            path: ['branches', b, 'when', ...(Array.isArray(when) ? [c] : []), 'variable'],
            inParams: false,
          });
        }
      });
    });
  }
  if (typeof step.cardsFrom === 'string')
    out.push({ name: step.cardsFrom.split('.')[0]!, path: ['cardsFrom'], inParams: false });
  if (step.type === 'clearUserData' && Array.isArray(step.fields))
    step.fields.forEach(
      (field, i) => typeof field === 'string' && out.push({ name: field, path: ['fields', i], inParams: false }),
    );
  return out;
}

function firstNames(text: string): string[] {
  return [...text.matchAll(TEMPLATE_PLACEHOLDER)].map((match) => match[1]!);
}

function declaredFields(definition: DefinitionDoc): string[] {
  return Array.isArray(definition.userDataFields)
    ? definition.userDataFields.filter((f): f is string => typeof f === 'string')
    : [];
}

/** `actions[0].variable` → ['actions', 0, 'variable']. */
function fieldPath(field: string): (string | number)[] {
  return field
    .split(/[.[\]]+/)
    .filter((part) => part !== '')
    .map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}
