import { css, html, nothing } from 'lit';
import { DesignerPart } from './designer-part.ts';
import { format } from '../../i18n/catalogue.ts';
import { formatPath, setAt } from '../model/paths.ts';
import type { PlacedProblem } from '../model/problems.ts';
import { paramsFields, stepFields, type FieldSpec } from '../model/schema-form.ts';
import { namesAt } from '../model/variables.ts';
import { isObject, type Path, type StepDoc } from '../model/types.ts';
import { labelFor, type FormContext } from './form-context.ts';
import { formStyles } from './form-styles.ts';
import { renderField } from './form-widgets.ts';
import { inParamWords } from './param-words.ts';
import { base } from './styles.ts';
import { problemText } from '../model/problem-words.ts';
import { stepTypeName } from '../model/step-type-words.ts';
import { bound, states } from '../../app/reactive.ts';

/**
 * The form of one step, generated from the editor schema (and, for an integration, from its
 * step type's own parameter schema): the studio knows no step kind by heart. Every change is one
 * edit through the designer's state, so it can be undone; typing into a field is one undo step.
 */
export class StepForm extends DesignerPart {
  static override styles = [
    base,
    formStyles,
    css`
      .id-row {
        display: flex;
        flex-wrap: wrap;
        gap: 8px;
        align-items: flex-end;
      }
      .id-row .field {
        flex: 1 1 12rem;
      }
      details.more {
        margin-top: 8px;
      }
      details.more summary {
        cursor: pointer;
        font-weight: 600;
        padding: 6px 0;
        color: var(--accent);
      }
    `,
  ];

  static override properties = {
    ...states('moreOpen', 'idError'),
    dialog: { type: Number },
    step: { type: Number },
    ...bound('problems'),
  };

  declare dialog: number;
  declare step: number;
  declare problems: readonly PlacedProblem[];
  declare private idError: string;
  declare private moreOpen: boolean;

  constructor() {
    super();
    this.problems = [];
    this.idError = '';
    this.moreOpen = false;
  }

  private toggleMore(event: Event): void {
    event.preventDefault();
    this.moreOpen = !this.moreOpen;
  }

  /** Focuses the first control, or the one of a field (`text`, `choices[0].label`). */
  focusField(field?: string): void {
    void this.updateComplete.then(() => {
      const root = this.renderRoot;
      const wanted = field && field !== 'first' ? `f-${field.replace(/[^A-Za-z0-9_-]+/g, '_')}` : undefined;
      const target =
        (wanted
          ? (root.querySelector(`#${CSS.escape(wanted)}`) ?? root.querySelector(`[data-path="${CSS.escape(wanted)}"]`))
          : null) ?? root.querySelector('[data-first], input, select, textarea, template-field');
      (target as HTMLElement | null)?.focus();
    });
  }

  override render() {
    const stepDoc = this.definition?.dialogs[this.dialog]?.steps[this.step];
    const schema = this.ui?.state.catalogue?.schema;
    if (!stepDoc || !schema) return nothing;
    const t = this.ui.t;
    const context = this.context(stepDoc);
    const fields = fieldsOf(schema, stepDoc.type);
    // What a step is about comes first; settings that are optional, unset and fine wait behind "More settings".
    const shown = (spec: FieldSpec) =>
      spec.required ||
      stepDoc[spec.key] !== undefined ||
      PRIMARY.has(spec.key) ||
      this.problems.some((p) => topKey(p.field) === spec.key);
    const primary = fields.filter(shown);
    const more = fields.filter((spec) => !shown(spec));
    const field = (spec: FieldSpec) =>
      spec.key === 'params' && stepDoc.type === 'integration'
        ? this.renderParams(context, stepDoc)
        : renderField(context, spec, [spec.key]);
    const known = new Set([...fields.map((f) => f.key), 'id', 'type']);
    // Problems of the step itself, or of a key the form has no field for (an unknown key, a misspelt kind).
    const general = this.problems.filter((p) => p.field === '' || !known.has(topKey(p.field)));
    return html`
      <div class="id-row">${this.renderId(stepDoc)}</div>
      ${
        general.length > 0
          ? html`<ul class="plain" aria-label=${t.formProblems}>
            ${general.map((p) => html`<li class="problem ${p.severity}">${problemText(t, p)}</li>`)}
          </ul>`
          : nothing
      }
      ${primary.map(field)}
      ${
        more.length > 0
          ? html`<details class="more" ?open=${this.moreOpen}>
            <summary @click=${(e: Event) => this.toggleMore(e)}>${format(t.moreSettings, { n: more.length })}</summary>
            ${this.moreOpen ? more.map(field) : nothing}
          </details>`
          : nothing
      }
    `;
  }

  private renderId(stepDoc: StepDoc) {
    const t = this.ui.t;
    const id = `step-id-${this.step}`;
    return html`<div class="field">
      <label for=${id}>${t.stepId}</label>
      <input
        id=${id}
        data-first
        type="text"
        autocomplete="off"
        spellcheck="false"
        .value=${stepDoc.id}
        ?readonly=${this.readOnly}
        aria-describedby=${`${id}-help${this.idError ? ` ${id}-error` : ''}`}
        aria-invalid=${this.idError ? 'true' : nothing}
        @change=${(e: Event) => {
          const input = e.target as HTMLInputElement;
          this.idError = this.ui.renameStep(this.step, input.value.trim()) ?? '';
          if (this.idError) input.value = stepDoc.id;
        }}
      />
      <p class="help" id=${`${id}-help`}>${t.stepIdHelp}</p>
      ${this.idError ? html`<p class="problem" id=${`${id}-error`} role="alert">${this.idError}</p>` : nothing}
    </div>`;
  }

  /** An integration's parameters: the fields of its step type's own schema, or name/value rows for a type the catalogue does not know. */
  private renderParams(context: FormContext, stepDoc: StepDoc) {
    const t = this.ui.t;
    const type = this.ui.state.catalogue?.stepTypes.find((s) => s.name === stepDoc.integration);
    const fields: FieldSpec[] = type ? paramsFields(type.params) : [];
    if (!type)
      return renderField(
        context,
        {
          key: 'params',
          widget: 'keyValue',
          required: false,
          values: { key: 'value', widget: 'json', required: true },
        },
        ['params'],
        true,
      );
    return html`<fieldset class="group">
      <legend>${format(t.paramsOf, { type: stepTypeName(t, type.name) })}</legend>
      <p class="help">${type.description}</p>
      ${context.problems.filter((p) => p.field === 'params').map((p) => html`<p class="problem ${p.severity}">${problemText(context.t, p)}</p>`)}
      ${fields.map((spec) => renderField(context, inParamWords(t, type.name, spec), ['params', spec.key], true))}
    </fieldset>`;
  }

  private context(stepDoc: StepDoc): FormContext {
    const basePath: Path = ['dialogs', this.dialog, 'steps', this.step];
    const label = (rel: Path) =>
      format(this.ui.t.edited, {
        field: labelFor(this.ui.t, String(rel.filter((p) => typeof p === 'string').at(-1) ?? ''), rel[0] === 'params'),
        step: stepDoc.id,
      });
    const at = { dialog: this.dialog, step: this.step };
    return {
      ui: this.ui,
      t: this.ui.t,
      definition: this.definition,
      dialog: this.dialog,
      step: this.step,
      stepDoc,
      problems: this.problems,
      readOnly: this.readOnly,
      renderField,
      names: (inParams) => () => namesAt(this.ui.state.definition ?? this.definition, at, inParams),
      set: (rel, value) =>
        this.ui.state.edit(
          label(rel),
          (d) => setAt(d, [...basePath, ...rel], value),
          formatPath([...basePath, ...rel]),
        ),
      setMany: (changes) =>
        this.ui.state.edit(label(changes[0]?.[0] ?? []), (d) =>
          changes.reduce((acc, [rel, value]) => setAt(acc, [...basePath, ...rel], value), d),
        ),
      edit: (text, change) => this.ui.state.edit(text, (d) => change(d, (rel) => [...basePath, ...rel])),
    };
  }
}

/**
 * The fields of a step kind, read from the editor schema once per schema and kind: the form is drawn
 * again on every key typed in it, and walking the schema each time would cost the key for nothing.
 */
const fieldsByKind = new WeakMap<object, Map<string, FieldSpec[]>>();
function fieldsOf(schema: Parameters<typeof stepFields>[0], type: string): FieldSpec[] {
  let kinds = fieldsByKind.get(schema);
  if (!kinds) fieldsByKind.set(schema, (kinds = new Map()));
  let fields = kinds.get(type);
  if (!fields) kinds.set(type, (fields = stepFields(schema, type)));
  return fields;
}

/** The fields a step is about, shown even when empty (the rest wait behind "More settings" until set). */
const PRIMARY = new Set([
  'text',
  'prompt',
  'inputType',
  'choices',
  'saveTo',
  'buttons',
  'quickReplies',
  'branches',
  'else',
  'actions',
  'dialog',
  'step',
  'duration',
  'then',
  'name',
  'fields',
  'to',
  'subject',
  'body',
  'message',
  'integration',
  'service',
  'params',
  'output',
  'onError',
  'answer',
  'payload',
]);

function topKey(field: string): string {
  return /^[A-Za-z_$][\w$]*/.exec(field)?.[0] ?? field;
}

customElements.define('step-form', StepForm);

declare global {
  interface HTMLElementTagNameMap {
    'step-form': StepForm;
  }
}

export const isStep = (value: unknown): value is StepDoc => isObject(value) && typeof value.id === 'string';
