import { html, nothing, type TemplateResult } from 'lit';
import { format } from '../../i18n/catalogue.ts';
import type { FieldSpec } from '../model/schema-form.ts';
import type { Path } from '../model/types.ts';
import { fieldId, problemsAt, specLabel, valueWord, type FormContext } from './form-context.ts';
import { problemText } from '../model/problem-words.ts';

/** "Required" after a field's label. */
export function requiredMark(context: FormContext, spec: Pick<FieldSpec, 'required'>): TemplateResult | typeof nothing {
  return spec.required ? html` <span class="req">(${context.t.required})</span>` : nothing;
}

/** Help, default and problems under a control; returns the ids for aria-describedby. */
export function fieldNotes(context: FormContext, spec: FieldSpec, rel: Path): { ids: string; notes: TemplateResult } {
  const id = fieldId(rel);
  // A list's empty choice, and the error policy's list, say their default already.
  if (spec.widget === 'choice' || spec.widget === 'integrationError') spec = { ...spec, default: undefined };
  const problems = problemsAt(context, rel);
  const ids = [
    spec.description ? `${id}-help` : '',
    spec.default !== undefined ? `${id}-default` : '',
    ...problems.map((_, i) => `${id}-p${i}`),
  ]
    .filter(Boolean)
    .join(' ');
  const notes = html`${spec.description ? html`<p class="help" id=${`${id}-help`}>${spec.description}</p>` : nothing}
  ${spec.default !== undefined ? html`<p class="help" id=${`${id}-default`}>${format(context.t.defaultValue, { value: valueWord(context.t, spec.key, spec.default) })}</p>` : nothing}
  ${problems.map((p, i) => html`<p class="problem ${p.severity}" id=${`${id}-p${i}`}>${problemText(context.t, p)}</p>`)}`;
  return { ids, notes };
}

export function problemList(context: FormContext, rel: Path): TemplateResult[] {
  return problemsAt(context, rel).map((p) => html`<p class="problem ${p.severity}">${problemText(context.t, p)}</p>`);
}

/** How a field's control is tied to its label and notes. */
export interface FieldWiring {
  /** The control's id, which its label names. */
  readonly id: string;
  /** The ids of its notes (help, default, problems), for aria-describedby; '' when there are none. */
  readonly ids: string;
  /** 'true' when check found a problem on the field, for aria-invalid. */
  readonly invalid: 'true' | typeof nothing;
}

/**
 * A field of one control: its label (with "required"), the control `control` draws with the wiring,
 * then the help, default and problems it is described by.
 */
export function labelledField(
  context: FormContext,
  spec: FieldSpec,
  rel: Path,
  control: (wiring: FieldWiring) => TemplateResult,
): TemplateResult {
  const id = fieldId(rel);
  const { ids, notes } = fieldNotes(context, spec, rel);
  const invalid = problemsAt(context, rel).length > 0 ? 'true' : nothing;
  return html`<div class="field">
    <label for=${id}>${specLabel(context.t, spec)}${requiredMark(context, spec)}</label>
    ${control({ id, ids, invalid })}
    ${notes}
  </div>`;
}

/** What opens a fieldset of several controls: its legend (with "required"), its help, and the problems on it as a whole. */
export function groupHead(context: FormContext, spec: FieldSpec, rel: Path): TemplateResult {
  return html`<legend>${specLabel(context.t, spec)}${requiredMark(context, spec)}</legend>
    ${spec.description ? html`<p class="help">${spec.description}</p>` : nothing} ${problemList(context, rel)}`;
}
