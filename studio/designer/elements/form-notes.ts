import { html, nothing, type TemplateResult } from 'lit';
import { format } from '../../i18n/catalogue.ts';
import type { FieldSpec } from '../model/schema-form.ts';
import type { Path } from '../model/types.ts';
import { describeValue, fieldId, problemsAt, type FormContext } from './form-context.ts';
import { problemText } from '../model/problem-words.ts';

/** "Required" after a field's label. */
export function requiredMark(context: FormContext, spec: Pick<FieldSpec, 'required'>): TemplateResult | typeof nothing {
  return spec.required ? html` <span class="req">(${context.t.required})</span>` : nothing;
}

/** Help, default and problems under a control; returns the ids for aria-describedby. */
export function fieldNotes(context: FormContext, spec: FieldSpec, rel: Path): { ids: string; notes: TemplateResult } {
  const id = fieldId(rel);
  // A list's empty choice says its default already.
  if (spec.widget === 'choice') spec = { ...spec, default: undefined };
  const problems = problemsAt(context, rel);
  const ids = [
    spec.description ? `${id}-help` : '',
    spec.default !== undefined ? `${id}-default` : '',
    ...problems.map((_, i) => `${id}-p${i}`),
  ]
    .filter(Boolean)
    .join(' ');
  const notes = html`${spec.description ? html`<p class="help" id=${`${id}-help`}>${spec.description}</p>` : nothing}
  ${spec.default !== undefined ? html`<p class="help" id=${`${id}-default`}>${format(context.t.defaultValue, { value: describeValue(spec.default) })}</p>` : nothing}
  ${problems.map((p, i) => html`<p class="problem ${p.severity}" id=${`${id}-p${i}`}>${problemText(context.t, p)}</p>`)}`;
  return { ids, notes };
}

export function problemList(context: FormContext, rel: Path): TemplateResult[] {
  return problemsAt(context, rel).map((p) => html`<p class="problem ${p.severity}">${problemText(context.t, p)}</p>`);
}
