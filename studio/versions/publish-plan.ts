import { css, html, nothing, type PropertyValues } from 'lit';
import { shared } from '../app/styles.ts';
import { StudioScreen } from '../app/studio-screen.ts';
import { t } from '../i18n/strings.ts';
import { changeInWords } from './change-words.ts';
import type { PublishPlan, StepRef, Stranded } from '../../shared/studio-versions.ts';
import type { DefinitionOutline } from './types.ts';
import { dataTable } from '../app/data-table.ts';
import { states } from '../app/reactive.ts';

const named = (at: StepRef) => `${at.dialogId}.${at.stepId}`;
const key = (at: StepRef) => JSON.stringify([at.dialogId, at.stepId]);

/**
 * Publishing one version: what `chatbot check` finds (errors block), what changes against the
 * live version, and for each step users could be resting on that the version removes, how many
 * rest there now and where they go (a step of the version, chosen per position). Publishing an
 * earlier version than the live one is a rollback, the same way.
 * @fires published - `{ id, rollback }` once the version is live
 * @fires cancel - the person closed the plan without publishing
 */
export class StudioPublishPlan extends StudioScreen {
  static override styles = [
    shared,
    css`
      :host {
        display: block;
        border: 2px solid #0b5cad;
        border-radius: 6px;
        padding: 0 1rem 1rem;
        margin: 1rem 0;
      }
      h2:focus {
        outline: none;
      }
      ul.problems li[data-severity='error'] {
        color: #a4161a;
      }
      /* A failing test's report keeps its lines and breaks long ones rather than widening the page. */
      pre {
        white-space: pre-wrap;
        overflow-wrap: anywhere;
        font-size: 0.875rem;
      }
      p.error:empty {
        margin: 0;
      }
      .actions {
        display: flex;
        gap: 0.75rem;
        margin-top: 1rem;
      }
      select {
        max-width: 100%;
      }
      /* Space for the stranded positions' table; a position's name breaks only where it must. */
      form {
        max-width: 48rem;
      }
      th[scope='row'] code {
        word-break: normal;
        overflow-wrap: break-word;
      }
      .field {
        display: grid;
        gap: 0.25rem;
        font-weight: 600;
        max-width: 28rem;
        margin-top: 1rem;
      }
    `,
  ];
  static override properties = {
    versionId: {},
    canPublish: { type: Boolean },
    ...states('plan', 'outline'),
  };
  declare versionId: string;
  declare canPublish: boolean;
  declare private plan: PublishPlan | undefined;
  declare private outline: DefinitionOutline | undefined;
  private readonly targets = new Map<string, StepRef>();

  constructor() {
    super();
    this.canPublish = false;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('versionId') && this.versionId) void this.load(this.versionId);
  }

  private async load(id: string): Promise<void> {
    this.plan = undefined;
    this.outline = undefined;
    this.targets.clear();
    await this.attempt(async () => {
      const [plan, version] = await Promise.all([
        this.api.request('publishPlan', { body: { versionId: id } }),
        this.api.request('readVersion', { params: { id } }),
      ]);
      if (id !== this.versionId) return;
      this.plan = plan;
      // Any JSON as written: the outline reads only the dialogs and steps it finds.
      this.outline = version.definition as DefinitionOutline;
      for (const stranded of plan.stranded)
        if (stranded.defaultTarget) this.targets.set(key(stranded), stranded.defaultTarget);
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>('h2')?.focus();
    });
  }

  /** The version's steps, by dialog: what a stranded position may go to. */
  private steps(): Array<{ dialogId: string; stepIds: string[] }> {
    const dialogs = Array.isArray(this.outline?.dialogs) ? this.outline.dialogs : [];
    return dialogs
      .filter((d) => typeof d?.id === 'string')
      .map((d) => {
        const steps: ReadonlyArray<{ readonly id?: unknown }> = Array.isArray(d.steps) ? d.steps : [];
        return {
          dialogId: d.id as string,
          stepIds: steps.map((s) => s?.id).filter((s): s is string => typeof s === 'string'),
        };
      });
  }

  private chose(stranded: Stranded, event: Event): void {
    const [dialogId, stepId] = JSON.parse((event.target as HTMLSelectElement).value) as [string, string];
    this.targets.set(key(stranded), { dialogId, stepId });
  }

  private async publish(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const plan = this.plan;
    if (!plan) return;
    const message = String(new FormData(event.target as HTMLFormElement).get('message') ?? '').trim();
    const moves = plan.stranded.flatMap((stranded) => {
      const to = this.targets.get(key(stranded));
      return to ? [{ from: { dialogId: stranded.dialogId, stepId: stranded.stepId }, to }] : [];
    });
    await this.change(async () => {
      await this.api.request('publish', {
        body: { versionId: plan.versionId, moves, ...(message ? { message } : {}) },
      });
      this.dispatchEvent(
        new CustomEvent('published', {
          detail: { id: plan.versionId, rollback: plan.rollback },
          bubbles: true,
          composed: true,
        }),
      );
    });
  }

  private cancel(): void {
    this.dispatchEvent(new CustomEvent('cancel', { bubbles: true, composed: true }));
  }

  override render() {
    const plan = this.plan;
    const id = this.versionId;
    const title = !plan
      ? t('planPublishTitle', { id })
      : !this.canPublish
        ? t('planReviewTitle', { id })
        : plan.rollback
          ? t('planRollbackTitle', { id })
          : t('planPublishTitle', { id });
    if (!plan) {
      return html`<h2 tabindex="-1">${title}</h2>
        ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : html`<p role="status">${t('planLoading', { id })}</p>`}
        <div class="actions"><button type="button" class="secondary" @click=${this.cancel}>${t('cancel')}</button></div>`;
    }
    const errors = plan.problems.filter((p) => p.severity === 'error');
    const tests = plan.tests ?? [];
    const failing = tests.filter((test) => !test.passed);
    return html`
      <h2 tabindex="-1">${title}</h2>
      ${plan.liveVersionId ? html`<p>${t('planLiveNow', { id: plan.liveVersionId })}</p>` : nothing}
      <h3>${t('planProblems')}</h3>
      ${
        plan.problems.length === 0
          ? html`<p>${t('planNoProblems')}</p>`
          : html`${errors.length > 0 ? html`<p class="error">${t('planErrorsBlock')}</p>` : nothing}
            <ul class="problems">
              ${plan.problems.map(
                (p) =>
                  html`<li data-severity=${p.severity}>${p.severity === 'error' ? t('problemError') : t('problemWarning')}: <code>${p.path}</code> — ${p.message}${p.hint ? html`. ${p.hint}` : nothing}</li>`,
              )}
            </ul>`
      }
      <h3>${t('planTests')}</h3>
      ${
        tests.length === 0
          ? html`<p>${t('planNoTests')}</p>`
          : html`${failing.length > 0 ? html`<p class="error">${t('planTestsBlock')}</p>` : nothing}
            <ul class="tests">
              ${tests.map((test) =>
                test.passed
                  ? html`<li>${t('planTestPassed', { name: test.name })}</li>`
                  : html`<li>${t('planTestFailed', { name: test.name })}<pre>${test.report}</pre></li>`,
              )}
            </ul>`
      }
      <h3>${t('planChanges')}</h3>
      ${plan.diff.length === 0 ? html`<p>${t('planNoChanges')}</p>` : html`<ul>${plan.diff.map((change) => html`<li>${changeInWords(change)}</li>`)}</ul>`}
      <h3>${t('planStranded')}</h3>
      <form @submit=${this.publish}>
        ${plan.stranded.length === 0 ? html`<p>${t('planNoStranded')}</p>` : this.strandedTable(plan.stranded)}
        ${
          this.canPublish
            ? html`<label class="field">${t('planMessage')} <input name="message" maxlength="500" autocomplete="off" /></label>`
            : html`<p class="notice">${t('mayNotPublish')}</p>`
        }
        <p class="error" role="alert">${this.error}</p>
        <div class="actions">
          ${
            this.canPublish
              ? html`<button type="submit" ?disabled=${this.busy || errors.length > 0 || failing.length > 0}>${this.busy ? t('publishing') : plan.rollback ? t('rollbackButton', { id }) : t('publishButton', { id })}</button>`
              : nothing
          }
          <button type="button" class="secondary" @click=${this.cancel}>${t('cancel')}</button>
        </div>
      </form>
    `;
  }

  private strandedTable(stranded: readonly Stranded[]) {
    const steps = this.steps();
    return dataTable(
      { columns: [t('strandedStep'), t('strandedUsers'), t('strandedTarget')] },
      stranded.map((position) => {
        const chosen = this.targets.get(key(position));
        const label = t('strandedTargetLabel', { step: named(position) });
        return html`<tr>
            <th scope="row"><code>${named(position)}</code></th>
            <td>${position.users}</td>
            <td>
              <select aria-label=${label} ?disabled=${!this.canPublish} @change=${(event: Event) => this.chose(position, event)}>
                ${steps.map(
                  (dialog) => html`<optgroup label=${dialog.dialogId}>
                    ${dialog.stepIds.map((stepId) => {
                      const at = { dialogId: dialog.dialogId, stepId };
                      const isDefault = position.defaultTarget !== null && key(position.defaultTarget) === key(at);
                      return html`<option value=${JSON.stringify([dialog.dialogId, stepId])} ?selected=${chosen !== undefined && key(chosen) === key(at)}>
                        ${isDefault ? t('strandedDefault', { step: named(at) }) : named(at)}
                      </option>`;
                    })}
                  </optgroup>`,
                )}
              </select>
            </td>
          </tr>`;
      }),
    );
  }
}
customElements.define('studio-publish-plan', StudioPublishPlan);

declare global {
  interface HTMLElementTagNameMap {
    'studio-publish-plan': StudioPublishPlan;
  }
}
