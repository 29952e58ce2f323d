/**
 * The bot definition as the designer edits it: plain JSON, read loosely. A draft in the middle
 * of an edit need not pass the schema (a new message has no text yet); `check` on the server
 * says what is wrong, so nothing here throws on a missing or odd field.
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface StepDoc {
  id: string;
  type: string;
  [key: string]: unknown;
}

export interface DialogDoc {
  id: string;
  steps: StepDoc[];
  [key: string]: unknown;
}

export interface DefinitionDoc {
  settings: { id?: string; name?: string; startDialog?: string; recoveryDialog?: string; [key: string]: unknown };
  userDataFields?: string[];
  dialogs: DialogDoc[];
  intents?: { id: string; dialog: string; utterances: string[]; [key: string]: unknown }[];
  faq?: { id: string; questions: string[]; answer: string; [key: string]: unknown }[];
  pageEvents?: { name: string; dialog: string; [key: string]: unknown }[];
  [key: string]: unknown;
}

/** Where to go: a step id of the same dialog, or another dialog (optionally a step in it). */
export type TargetDoc = string | { dialog: string; step?: string };

/** A place in the definition: keys and array indexes from the root, `['dialogs', 2, 'steps', 0, 'text']`. */
export type Path = readonly (string | number)[];

/** A step by its position; positions change with every insert, ids with every rename. */
export interface StepAt {
  readonly dialog: number;
  readonly step: number;
}

export type Loose = Record<string, unknown>;

export const isObject = (value: unknown): value is Loose =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
