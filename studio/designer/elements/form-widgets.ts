import { html, nothing, type TemplateResult } from 'lit';
import { format } from '../../i18n/catalogue.ts';
import { getAt } from '../model/paths.ts';
import type { FieldSpec } from '../model/schema-form.ts';
import { isObject, type Path } from '../model/types.ts';
import {
  describeValue,
  fieldId,
  problemsAt,
  rowName,
  rowText,
  specLabel,
  valueWord,
  type FormContext,
} from './form-context.ts';
import { fieldNotes, groupHead, labelledField, problemList } from './form-notes.ts';
import { short } from './short-label.ts';
import { renderPicker, renderSelect } from './form-pickers.ts';
import { renderRecord, renderVariantGroup } from './form-records.ts';
import { renderBranches } from './condition-builder.ts';
import './template-field.ts';
import { problemText } from '../model/problem-words.ts';

/**
 * One field of a step's form, chosen by its widget (model/schema-form.ts): the label is the
 * field's name, the help its schema description, "required" and the default are said, and the
 * problems `check` found on it sit under it, tied to the control with aria-describedby.
 */
export function renderField(context: FormContext, spec: FieldSpec, rel: Path, inParams = false): TemplateResult {
  const value = getAt(context.stepDoc, rel);
  switch (spec.widget) {
    case 'template':
    case 'text':
      return renderText(context, spec, rel, value, inParams);
    case 'number':
      return renderNumber(context, spec, rel, value);
    case 'boolean':
      return renderBoolean(context, spec, rel, value);
    case 'choice':
      return renderChoice(context, spec, rel, value);
    case 'stringList':
      return renderStringList(context, spec, rel, value);
    case 'rows':
      return renderRows(context, spec, rel, value, inParams);
    case 'record':
      return renderRecord(context, spec, rel, value);
    case 'group':
      if (spec.variants) return renderVariantGroup(context, spec, rel, value);
      return html`<fieldset class="group">
        ${groupHead(context, spec, rel)} ${(spec.fields ?? []).map((inner) => renderField(context, inner, [...rel, inner.key], inParams))}
      </fieldset>`;
    case 'keyValue':
      return renderKeyValue(context, spec, rel, value);
    case 'json':
      return renderJson(context, spec, rel, value);
    case 'branches':
      return renderBranches(context, rel);
    default:
      return renderPicker(context, spec, rel, value);
  }
}

function renderText(
  context: FormContext,
  spec: FieldSpec,
  rel: Path,
  value: unknown,
  inParams: boolean,
): TemplateResult {
  if (spec.widget === 'template') {
    return html`<div class="field">
      <template-field
        data-path=${fieldId(rel)}
        .label=${specLabel(context.t, spec)}
        .value=${typeof value === 'string' ? value : value === undefined ? undefined : describeValue(value)}
        .description=${[spec.description, spec.default !== undefined ? format(context.t.defaultValue, { value: valueWord(context.t, spec.key, spec.default) }) : ''].filter(Boolean).join(' ')}
        .required=${spec.required}
        .multiline=${spec.multiline === true || ['text', 'prompt', 'body', 'answer', 'message'].includes(spec.key)}
        .readonly=${context.readOnly}
        .maxLength=${spec.maxLength}
        .problems=${problemsAt(context, rel).map((p) => ({ ...p, message: problemText(context.t, p), hint: undefined }))}
        .names=${context.names(inParams)}
        .kindLabels=${context.t.suggestionKinds}
        .requiredText=${context.t.required}
        .insertText=${context.t.insertVariable}
        .listLabel=${context.t.suggestions}
        @value-change=${(e: CustomEvent<{ value: string | undefined }>) => context.set(rel, e.detail.value)}
      ></template-field>
    </div>`;
  }
  return labelledField(context, spec, rel, ({ id, ids, invalid }) => {
    return html`<input
      id=${id}
      type="text"
      .value=${typeof value === 'string' ? value : value === undefined ? '' : describeValue(value)}
      ?readonly=${context.readOnly}
      aria-describedby=${ids || nothing}
      aria-invalid=${invalid}
      @input=${(e: Event) => context.set(rel, emptyToUndefined((e.target as HTMLInputElement).value))}
    />`;
  });
}

function renderNumber(context: FormContext, spec: FieldSpec, rel: Path, value: unknown): TemplateResult {
  return labelledField(context, spec, rel, ({ id, ids, invalid }) => {
    return html`<input
      id=${id}
      type="number"
      inputmode=${spec.integer ? 'numeric' : 'decimal'}
      step=${spec.integer ? '1' : 'any'}
      min=${spec.minimum ?? nothing}
      max=${spec.maximum ?? nothing}
      placeholder=${spec.default === undefined ? nothing : String(spec.default)}
      .value=${typeof value === 'number' ? String(value) : typeof value === 'string' ? value : ''}
      ?readonly=${context.readOnly}
      aria-describedby=${ids || nothing}
      aria-invalid=${invalid}
      @input=${(e: Event) => {
        const text = (e.target as HTMLInputElement).value.trim();
        // A number a person is still typing ("1e") stays text until it reads as one; check names it meanwhile.
        context.set(rel, text === '' ? undefined : Number.isFinite(Number(text)) ? Number(text) : text);
      }}
    />`;
  });
}

function renderBoolean(context: FormContext, spec: FieldSpec, rel: Path, value: unknown): TemplateResult {
  const id = fieldId(rel);
  const { ids, notes } = fieldNotes(context, spec, rel);
  const checked = typeof value === 'boolean' ? value : spec.default === true;
  return html`<div class="field check">
    <input id=${id} type="checkbox" .checked=${checked} ?disabled=${context.readOnly} aria-describedby=${ids || nothing} @change=${(e: Event) => context.set(rel, (e.target as HTMLInputElement).checked)} />
    <label for=${id}>${specLabel(context.t, spec)}</label>
    ${notes}
  </div>`;
}

function renderChoice(context: FormContext, spec: FieldSpec, rel: Path, value: unknown): TemplateResult {
  const options = spec.enum ?? [];
  const notSet =
    spec.default !== undefined
      ? format(context.t.defaultValue, { value: valueWord(context.t, spec.key, spec.default) })
      : context.t.notSet;
  // Each option reads in words; its value stays the stored one.
  const choices = options.map((option) => ({
    value: describeValue(option),
    label: valueWord(context.t, spec.key, option),
  }));
  // A value outside the list shows as none chosen (check names it there), not as an option of its own.
  const current = value === undefined ? '' : (choices.find((c) => c.value === describeValue(value))?.value ?? '');
  return renderSelect(
    context,
    spec,
    rel,
    current,
    [...(spec.required && value !== undefined ? [] : [{ value: '', label: notSet }]), ...choices],
    (chosen) => context.set(rel, chosen === undefined ? undefined : options.find((o) => describeValue(o) === chosen)),
  );
}

function renderStringList(context: FormContext, spec: FieldSpec, rel: Path, value: unknown): TemplateResult {
  const items = Array.isArray(value) ? value.map((v) => (typeof v === 'string' ? v : describeValue(v))) : [];
  const name = rowName(context.t, spec.key);
  return html`<fieldset class="group">
    ${groupHead(context, spec, rel)}
    <ol class="plain rows">
      ${items.map((item, i) => {
        const id = fieldId([...rel, i]);
        return html`<li class="row-line">
          <label class="visually-hidden" for=${id}>${rowText(context.t.row, name, { n: i + 1 })}</label>
          <input id=${id} type="text" .value=${item} ?readonly=${context.readOnly} @input=${(e: Event) => context.set([...rel, i], (e.target as HTMLInputElement).value)} />
          ${context.readOnly ? nothing : html`<button type="button" class="danger" @click=${() => context.set(rel, emptyList(items.filter((_, j) => j !== i)))}>${short('×', rowText(context.t.removeRow, name, { n: i + 1 }))}</button>`}
          ${problemList(context, [...rel, i])}
        </li>`;
      })}
    </ol>
    ${context.readOnly || (spec.maxItems !== undefined && items.length >= spec.maxItems) ? nothing : html`<button type="button" @click=${() => context.set(rel, [...items, ''])}>${rowText(context.t.addRow, name)}</button>`}
  </fieldset>`;
}

function renderRows(
  context: FormContext,
  spec: FieldSpec,
  rel: Path,
  value: unknown,
  inParams: boolean,
): TemplateResult {
  const items = Array.isArray(value) ? value : [];
  const name = rowName(context.t, spec.key);
  const variants = spec.variants;
  const fresh = () => (variants ? { [variants.key]: variants.options[0]?.value } : {});
  return html`<fieldset class="group">
    ${groupHead(context, spec, rel)}
    <ol class="plain rows">
      ${items.map((item, i) => {
        const itemRel = [...rel, i];
        const kind = variants && isObject(item) ? String(item[variants.key] ?? '') : '';
        const fields = variants ? (variants.options.find((o) => o.value === kind)?.fields ?? []) : (spec.fields ?? []);
        const title = rowText(context.t.row, name, { n: i + 1 });
        return html`<li>
          <fieldset class="row">
            <legend>${title}</legend>
            ${problemList(context, itemRel)}
            ${
              variants
                ? html`<div class="field">
                  <label for=${fieldId([...itemRel, variants.key])}>${context.t.rowKind}</label>
                  <select
                    id=${fieldId([...itemRel, variants.key])}
                    ?disabled=${context.readOnly}
                    @change=${(e: Event) => context.set(itemRel, { ...(isObject(item) && typeof item.label === 'string' ? { label: item.label } : {}), [variants.key]: (e.target as HTMLSelectElement).value })}
                  >
                    ${variants.options.map((o) => html`<option value=${o.value} ?selected=${o.value === kind}>${o.description ?? o.value}</option>`)}
                  </select>
                </div>`
                : nothing
            }
            ${fields.map((inner) => renderField(context, inner, [...itemRel, inner.key], inParams))}
            ${
              context.readOnly
                ? nothing
                : html`<div class="row-actions">
                  <button type="button" ?disabled=${i === 0} @click=${() => context.set(rel, swap(items, i, i - 1))}>${short('↑', rowText(context.t.moveRowUp, name, { n: i + 1 }))}</button>
                  <button type="button" ?disabled=${i === items.length - 1} @click=${() => context.set(rel, swap(items, i, i + 1))}>${short('↓', rowText(context.t.moveRowDown, name, { n: i + 1 }))}</button>
                  <button type="button" class="danger" @click=${() => context.set(rel, emptyList(items.filter((_, j) => j !== i)))}>${short('×', rowText(context.t.removeRow, name, { n: i + 1 }))}</button>
                </div>`
            }
          </fieldset>
        </li>`;
      })}
    </ol>
    ${context.readOnly || (spec.maxItems !== undefined && items.length >= spec.maxItems) ? nothing : html`<button type="button" @click=${() => context.set(rel, [...items, fresh()])}>${rowText(context.t.addRow, name)}</button>`}
  </fieldset>`;
}

function renderKeyValue(context: FormContext, spec: FieldSpec, rel: Path, value: unknown): TemplateResult {
  const entries = isObject(value) ? Object.entries(value) : [];
  const name = rowName(context.t, spec.key);
  const write = (next: [string, unknown][]) =>
    context.set(rel, next.length === 0 ? undefined : Object.fromEntries(next));
  return html`<fieldset class="group">
    ${groupHead(context, spec, rel)}
    <ol class="plain rows">
      ${entries.map(([key, inner], i) => {
        const keyId = fieldId([...rel, `${i}-key`]);
        const valueId = fieldId([...rel, `${i}-value`]);
        return html`<li class="row-line kv">
          <label class="visually-hidden" for=${keyId}>${rowText(context.t.row, name, { n: i + 1 })}: ${context.t.key}</label>
          <input id=${keyId} type="text" .value=${key} ?readonly=${context.readOnly} @change=${(e: Event) => write(entries.map((entry, j) => (j === i ? [(e.target as HTMLInputElement).value, entry[1]] : entry)))} />
          <label class="visually-hidden" for=${valueId}>${rowText(context.t.row, name, { n: i + 1 })}: ${context.t.value}</label>
          <input id=${valueId} type="text" .value=${typeof inner === 'string' ? inner : describeValue(inner)} ?readonly=${context.readOnly} @input=${(e: Event) => context.set([...rel, key], spec.values?.widget === 'json' ? readJson((e.target as HTMLInputElement).value) : (e.target as HTMLInputElement).value)} />
          ${context.readOnly ? nothing : html`<button type="button" class="danger" @click=${() => write(entries.filter((_, j) => j !== i))}>${short('×', rowText(context.t.removeRow, name, { n: i + 1 }))}</button>`}
        </li>`;
      })}
    </ol>
    ${context.readOnly ? nothing : html`<button type="button" @click=${() => write([...entries, [freeKey(entries), '']])}>${rowText(context.t.addRow, name)}</button>`}
  </fieldset>`;
}

function renderJson(context: FormContext, spec: FieldSpec, rel: Path, value: unknown): TemplateResult {
  return labelledField(context, spec, rel, ({ id, ids }) => {
    return html`<input
        id=${id}
        type="text"
        .value=${value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value)}
        ?readonly=${context.readOnly}
        aria-describedby=${[`${id}-json`, ids].filter(Boolean).join(' ')}
        @input=${(e: Event) => context.set(rel, readJson((e.target as HTMLInputElement).value))}
      />
      <p class="help" id=${`${id}-json`}>${context.t.jsonValue}</p>`;
  });
}

/** Text that reads as JSON (42, true, ["a"], {"a":1}, "quoted") is that value; anything else is the text itself. */
function readJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function emptyToUndefined(text: string): string | undefined {
  return text === '' ? undefined : text;
}

const emptyList = <T>(items: T[]): T[] | undefined => (items.length === 0 ? undefined : items);

function swap<T>(items: readonly T[], a: number, b: number): T[] {
  const copy = [...items];
  [copy[a], copy[b]] = [copy[b]!, copy[a]!];
  return copy;
}

function freeKey(entries: [string, unknown][]): string {
  const keys = new Set(entries.map(([k]) => k));
  let n = entries.length + 1;
  while (keys.has(`key${n}`)) n++;
  return `key${n}`;
}
