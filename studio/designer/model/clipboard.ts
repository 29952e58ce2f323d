import { checkJsonBounds } from '../../../shared/json-bounds.ts';
import { uniqueId } from './ids.ts';
import { declareUserDataFields } from './operations.ts';
import { setAt } from './paths.ts';
import { listReferences, writeReference } from './references.ts';
import { userDataFieldsUsedBy } from './variables.ts';
import { isObject, type DefinitionDoc, type DialogDoc, type StepDoc } from './types.ts';

/**
 * Copy and paste of steps and dialogs as JSON text, within a bot and between bots. On paste,
 * ids that clash are renamed and every reference among the pasted items follows the new ids
 * (the known failure of other builders: pasted jumps still naming the old ids); user-data fields
 * the pasted items use are declared.
 */

/** What the designer puts on the clipboard; plain JSON a person can read and edit. */
export interface ClipboardPayload {
  readonly chatbotClipboard: 1;
  readonly kind: 'steps' | 'dialogs';
  /** The bot it was copied from (so a paste into the same bot can keep jumps to steps left behind). */
  readonly bot?: string;
  /** For steps: the dialog they were copied from. */
  readonly dialog?: string;
  readonly items: StepDoc[] | DialogDoc[];
  /** The user-data fields the items use, to be declared where they are pasted. */
  readonly userDataFields: string[];
  /** For dialogs: the intents that start them, so free text keeps reaching them. */
  readonly intents?: NonNullable<DefinitionDoc['intents']>;
}

export interface PasteResult {
  readonly definition: DefinitionDoc;
  /** Ids the paste had to change, old → new. */
  readonly renamed: { readonly from: string; readonly to: string }[];
  /** User-data fields the paste declared. */
  readonly declared: string[];
  /** Where the pasted items landed: dialog indexes, or step indexes in `dialog`. */
  readonly indexes: number[];
}

/** Most text a paste reads: a large bot is a few hundred kB. */
export const MAX_PASTE_CHARS = 2_000_000;

export function copySteps(definition: DefinitionDoc, dialog: number, steps: readonly number[]): ClipboardPayload {
  const source = definition.dialogs[dialog];
  const items = steps.map((s) => source?.steps[s]).filter((s): s is StepDoc => s !== undefined);
  return {
    chatbotClipboard: 1,
    kind: 'steps',
    bot: botId(definition),
    dialog: source?.id,
    items: structuredClone(items),
    userDataFields: userDataFieldsUsedBy(definition, items),
  };
}

export function copyDialogs(definition: DefinitionDoc, dialogs: readonly number[]): ClipboardPayload {
  const items = dialogs.map((d) => definition.dialogs[d]).filter((d): d is DialogDoc => d !== undefined);
  const ids = new Set(items.map((d) => d.id));
  const intents = (definition.intents ?? []).filter((intent) => ids.has(intent.dialog));
  return {
    chatbotClipboard: 1,
    kind: 'dialogs',
    bot: botId(definition),
    items: structuredClone(items),
    userDataFields: userDataFieldsUsedBy(
      definition,
      items.flatMap((d) => d.steps),
    ),
    ...(intents.length > 0 ? { intents: structuredClone(intents) } : {}),
  };
}

export class PasteError extends Error {
  override readonly name = 'PasteError';
  constructor(readonly reason: 'tooLarge' | 'notJson' | 'nothing' | 'tooDeep') {
    super(reason);
  }
}

/**
 * Reads clipboard text: the designer's own payload, or JSON a person copied from a definition
 * file (a step, a list of steps, a dialog, a list of dialogs, or a whole definition's dialogs).
 */
export function readClipboard(text: string): ClipboardPayload {
  if (text.length > MAX_PASTE_CHARS) throw new PasteError('tooLarge');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new PasteError('notJson');
  }
  // Everything after parsing recurses (clone, render): bound it first.
  if (checkJsonBounds(value, { maxDepth: 40, maxNodes: 200_000 })) throw new PasteError('tooDeep');
  if (isObject(value) && value.chatbotClipboard === 1 && Array.isArray(value.items)) {
    const kind = value.kind === 'dialogs' ? 'dialogs' : 'steps';
    const items = value.items.filter(
      (item) =>
        isObject(item) &&
        typeof item.id === 'string' &&
        (kind === 'dialogs' ? Array.isArray(item.steps) : typeof item.type === 'string'),
    );
    if (items.length === 0) throw new PasteError('nothing');
    return {
      chatbotClipboard: 1,
      kind,
      ...(typeof value.bot === 'string' ? { bot: value.bot } : {}),
      ...(typeof value.dialog === 'string' ? { dialog: value.dialog } : {}),
      items: items as StepDoc[] | DialogDoc[],
      userDataFields: Array.isArray(value.userDataFields)
        ? value.userDataFields.filter((f): f is string => typeof f === 'string')
        : [],
      ...(Array.isArray(value.intents)
        ? {
            intents: value.intents.filter(
              (i) => isObject(i) && typeof i.id === 'string' && typeof i.dialog === 'string',
            ) as NonNullable<DefinitionDoc['intents']>,
          }
        : {}),
    };
  }
  const fields =
    isObject(value) && Array.isArray(value.userDataFields)
      ? value.userDataFields.filter((f): f is string => typeof f === 'string')
      : [];
  const list = isObject(value) && Array.isArray(value.dialogs) ? value.dialogs : Array.isArray(value) ? value : [value];
  const dialogs = list.filter(
    (item): item is DialogDoc => isObject(item) && typeof item.id === 'string' && Array.isArray(item.steps),
  );
  if (dialogs.length > 0) return { chatbotClipboard: 1, kind: 'dialogs', items: dialogs, userDataFields: fields };
  const steps = list.filter(
    (item): item is StepDoc => isObject(item) && typeof item.id === 'string' && typeof item.type === 'string',
  );
  if (steps.length > 0) return { chatbotClipboard: 1, kind: 'steps', items: steps, userDataFields: fields };
  throw new PasteError('nothing');
}

/** Pastes dialogs after `at` (an index in the dialog list). */
export function pasteDialogs(definition: DefinitionDoc, payload: ClipboardPayload, at: number): PasteResult {
  const { list: dialogs, ids: map, indexes } = insertCopies(definition.dialogs, payload.items as DialogDoc[], at);
  let next: DefinitionDoc = { ...definition, dialogs };
  const pasted = new Set(indexes);
  for (const ref of listReferences(next)) {
    if (!ref.from || !pasted.has(ref.from.dialog) || ref.shape === 'step') continue;
    const to = map.get(ref.dialog);
    if (to !== undefined && to !== ref.dialog)
      next = writeReference(next, ref, { dialog: to, ...(ref.step === undefined ? {} : { step: ref.step }) });
  }
  if (payload.intents && payload.intents.length > 0) {
    // The intents that started the pasted dialogs start the copies, under ids free here.
    const intentIds = new Set((next.intents ?? []).map((i) => i.id));
    const added = payload.intents.map((intent) => {
      const id = uniqueId(intent.id, intentIds);
      intentIds.add(id);
      return { ...structuredClone(intent), id, dialog: map.get(intent.dialog) ?? intent.dialog };
    });
    next = { ...next, intents: [...(next.intents ?? []), ...added] };
  }
  return withFields(next, payload, map, indexes);
}

/** Pastes steps into a dialog at a step index. */
export function pasteSteps(
  definition: DefinitionDoc,
  payload: ClipboardPayload,
  dialog: number,
  at: number,
): PasteResult {
  const target = definition.dialogs[dialog];
  if (!target) return { definition, renamed: [], declared: [], indexes: [] };
  const { list: steps, ids: map, indexes } = insertCopies(target.steps, payload.items as StepDoc[], at);
  let next = setAt(definition, ['dialogs', dialog, 'steps'], steps);
  const pasted = new Set(indexes);
  const sameBot = payload.bot !== undefined && payload.bot === botId(definition);
  const source = payload.dialog;
  for (const ref of listReferences(next)) {
    if (!ref.from || ref.from.dialog !== dialog || !pasted.has(ref.from.step)) continue;
    // A bare step id meant a step of the dialog it was copied from.
    const meantDialog = ref.shape === 'step' ? (source ?? target.id) : ref.dialog;
    if (ref.step !== undefined && meantDialog === (source ?? target.id) && map.has(ref.step)) {
      next = writeReference(next, ref, { dialog: target.id, step: map.get(ref.step)! }, target.id);
    } else if (ref.shape === 'step' && source !== undefined && source !== target.id && sameBot) {
      // A step left behind in the source dialog of this same bot: keep the jump going there.
      next = writeReference(
        next,
        ref,
        { dialog: source, ...(ref.step === undefined ? {} : { step: ref.step }) },
        target.id,
      );
    }
  }
  return withFields(next, payload, map, indexes);
}

/**
 * Copies of `items` put into `list` at `at` (kept within the list), each under an id free there
 * (its own where it is): the new list, each copied id's new id, and where the copies now stand.
 */
function insertCopies<Item extends { readonly id: string }>(
  list: readonly Item[],
  items: readonly Item[],
  at: number,
): { list: Item[]; ids: Map<string, string>; indexes: number[] } {
  const taken = new Set(list.map((item) => item.id));
  const ids = new Map<string, string>();
  for (const item of items) {
    const id = uniqueId(item.id, taken);
    taken.add(id);
    ids.set(item.id, id);
  }
  const start = Math.max(0, Math.min(at, list.length));
  const copies = structuredClone(items).map((item) => ({ ...item, id: ids.get(item.id)! }));
  return {
    list: [...list.slice(0, start), ...copies, ...list.slice(start)],
    ids,
    indexes: copies.map((_, i) => start + i),
  };
}

/** The result of a paste: the user-data fields the copies use declared, and the ids that changed said. */
function withFields(
  definition: DefinitionDoc,
  payload: ClipboardPayload,
  ids: ReadonlyMap<string, string>,
  indexes: number[],
): PasteResult {
  const renamed = [...ids].filter(([from, to]) => from !== to).map(([from, to]) => ({ from, to }));
  const declared = (definition.userDataFields ?? []) as string[];
  const needed = payload.userDataFields.filter(
    (field) => /^[a-z][A-Za-z0-9]{0,63}$/.test(field) && !declared.includes(field),
  );
  return { definition: declareUserDataFields(definition, needed), renamed, declared: needed, indexes };
}

function botId(definition: DefinitionDoc): string | undefined {
  return typeof definition.settings?.id === 'string' ? definition.settings.id : undefined;
}
