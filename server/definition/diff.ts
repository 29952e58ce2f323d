/**
 * What changed between two definitions, in words an author reads before publishing: dialogs and
 * steps added, removed or changed (and which fields), the settings, intents, FAQ pairs and the
 * other parts. Compares by id, so a step that moves within its dialog is a reorder, not a removal and an addition. Works on
 * definitions as written (valid or not): anything that is not the expected shape compares as a
 * whole. Pure.
 */

import type { Change } from '../../shared/studio-versions.ts';

export type { Change };

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const list = (value: unknown): Json[] => (Array.isArray(value) ? value.filter(isObject) : []);
const idOf = (value: Json): string | undefined => (typeof value.id === 'string' ? value.id : undefined);
/**
 * Equal as data: keys in any order at every level (a file as written and its stored, canonical
 * form differ only there), a key holding undefined as absent. Definitions are bounded in depth
 * before they get here.
 */
function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b))
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => same(item, b[i]));
  if (!isObject(a) || !isObject(b)) return false;
  const keys = (value: Json) => Object.keys(value).filter((key) => value[key] !== undefined);
  const own = keys(a);
  return own.length === keys(b).length && own.every((key) => b[key] !== undefined && same(a[key], b[key]));
}
const quoted = (text: string) => JSON.stringify(text);
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The keys whose values differ (a key on one side only counts). */
function changedFields(before: Json, after: Json): string[] {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return keys.filter((key) => !same(before[key], after[key]));
}

/** Items of two lists matched by id, each with its index. */
function byId(items: Json[]): Map<string, { item: Json; index: number }> {
  const map = new Map<string, { item: Json; index: number }>();
  items.forEach((item, index) => {
    const id = idOf(item);
    if (id !== undefined && !map.has(id)) map.set(id, { item, index });
  });
  return map;
}

export function diffDefinitions(live: unknown, next: unknown): Change[] {
  const before = isObject(live) ? live : {};
  const after = isObject(next) ? next : {};
  const changes: Change[] = [];

  const settingsFields = changedFields(
    isObject(before.settings) ? before.settings : {},
    isObject(after.settings) ? after.settings : {},
  );
  if (settingsFields.length > 0) {
    changes.push({
      kind: 'changed',
      what: 'settings',
      path: 'settings',
      fields: settingsFields,
      words: `Settings changed: ${settingsFields.join(', ')}.`,
    });
  }

  changes.push(...dialogChanges(list(before.dialogs), list(after.dialogs)));
  changes.push(...listChanges('intent', 'intents', list(before.intents), list(after.intents)));
  changes.push(...listChanges('faq', 'faq', list(before.faq), list(after.faq)));

  for (const part of ['userDataFields', 'integrations', 'stepTypes', 'pageEvents', '$schema']) {
    if (same(before[part], after[part])) continue;
    const kind = before[part] === undefined ? 'added' : after[part] === undefined ? 'removed' : 'changed';
    changes.push({ kind, what: 'part', path: part, id: part, words: `${part} ${kind}.` });
  }
  return changes;
}

function dialogChanges(before: Json[], after: Json[]): Change[] {
  const out: Change[] = [];
  const old = byId(before);
  const now = byId(after);
  for (const [dialogId, { item, index }] of now) {
    const path = `dialogs[${index}]`;
    const steps = list(item.steps);
    const was = old.get(dialogId);
    if (!was) {
      out.push({
        kind: 'added',
        what: 'dialog',
        path,
        dialogId,
        words: `Dialog ${quoted(dialogId)} added (${plural(steps.length, 'step')}).`,
      });
      continue;
    }
    const oldSteps = list(was.item.steps);
    const oldById = byId(oldSteps);
    const newById = byId(steps);
    for (const [stepId, step] of newById) {
      const stepPath = `${path}.steps[${step.index}]`;
      const prior = oldById.get(stepId);
      if (!prior) {
        out.push({
          kind: 'added',
          what: 'step',
          path: stepPath,
          dialogId,
          stepId,
          words: `Step ${quoted(stepId)} added to dialog ${quoted(dialogId)}.`,
        });
        continue;
      }
      const fields = changedFields(prior.item, step.item);
      if (fields.length > 0) {
        out.push({
          kind: 'changed',
          what: 'step',
          path: stepPath,
          dialogId,
          stepId,
          fields,
          words: `Step ${quoted(stepId)} in dialog ${quoted(dialogId)} changed: ${fields.join(', ')}.`,
        });
      }
    }
    for (const [stepId, prior] of oldById) {
      if (newById.has(stepId)) continue;
      out.push({
        kind: 'removed',
        what: 'step',
        path: `${path}.steps[${prior.index}]`,
        dialogId,
        stepId,
        words: `Step ${quoted(stepId)} removed from dialog ${quoted(dialogId)}.`,
      });
    }
    const kept = (items: Json[], other: Map<string, unknown>) =>
      items.map(idOf).filter((id): id is string => id !== undefined && other.has(id));
    if (!same(kept(oldSteps, newById), kept(steps, oldById))) {
      out.push({
        kind: 'changed',
        what: 'dialog',
        path,
        dialogId,
        fields: ['order'],
        words: `Steps of dialog ${quoted(dialogId)} reordered.`,
      });
    }
    const otherFields = changedFields({ ...was.item, steps: undefined }, { ...item, steps: undefined });
    if (otherFields.length > 0)
      out.push({
        kind: 'changed',
        what: 'dialog',
        path,
        dialogId,
        fields: otherFields,
        words: `Dialog ${quoted(dialogId)} changed: ${otherFields.join(', ')}.`,
      });
  }
  for (const [dialogId, { item, index }] of old) {
    if (now.has(dialogId)) continue;
    out.push({
      kind: 'removed',
      what: 'dialog',
      path: `dialogs[${index}]`,
      dialogId,
      words: `Dialog ${quoted(dialogId)} removed (${plural(list(item.steps).length, 'step')}).`,
    });
  }
  return out;
}

function listChanges(what: 'intent' | 'faq', key: string, before: Json[], after: Json[]): Change[] {
  const out: Change[] = [];
  const old = byId(before);
  const now = byId(after);
  const noun = what === 'intent' ? 'Intent' : 'FAQ pair';
  for (const [id, { item, index }] of now) {
    const was = old.get(id);
    if (!was) out.push({ kind: 'added', what, path: `${key}[${index}]`, id, words: `${noun} ${quoted(id)} added.` });
    else {
      const fields = changedFields(was.item, item);
      if (fields.length > 0)
        out.push({
          kind: 'changed',
          what,
          path: `${key}[${index}]`,
          id,
          fields,
          words: `${noun} ${quoted(id)} changed: ${fields.join(', ')}.`,
        });
    }
  }
  for (const [id, { index }] of old)
    if (!now.has(id))
      out.push({ kind: 'removed', what, path: `${key}[${index}]`, id, words: `${noun} ${quoted(id)} removed.` });
  return out;
}
