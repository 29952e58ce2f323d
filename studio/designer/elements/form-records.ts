import { html, nothing, type TemplateResult } from 'lit';
import { format } from '../../i18n/catalogue.ts';
import { addEntry, freeName, referencesTo, removeEntry, renameEntry } from '../model/records.ts';
import type { FieldSpec } from '../model/schema-form.ts';
import { isObject, type Path } from '../model/types.ts';
import { fieldId, problemsAt, rowName, rowText, specLabel, type FormContext } from './form-context.ts';
import { groupHead, problemList, requiredMark } from './form-notes.ts';
import { problemText } from '../model/problem-words.ts';

/**
 * A map of named objects (`integrations.services`, or any record of objects the schema has):
 * each entry a form of its own under a name that can be changed (what names it follows), added
 * and removed (Undo brings it back). And an object that comes in kinds (a service's sign-in):
 * the kind picked from the schema's alternatives, then that kind's own fields.
 */

/** The edits of a record go through the whole definition: `rel` is relative to the form's root (the definition for the bot's settings). */
export function renderRecord(context: FormContext, spec: FieldSpec, rel: Path, value: unknown): TemplateResult {
  const t = context.t;
  const entries = isObject(value) ? Object.entries(value) : [];
  const what = rowName(t, spec.key);
  const values = spec.values ?? { key: spec.key, widget: 'group', required: true, fields: [] };
  const add = (event: Event) => {
    const added = freeName(
      entries.map(([name]) => name),
      spec.key === 'services' ? 'service' : 'entry',
    );
    const label = rowText(t.addedEntry, what, { name: added });
    context.edit(label, (d, path) => addEntry(d, path(rel), added, {}));
    context.ui.announce(label);
    focusLater(event, `${fieldId([...rel, entries.length])}-name`);
  };
  return html`<fieldset class="group">
    ${groupHead(context, spec, rel)}
    <ul class="plain rows">
      ${entries.map(
        ([name, entry], i) =>
          html`<li>${renderEntry(
            context,
            spec,
            values,
            rel,
            name,
            entry,
            i,
            entries.map(([other]) => other),
          )}</li>`,
      )}
    </ul>
    ${context.readOnly ? nothing : html`<button type="button" id=${`${fieldId(rel)}-add`} @click=${add}>${rowText(t.addRow, what)}</button>`}
  </fieldset>`;
}

function renderEntry(
  context: FormContext,
  spec: FieldSpec,
  values: FieldSpec,
  rel: Path,
  name: string,
  entry: unknown,
  index: number,
  names: readonly string[],
): TemplateResult {
  const t = context.t;
  const what = rowName(t, spec.key);
  const entryRel = [...rel, name];
  // Ids by position, so the name field keeps its id (and focus) while the name changes.
  const nameId = `${fieldId([...rel, index])}-name`;
  const errorId = `${nameId}-error`;
  const rename = (input: HTMLInputElement) => {
    const next = input.value.trim();
    if (next === name) return;
    const problem = !new RegExp(spec.keyPattern ?? '^[A-Za-z][\\w-]{0,63}$').test(next)
      ? t.entryNameInvalid
      : names.includes(next)
        ? format(t.entryNameTaken, { what, name: next })
        : '';
    const error = input.closest('li')?.querySelector<HTMLElement>(`#${CSS.escape(errorId)}`);
    input.setAttribute('aria-invalid', problem ? 'true' : 'false');
    if (error) error.textContent = problem;
    if (problem) return;
    const label = rowText(t.renamedEntry, what, {
      from: name,
      to: next,
      n: referencesTo(context.definition, rel, name),
    });
    context.edit(label, (d, path) => renameEntry(d, path(rel), name, next));
    context.ui.announce(label);
  };
  const remove = (event: Event) => {
    const label = rowText(t.removedEntry, what, { name });
    context.edit(label, (d, path) => removeEntry(d, path(rel), name));
    context.ui.announce(label);
    // Focus stays in the list: on the name of the entry now in this place, else on "Add …".
    const root = (event.currentTarget as HTMLElement).getRootNode() as ShadowRoot | Document;
    requestAnimationFrame(() => {
      const next = root.querySelector<HTMLElement>(
        `#${CSS.escape(`${fieldId([...rel, Math.min(index, names.length - 2)])}-name`)}`,
      );
      (next ?? root.querySelector<HTMLElement>(`#${CSS.escape(`${fieldId(rel)}-add`)}`))?.focus();
    });
  };
  return html`<fieldset class="row">
    <legend>${rowText(t.recordEntry, what, { name })}</legend>
    <div class="field">
      <label for=${nameId}>${t.entryName} <span class="req">(${t.required})</span></label>
      <input
        id=${nameId}
        type="text"
        autocomplete="off"
        spellcheck="false"
        .value=${name}
        ?readonly=${context.readOnly}
        aria-describedby=${`${nameId}-help ${errorId}`}
        @change=${(e: Event) => rename(e.target as HTMLInputElement)}
        @keydown=${(e: KeyboardEvent) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            rename(e.target as HTMLInputElement);
          }
        }}
      />
      <p class="help" id=${`${nameId}-help`}>${t.entryNameHelp}</p>
      <p class="problem" id=${errorId} role="alert"></p>
    </div>
    ${renderObjectBody(context, values, entryRel, entry)}
    ${
      context.readOnly
        ? nothing
        : html`<div class="row-actions">
          <button type="button" class="danger" @click=${remove}>${rowText(t.removeEntry, what, { name })}</button>
        </div>`
    }
  </fieldset>`;
}

/** An object's fields, or, for one that comes in kinds, the kind and that kind's fields. */
export function renderObjectBody(context: FormContext, spec: FieldSpec, rel: Path, value: unknown): TemplateResult {
  const variants = spec.variants;
  if (!variants)
    return html`${problemList(context, rel)}${(spec.fields ?? []).map((inner) => context.renderField(context, inner, [...rel, inner.key]))}`;
  const kind = isObject(value) && typeof value[variants.key] === 'string' ? (value[variants.key] as string) : '';
  const fields = variants.options.find((o) => o.value === kind)?.fields ?? [];
  const id = fieldId([...rel, variants.key]);
  const problems = problemsAt(context, [...rel, variants.key]);
  return html`${problemList(context, rel)}
    <div class="field">
      <label for=${id}>${format(context.t.kindOf, { what: specLabel(context.t, spec) })}${requiredMark(context, spec)}</label>
      <select
        id=${id}
        ?disabled=${context.readOnly}
        aria-describedby=${problems.length > 0 ? problems.map((_, i) => `${id}-p${i}`).join(' ') : nothing}
        aria-invalid=${problems.length > 0 ? 'true' : nothing}
        @change=${(e: Event) => {
          const chosen = (e.target as HTMLSelectElement).value;
          // Another kind has other fields: the old kind's do not apply to it.
          context.set(rel, chosen === '' ? undefined : { [variants.key]: chosen });
        }}
      >
        ${spec.required && kind !== '' ? nothing : html`<option value="" ?selected=${kind === ''}>${context.t.notSet}</option>`}
        ${variants.options.map((o) => html`<option value=${o.value} ?selected=${o.value === kind}>${o.description ?? o.value}</option>`)}
        ${kind !== '' && !variants.options.some((o) => o.value === kind) ? html`<option value=${kind} selected>${kind}</option>` : nothing}
      </select>
      ${problems.map((p, i) => html`<p class="problem ${p.severity}" id=${`${id}-p${i}`}>${problemText(context.t, p)}</p>`)}
    </div>
    ${fields.map((inner) => context.renderField(context, inner, [...rel, inner.key]))}`;
}

/** An object of one of several kinds, as a field of a form (a service's sign-in). */
export function renderVariantGroup(context: FormContext, spec: FieldSpec, rel: Path, value: unknown): TemplateResult {
  return html`<fieldset class="group">
    <legend>${specLabel(context.t, spec)}${requiredMark(context, spec)}</legend>
    ${spec.description ? html`<p class="help">${spec.description}</p>` : nothing} ${renderObjectBody(context, { ...spec, required: spec.required }, rel, value)}
  </fieldset>`;
}

/** Focuses a control once the edit has drawn it (the form re-renders after the state changed). */
function focusLater(event: Event, id: string): void {
  const root = (event.currentTarget as HTMLElement).getRootNode() as ShadowRoot | Document;
  requestAnimationFrame(() => root.querySelector<HTMLElement>(`#${CSS.escape(id)}`)?.focus());
}
