import { html, nothing, type TemplateResult } from 'lit';
import { format } from '../../i18n/catalogue.ts';
import { getAt, setAt } from '../model/paths.ts';
import type { FieldSpec } from '../model/schema-form.ts';
import { isObject, type Path, type TargetDoc } from '../model/types.ts';
import { fieldId, problemsAt, specLabel, type FormContext } from './form-context.ts';
import { fieldNotes, labelledField, requiredMark } from './form-notes.ts';
import { problemText } from '../model/problem-words.ts';
import { stepTypeName } from '../model/step-type-words.ts';

/**
 * The pickers: where a step leads (a step of this dialog, another dialog and a step of it),
 * where an answer is kept, which step type and service a call uses, what a failed call does.
 * Every id is chosen from a list of what exists, never typed.
 */
export function renderPicker(context: FormContext, spec: FieldSpec, rel: Path, value: unknown): TemplateResult {
  switch (spec.widget) {
    case 'target':
      return renderTarget(context, spec, rel, value as TargetDoc | undefined);
    case 'stepOfDialog':
      return renderSelect(context, spec, rel, typeof value === 'string' ? value : '', [
        { value: '', label: context.t.followingStep },
        ...ownSteps(context).map((id) => ({ value: id, label: id })),
      ]);
    case 'dialog':
      return renderSelect(context, spec, rel, typeof value === 'string' ? value : '', [
        { value: '', label: context.t.notSet },
        ...dialogIds(context).map((id) => ({ value: id, label: id })),
      ]);
    case 'stepOfSibling': {
      const dialog = getAt(context.stepDoc, [...rel.slice(0, -1), 'dialog']);
      const steps = context.definition.dialogs.find((d) => d.id === dialog)?.steps.map((s) => s.id) ?? [];
      return renderSelect(context, spec, rel, typeof value === 'string' ? value : '', [
        { value: '', label: context.t.firstStep },
        ...steps.map((id) => ({ value: id, label: id })),
      ]);
    }
    case 'saveTo':
      return renderSaveTo(context, spec, rel, value);
    case 'userDataField':
      return renderFieldPicker(context, spec, rel, typeof value === 'string' ? value : '');
    case 'integrationError':
      return renderIntegrationError(context, spec, rel, typeof value === 'string' ? value : undefined);
    case 'stepType':
      return renderSelect(
        context,
        spec,
        rel,
        typeof value === 'string' ? value : '',
        (context.ui.state.catalogue?.stepTypes ?? []).map((type) => ({
          value: type.name,
          // In words; what the type does is said under the list, with its parameters.
          label: stepTypeName(context.t, type.name),
        })),
        (chosen) =>
          // Another step type has other parameters: its own start empty.
          context.setMany([
            [rel, chosen],
            [['params'], {}],
          ]),
      );
    case 'service': {
      const services = Object.keys(
        (isObject(context.definition.integrations) && isObject(context.definition.integrations.services)
          ? context.definition.integrations.services
          : {}) as object,
      );
      return renderSelect(context, spec, rel, typeof value === 'string' ? value : '', [
        { value: '', label: context.t.noService },
        ...services.map((name) => ({ value: name, label: name })),
      ]);
    }
    case 'secret':
      return renderSecret(context, spec, rel, typeof value === 'string' ? value : '');
    case 'variableName':
    default: {
      return labelledField(context, spec, rel, ({ id, ids, invalid }) => {
        return html`<input id=${id} type="text" autocomplete="off" spellcheck="false" .value=${typeof value === 'string' ? value : ''} ?readonly=${context.readOnly} aria-describedby=${ids || nothing} aria-invalid=${invalid} @input=${(e: Event) => context.set(rel, (e.target as HTMLInputElement).value || undefined)} />`;
      });
    }
  }
}

interface Option {
  readonly value: string;
  readonly label: string;
}

/** A field that chooses one of `options` (the current value kept as an option when it is none of them); `onChange` gets undefined for ''. */
export function renderSelect(
  context: FormContext,
  spec: FieldSpec,
  rel: Path,
  current: string,
  options: readonly Option[],
  onChange?: (value: string | undefined) => void,
): TemplateResult {
  const known = options.some((o) => o.value === current);
  return labelledField(context, spec, rel, ({ id, ids, invalid }) => {
    return html`<select
      id=${id}
      ?disabled=${context.readOnly}
      aria-describedby=${ids || nothing}
      aria-invalid=${invalid}
      @change=${(e: Event) => {
        const chosen = (e.target as HTMLSelectElement).value || undefined;
        if (onChange) onChange(chosen);
        else context.set(rel, chosen);
      }}
    >
      ${known || current === '' ? nothing : html`<option value=${current} selected>${current}</option>`}
      ${options.map((o) => html`<option value=${o.value} ?selected=${o.value === current}>${o.label}</option>`)}
    </select>`;
  });
}

/** A target: first the dialog (this one, or another), then a step of it. */
function renderTarget(context: FormContext, spec: FieldSpec, rel: Path, value: TargetDoc | undefined): TemplateResult {
  const own = context.definition.dialogs[context.dialog]?.id ?? '';
  const dialog = value === undefined ? '' : typeof value === 'string' ? own : value.dialog;
  const step = value === undefined ? '' : typeof value === 'string' ? value : (value.step ?? '');
  const dialogId = `${fieldId(rel)}-dialog`;
  const stepId = `${fieldId(rel)}-step`;
  const problems = problemsAt(context, rel).concat(
    problemsAt(context, [...rel, 'dialog']),
    problemsAt(context, [...rel, 'step']),
  );
  const steps = context.definition.dialogs.find((d) => d.id === dialog)?.steps.map((s) => s.id) ?? [];
  const write = (nextDialog: string, nextStep: string) => {
    if (nextDialog === '') context.set(rel, undefined);
    else if (nextDialog === own) context.set(rel, nextStep === '' ? { dialog: own } : nextStep);
    else context.set(rel, nextStep === '' ? { dialog: nextDialog } : { dialog: nextDialog, step: nextStep });
  };
  const helpId = spec.description ? `${fieldId(rel)}-help` : '';
  const problemIds = problems.map((_, i) => `${fieldId(rel)}-p${i}`);
  const describedBy = [helpId, ...problemIds].filter(Boolean).join(' ');
  return html`<fieldset class="target">
    <legend>${specLabel(context.t, spec)}${requiredMark(context, spec)}</legend>
    <div class="pair">
      <div>
        <label for=${dialogId}>${context.t.targetDialogField}</label>
        <select id=${dialogId} ?disabled=${context.readOnly} aria-describedby=${describedBy || nothing} aria-invalid=${problems.length > 0 ? 'true' : nothing} @change=${(e: Event) => write((e.target as HTMLSelectElement).value, '')}>
          <option value="" ?selected=${dialog === ''}>${context.t.targetNone}</option>
          ${dialogIds(context).map((id) => html`<option value=${id} ?selected=${id === dialog}>${id === own ? format(context.t.thisDialog, { dialog: id }) : id}</option>`)}
          ${dialog !== '' && !dialogIds(context).includes(dialog) ? html`<option value=${dialog} selected>${dialog}</option>` : nothing}
        </select>
      </div>
      <div>
        <label for=${stepId}>${context.t.targetStepField}</label>
        <select id=${stepId} ?disabled=${context.readOnly || dialog === ''} aria-describedby=${describedBy || nothing} @change=${(e: Event) => write(dialog, (e.target as HTMLSelectElement).value)}>
          <option value="" ?selected=${step === ''}>${context.t.targetFirstStep}</option>
          ${steps.map((id) => html`<option value=${id} ?selected=${id === step}>${id}</option>`)}
          ${step !== '' && !steps.includes(step) ? html`<option value=${step} selected>${step}</option>` : nothing}
        </select>
      </div>
    </div>
    ${spec.description ? html`<p class="help" id=${helpId}>${spec.description}</p>` : nothing}
    ${problems.map((p, i) => html`<p class="problem ${p.severity}" id=${problemIds[i]!}>${problemText(context.t, p)}</p>`)}
  </fieldset>`;
}

/** Where an answer is kept: nowhere, a user-data field (declared from here if new), or a variable. */
function renderSaveTo(context: FormContext, spec: FieldSpec, rel: Path, value: unknown): TemplateResult {
  const kind = isObject(value) ? ('userData' in value ? 'userData' : 'variable' in value ? 'variable' : '') : '';
  const kindId = `${fieldId(rel)}-kind`;
  const { ids, notes } = fieldNotes(context, spec, rel);
  return html`<fieldset class="target">
    <legend>${specLabel(context.t, spec)}</legend>
    <div class="field">
      <label for=${kindId}>${context.t.saveToPlace}</label>
      <select id=${kindId} ?disabled=${context.readOnly} aria-describedby=${ids || nothing} @change=${(e: Event) => {
        const next = (e.target as HTMLSelectElement).value;
        context.set(rel, next === '' ? undefined : { [next]: '' });
      }}>
        <option value="" ?selected=${kind === ''}>${context.t.saveToNone}</option>
        <option value="userData" ?selected=${kind === 'userData'}>${context.t.saveToUserData}</option>
        <option value="variable" ?selected=${kind === 'variable'}>${context.t.saveToVariable}</option>
      </select>
    </div>
    ${kind === 'userData' ? renderFieldPicker(context, { key: 'userData', widget: 'userDataField', required: true }, [...rel, 'userData'], String((value as { userData?: unknown }).userData ?? '')) : nothing}
    ${
      kind === 'variable'
        ? renderPicker(
            context,
            { key: 'variable', widget: 'variableName', required: true },
            [...rel, 'variable'],
            (value as { variable?: unknown }).variable,
          )
        : nothing
    }
    ${notes}
  </fieldset>`;
}

/** A declared user-data field, or a new one declared on the spot. */
function renderFieldPicker(context: FormContext, spec: FieldSpec, rel: Path, current: string): TemplateResult {
  const fields = context.definition.userDataFields ?? [];
  const newId = `${fieldId(rel)}-new`;
  const add = (input: HTMLInputElement) => {
    const name = input.value.trim();
    if (!/^[a-z][A-Za-z0-9]{0,63}$/.test(name)) {
      input.setAttribute('aria-invalid', 'true');
      context.ui.announce(context.t.idInvalid);
      return;
    }
    const label = format(context.t.fieldAdded, { field: name });
    // Declared and chosen in one step, so one undo takes both back.
    context.edit(label, (d, path) =>
      setAt(
        {
          ...d,
          userDataFields: (d.userDataFields ?? []).includes(name)
            ? d.userDataFields
            : [...(d.userDataFields ?? []), name],
        },
        path(rel),
        name,
      ),
    );
    input.value = '';
    context.ui.announce(label);
  };
  return html`${renderSelect(context, spec, rel, current, [{ value: '', label: context.t.notSet }, ...fields.map((f) => ({ value: f, label: f }))])}
  ${
    context.readOnly
      ? nothing
      : html`<div class="field inline-add">
        <label for=${newId}>${context.t.newField}</label>
        <div class="row-line">
          <input id=${newId} type="text" autocomplete="off" spellcheck="false" @keydown=${(e: KeyboardEvent) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              add(e.target as HTMLInputElement);
            }
          }} />
          <button type="button" @click=${(e: Event) => add((e.target as HTMLElement).closest('.inline-add')!.querySelector('input')!)}>${context.t.addField}</button>
        </div>
      </div>`
  }`;
}

/** An integration's `onError`: "fatal", "dialog:<id>" or "flag:<name>". */
function renderIntegrationError(
  context: FormContext,
  spec: FieldSpec,
  rel: Path,
  value: string | undefined,
): TemplateResult {
  const current = value ?? String(spec.default ?? 'fatal');
  const policy = current.startsWith('dialog:') ? 'dialog' : current.startsWith('flag:') ? 'flag' : 'fatal';
  const rest = policy === 'fatal' ? '' : current.slice(current.indexOf(':') + 1);
  const policyId = `${fieldId(rel)}-policy`;
  const restId = `${fieldId(rel)}-rest`;
  const { ids, notes } = fieldNotes(context, spec, rel);
  return html`<fieldset class="target">
    <legend>${context.t.errorPolicy}</legend>
    <div class="pair">
      <div>
        <label for=${policyId}>${specLabel(context.t, spec)}</label>
        <select id=${policyId} ?disabled=${context.readOnly} aria-describedby=${ids || nothing} @change=${(
          e: Event,
        ) => {
          const next = (e.target as HTMLSelectElement).value;
          context.set(
            rel,
            next === 'fatal'
              ? undefined
              : next === 'dialog'
                ? `dialog:${context.definition.dialogs.find((_, i) => i !== context.dialog)?.id ?? ''}`
                : 'flag:failed',
          );
        }}>
          <option value="fatal" ?selected=${policy === 'fatal'}>${context.t.errorFatal}</option>
          <option value="dialog" ?selected=${policy === 'dialog'}>${context.t.errorDialog}</option>
          <option value="flag" ?selected=${policy === 'flag'}>${context.t.errorFlag}</option>
        </select>
      </div>
      ${
        policy === 'dialog'
          ? html`<div>
            <label for=${restId}>${context.t.targetDialogField}</label>
            <select id=${restId} ?disabled=${context.readOnly} @change=${(e: Event) => context.set(rel, `dialog:${(e.target as HTMLSelectElement).value}`)}>
              ${dialogIds(context).map((id) => html`<option value=${id} ?selected=${id === rest}>${id}</option>`)}
            </select>
          </div>`
          : policy === 'flag'
            ? html`<div>
              <label for=${restId}>${context.t.flagName}</label>
              <input id=${restId} type="text" .value=${rest} ?readonly=${context.readOnly} @input=${(e: Event) => context.set(rel, `flag:${(e.target as HTMLInputElement).value}`)} />
            </div>`
            : nothing
      }
    </div>
    ${notes}
  </fieldset>`;
}

function ownSteps(context: FormContext): string[] {
  return (context.definition.dialogs[context.dialog]?.steps ?? [])
    .map((s) => s.id)
    .filter((id) => id !== context.stepDoc.id);
}

function dialogIds(context: FormContext): string[] {
  return context.definition.dialogs.map((d) => d.id);
}

/**
 * A field naming a secret: its name picked from the studio's secrets (names only; a value is
 * write-only and never comes back), with the way to Settings to set a new one and a reload.
 */
function renderSecret(context: FormContext, spec: FieldSpec, rel: Path, current: string): TemplateResult {
  const t = context.t;
  const names = context.ui.state.secrets ?? [];
  const owner = context.ui.state.session?.role === 'owner';
  const helpId = `${fieldId(rel)}-secrets`;
  const reload = async () => {
    await context.ui.state.loadSecrets();
    context.ui.announce(format(t.secretsReloaded, { n: context.ui.state.secrets?.length ?? 0 }));
  };
  return html`${renderSelect(context, spec, rel, current, [{ value: '', label: t.secretNone }, ...names.map((name) => ({ value: name, label: name }))])}
    ${
      context.readOnly || (!spec.required && current === '')
        ? // An optional secret left unset (a base URL's override) needs no way to Settings: the sign-in's own field has it.
          nothing
        : html`<div class="field secret-help">
          <p class="help" id=${helpId}>${owner ? t.secretsHelpOwner : t.secretsHelpEditor}</p>
          <div class="row-line">
            <a href="/studio/settings/secrets" target="_blank" rel="noopener">${t.secretsLink}</a>
            <button type="button" aria-describedby=${helpId} @click=${reload}>${t.secretsReload}</button>
          </div>
        </div>`
    }`;
}
