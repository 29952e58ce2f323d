import { html, nothing, type TemplateResult } from 'lit';
import { format } from '../../i18n/catalogue.ts';
import { CONDITION_OPS } from '../../../shared/condition-ops.ts';
import {
  branchesOf,
  formatValue,
  groupsOf,
  parseValue,
  valueKind,
  type BranchGroup,
  type ConditionRow,
} from '../model/conditions.ts';
import { formatPath } from '../model/paths.ts';
import { namesAt } from '../model/variables.ts';
import type { PlacedProblem } from '../model/problems.ts';
import type { Path } from '../model/types.ts';
import { fieldId, type FormContext } from './form-context.ts';
import { short } from './short-label.ts';
import { problemText } from '../model/problem-words.ts';

/**
 * The condition builder: branches as groups of rows (field, test, value), each group holding
 * when all or any of its rows hold, and leading somewhere. Every test the engine has is offered;
 * the field is picked from the names the conversation can hold here, or typed (dots reach in).
 */
export function renderBranches(context: FormContext, rel: Path): TemplateResult {
  const groups = groupsOf(context.stepDoc.branches);
  const write = (next: BranchGroup[]) => context.set(rel, branchesOf(next));
  const listId = `${fieldId(rel)}-names`;
  const names = namesAt(context.definition, { dialog: context.dialog, step: context.step });
  return html`<fieldset class="group branches">
    <legend>${context.t.fields.branches}</legend>
    <datalist id=${listId}>${names.map((n) => html`<option value=${n.name}></option>`)}</datalist>
    <ol class="plain rows">
      ${groups.map((group, g) => renderGroup(context, rel, groups, group, g, write, listId))}
    </ol>
    ${
      context.readOnly
        ? nothing
        : html`<button type="button" @click=${() => write([...groups, { mode: 'all', conditions: [{ variable: '', op: 'notEmpty' }], then: undefined, branches: [] }])}>${context.t.addBranch}</button>`
    }
  </fieldset>`;
}

function renderGroup(
  context: FormContext,
  rel: Path,
  groups: BranchGroup[],
  group: BranchGroup,
  g: number,
  write: (next: BranchGroup[]) => void,
  listId: string,
): TemplateResult {
  const t = context.t;
  const n = g + 1;
  const replace = (next: BranchGroup) => write(groups.map((other, i) => (i === g ? next : other)));
  const modeId = `${fieldId(rel)}-${g}-mode`;
  // Where each row's condition is in the step, so its problems show on it.
  const rowPath = (c: number): string | undefined => {
    const b = group.mode === 'any' ? group.branches[c] : group.branches[0];
    if (b === undefined) return undefined;
    const when = (context.stepDoc.branches as { when?: unknown }[] | undefined)?.[b]?.when;
    return formatPath([...rel, b, 'when', ...(Array.isArray(when) ? [c] : [])]);
  };
  const rowProblems = (c: number) => {
    const path = rowPath(c);
    return path === undefined
      ? []
      : context.problems.filter(
          (p) => p.field === path || p.field.startsWith(`${path}.`) || p.field.startsWith(`${path}[`),
        );
  };
  const branchPaths = group.branches.map((b) => formatPath([...rel, b]));
  const rowFields = new Set(group.conditions.flatMap((_, c) => rowProblems(c)));
  // The rest of this group's problems (a branch as a whole); its target's are shown by the target picker.
  const problems = context.problems.filter(
    (p) =>
      branchPaths.some(
        (path) => p.field === path || (p.field.startsWith(`${path}.`) && !p.field.startsWith(`${path}.then`)),
      ) && !rowFields.has(p),
  );
  const thenRel = [
    ...rel,
    group.branches[0] ?? groups.slice(0, g).reduce((sum, x) => sum + (x.mode === 'any' ? x.conditions.length : 1), 0),
    'then',
  ];
  return html`<li>
    <fieldset class="row branch">
      <legend>${format(t.branch, { n })}</legend>
      <div class="field">
        <label for=${modeId}>${format(t.matchMode, { n })}</label>
        <select id=${modeId} ?disabled=${context.readOnly} @change=${(e: Event) => replace({ ...group, mode: (e.target as HTMLSelectElement).value as BranchGroup['mode'] })}>
          <option value="all" ?selected=${group.mode === 'all'}>${t.matchAll}</option>
          <option value="any" ?selected=${group.mode === 'any'}>${t.matchAny}</option>
        </select>
      </div>
      <ol class="plain conditions">
        ${group.conditions.map((row, c) => renderRow(context, rel, g, c, row, (next) => replace({ ...group, conditions: next === undefined ? group.conditions.filter((_, i) => i !== c) : group.conditions.map((r, i) => (i === c ? next : r)) }), listId, group.conditions.length, rowProblems(c)))}
      </ol>
      ${context.readOnly ? nothing : html`<button type="button" @click=${() => replace({ ...group, conditions: [...group.conditions, { variable: '', op: 'equals', value: '' }] })}>${t.addCondition}<span class="visually-hidden"> (${format(t.branch, { n })})</span></button>`}
      ${problems.map((p) => html`<p class="problem ${p.severity}">${problemText(context.t, p)}</p>`)}
      ${renderThen(context, thenRel, group, replace)}
      ${context.readOnly ? nothing : html`<button type="button" class="danger" @click=${() => write(groups.filter((_, i) => i !== g))}>${short('×', format(t.removeBranch, { n }))}</button>`}
    </fieldset>
  </li>`;
}

/** The group's target, edited with the same picker as every target; written to every branch of the group. */
function renderThen(
  context: FormContext,
  thenRel: Path,
  group: BranchGroup,
  replace: (next: BranchGroup) => void,
): TemplateResult {
  const shadow: FormContext = {
    ...context,
    set: (_rel, value) => replace({ ...group, then: value as BranchGroup['then'] }),
  };
  return shadow.renderField(shadow, { key: 'then', widget: 'target', required: true }, thenRel);
}

function renderRow(
  context: FormContext,
  rel: Path,
  g: number,
  c: number,
  row: ConditionRow,
  change: (next: ConditionRow | undefined) => void,
  listId: string,
  count: number,
  problems: readonly PlacedProblem[],
): TemplateResult {
  const t = context.t;
  const base = `${fieldId(rel)}-${g}-${c}`;
  // A problem names the row's field (`.variable`, `.value`) or the row as a whole.
  const on = (field: string) => problems.filter((p) => p.field.endsWith(`.${field}`));
  const ids = (field: string) =>
    on(field)
      .map((_, i) => `${base}-${field}-p${i}`)
      .join(' ') || nothing;
  const general = problems.filter(
    (p) => !p.field.endsWith('.variable') && !p.field.endsWith('.value') && !p.field.endsWith('.op'),
  );
  const kind = valueKind(row.op);
  const name = format(t.condition, { n: c + 1 });
  return html`<li class="condition">
    <fieldset class="row">
      <legend class="visually-hidden">${name}</legend>
      <div class="triple">
        <div>
          <label for=${`${base}-var`}>${t.conditionVariable}</label>
          <input id=${`${base}-var`} type="text" list=${listId} autocomplete="off" spellcheck="false" .value=${row.variable} ?readonly=${context.readOnly} aria-describedby=${ids('variable')} aria-invalid=${on('variable').length > 0 ? 'true' : nothing} @input=${(e: Event) => change({ ...row, variable: (e.target as HTMLInputElement).value })} />
          ${on('variable').map((p, i) => html`<p class="problem ${p.severity}" id=${`${base}-variable-p${i}`}>${problemText(context.t, p)}</p>`)}
        </div>
        <div>
          <label for=${`${base}-op`}>${t.conditionOp}</label>
          <select id=${`${base}-op`} ?disabled=${context.readOnly} @change=${(e: Event) => {
            const op = (e.target as HTMLSelectElement).value;
            change({
              variable: row.variable,
              op,
              ...(valueKind(op) === 'none' ? {} : { value: parseValue(op, formatValue(row.value)) ?? '' }),
            });
          }}>
            ${CONDITION_OPS.map((op) => html`<option value=${op} ?selected=${op === row.op}>${t.ops[op] ?? op}</option>`)}
          </select>
        </div>
        ${
          kind === 'none'
            ? nothing
            : html`<div>
              <label for=${`${base}-value`}>${kind === 'list' ? t.conditionList : t.conditionValue}</label>
              ${
                kind === 'list'
                  ? html`<textarea id=${`${base}-value`} rows="3" .value=${formatValue(row.value)} ?readonly=${context.readOnly} @input=${(e: Event) => change({ ...row, value: parseValue(row.op, (e.target as HTMLTextAreaElement).value) ?? [] })}></textarea>`
                  : html`<input
                    id=${`${base}-value`}
                    type=${kind === 'number' ? 'number' : 'text'}
                    step=${kind === 'number' ? 'any' : nothing}
                    .value=${formatValue(row.value)}
                    ?readonly=${context.readOnly}
                    aria-describedby=${ids('value')}
                    aria-invalid=${on('value').length > 0 ? 'true' : nothing}
                    @input=${(e: Event) => change({ ...row, value: parseValue(row.op, (e.target as HTMLInputElement).value) ?? '' })}
                  />`
              }
              ${on('value').map((p, i) => html`<p class="problem ${p.severity}" id=${`${base}-value-p${i}`}>${problemText(context.t, p)}</p>`)}
            </div>`
        }
      </div>
      ${general.map((p) => html`<p class="problem ${p.severity}">${problemText(context.t, p)}</p>`)}
      ${context.readOnly || count <= 1 ? nothing : html`<button type="button" class="danger" @click=${() => change(undefined)}>${short('×', format(t.removeCondition, { n: c + 1 }))}</button>`}
    </fieldset>
  </li>`;
}
