import type { TemplateResult } from 'lit';
import type { DesignerStrings } from '../i18n/strings.ts';
import { format } from '../../i18n/catalogue.ts';
import { humanize } from '../i18n/strings.ts';
import { optionWord } from '../model/option-words.ts';
import { formatPath } from '../model/paths.ts';
import type { PlacedProblem } from '../model/problems.ts';
import type { FieldSpec } from '../model/schema-form.ts';
import type { NameAtPoint } from '../model/variables.ts';
import type { DefinitionDoc, Path, StepDoc } from '../model/types.ts';
import type { DesignerUi } from '../state/designer-ui.ts';

/** What every widget of a step's form needs: where the step is, its problems, and how to change a field. */
export interface FormContext {
  readonly ui: DesignerUi;
  readonly t: DesignerStrings;
  readonly definition: DefinitionDoc;
  readonly dialog: number;
  readonly step: number;
  readonly stepDoc: StepDoc;
  readonly problems: readonly PlacedProblem[];
  readonly readOnly: boolean;
  /** The names a template at this step can read (parameters read a few more). */
  names(inParams: boolean): () => readonly NameAtPoint[];
  /** Sets a field of the step (`rel` is relative to the step); undefined removes it. */
  set(rel: Path, value: unknown): void;
  /** Several fields at once, as one undo step. */
  setMany(changes: readonly (readonly [Path, unknown])[]): void;
  /** Any edit of the definition as one undo step; `path` makes a step-relative path absolute. */
  edit(label: string, change: (definition: DefinitionDoc, path: (rel: Path) => Path) => DefinitionDoc): void;
  /**
   * Draws a field inside this one (a record's entry, a branch's target) with the form's own
   * dispatcher (form-widgets.ts): handed in by the form, so the widgets that nest fields do not
   * import the dispatcher that imports them.
   */
  readonly renderField: FieldRenderer;
}

export type FieldRenderer = (context: FormContext, spec: FieldSpec, rel: Path, inParams?: boolean) => TemplateResult;

/** A DOM id for a field of the form; unique within the form's shadow root. */
export const fieldId = (rel: Path): string => `f-${formatPath(rel).replace(/[^A-Za-z0-9_-]+/g, '_')}`;

/**
 * The field's label: the studio's word for a known key, else the key made readable (a customer's parameter).
 * An integration's parameters have their own words: `prompt` there is a language model's prompt, not a question.
 */
export function labelFor(t: DesignerStrings, key: string, inParams = false): string {
  return (inParams ? t.paramFields[key] : t.fields[key]) ?? humanize(key);
}

/** A field's label as its spec gives it, else its key's. */
export const specLabel = (t: DesignerStrings, spec: Pick<FieldSpec, 'key' | 'label'>): string =>
  spec.label ?? labelFor(t, spec.key);

/** A value as a list or a default shows it: the word for an option (`choice` → "Pick from choices"), Yes or No, empty, else the value. */
export function valueWord(t: DesignerStrings, key: string, value: unknown): string {
  if (typeof value === 'boolean') return value ? t.yes : t.no;
  // An empty list or set of named values, written [] or {} in the definition, reads as a word.
  if (typeof value === 'object' && value !== null && Object.keys(value).length === 0) return t.emptyValue;
  return optionWord(t, key, String(value)) ?? describeValue(value);
}

/** The problems that name exactly this field. */
export function problemsAt(context: FormContext, rel: Path): PlacedProblem[] {
  const wanted = rel.length === 0 ? '' : formatPath(rel);
  return context.problems.filter((p) => p.field === wanted);
}

/** The item name of a list as it reads inside a sentence (`choices` → "choice"). */
export function rowName(t: DesignerStrings, key: string): string {
  return t.rowNames[key] ?? t.item;
}

/** A label made from a row name (`Add {what}`, `{what} {n}`): filled in, its first letter capitalised, as every label starts. */
export function rowText(
  template: string,
  what: string,
  values: Readonly<Record<string, string | number>> = {},
): string {
  const text = format(template, { ...values, what });
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export const describeValue = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));
