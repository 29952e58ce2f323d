import { LitElement, html, nothing } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import { ApiError, type ApiClient, type SessionInfo } from '../../api/client.ts';
import type { StudioAnswer } from '../../../shared/studio-api.ts';
import { ApiDesignerBackend } from '../backend/api-backend.ts';
import type { DesignerBackend, VersionConflictDetails } from '../backend/backend.ts';
import { stringsFor } from '../i18n/i18n.ts';
import { format, plural } from '../../i18n/catalogue.ts';
import type { DefinitionDoc } from '../model/types.ts';
import { DesignerState } from '../state/designer-state.ts';
import { DesignerUi, type View } from '../state/designer-ui.ts';
import { whenIdle } from '../state/when-idle.ts';
import { deepActive } from './step-palette.ts';
import type { DesignerSide, SidePanel } from './designer-side.ts';
import type { DesignerMap } from './designer-map.ts';
import { layoutStyles } from './designer-styles.ts';
import { base } from './styles.ts';
import { tabKey } from './tabs.ts';
import './bot-form.ts';
import './conflict-view.ts';
import './designer-dialogs.ts';
import './designer-outline.ts';
import './designer-side.ts';
import './step-palette.ts';
import { catalogueInFormWords } from '../model/help-words.ts';
import { helpFor } from '../i18n/help.ts';
import { bound, states } from '../../app/reactive.ts';

const PANELS: readonly SidePanel[] = ['problems', 'variables', 'search', 'preview' as SidePanel];

/**
 * The designer: build and change the bot without writing JSON. The dialog list, the outline of
 * the selected dialog (or the map), and panels for problems, variables, search and preview.
 * Every edit can be undone (Ctrl/Cmd+Z, Shift+Ctrl/Cmd+Z), is saved to the draft as you go, and
 * is checked by the server's `chatbot check`; changes are announced to screen readers.
 *
 * Takes the shell's `api` client and `session` (or any `backend`). A preview component may set `currentStep` (highlighted on
 * the outline and the map) and `liveValues` (shown beside the variables), and goes in the
 * `preview` slot.
 *
 * @fires designer-publish - detail `{ versionId }`: the author asked to publish the saved version.
 * @slot preview - the preview panel's content.
 */
export class StudioDesigner extends LitElement {
  static override styles = [base, layoutStyles];

  static override properties = {
    ...bound('api', 'session', 'backend', 'currentStep', 'liveValues'),
    route: {},
    locale: {},
    ...states('announcements', 'panel', 'saving', 'conflict', 'conflictYours', 'publishAfterSave', 'previewShown'),
  };

  /** The shell's API client and the signed-in person (studio-app gives every screen both). */
  declare api: ApiClient | undefined;
  declare session: SessionInfo | undefined;
  /** The rest of the address below /studio/designer (unused so far). */
  declare route: string;
  declare backend: DesignerBackend | undefined;
  declare locale: string;
  /** A preview's position: `{ dialog, step }` ids. */
  declare currentStep: { dialog: string; step: string } | undefined;
  declare liveValues: Readonly<Record<string, unknown>> | undefined;
  /** The latest announcements, oldest first: a screen reader reads each as it is added. */
  declare private announcements: { id: number; text: string }[];
  declare private panel: SidePanel;
  declare private saving: boolean;
  declare private conflict: VersionConflictDetails | undefined;
  declare private conflictYours: DefinitionDoc | undefined;
  /** The save dialog was opened by "Publish…": once saved, the new version's plan opens. */
  declare private publishAfterSave: boolean;
  /** The preview panel is drawn once its tab is first shown (then kept, with its run), not with the first screen. */
  declare private previewShown: boolean;

  state: DesignerState | undefined;
  ui: DesignerUi | undefined;
  private unsubscribe: (() => void)[] = [];
  private lastProblemCount = -1;

  constructor() {
    super();
    // The shell sets the page's language from the person's; the designer speaks the same.
    this.locale = document.documentElement.lang || navigator.language;
    this.announcements = [];
    this.panel = 'problems';
    this.saving = false;
    this.publishAfterSave = false;
    this.previewShown = false;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // On the window: a shortcut still works when focus fell back to the page (its element was removed).
    window.addEventListener('keydown', this.onKeydown);
    // Leaving a field ends its typing as one undo step; the next keys there make another.
    this.addEventListener('focusout', this.onFocusOut);
    this.addEventListener('copy', this.onCopy);
    this.addEventListener('paste', this.onPaste);
    window.addEventListener('beforeunload', this.onLeave);
    // The undo history waits for idle time after an autosave: a reload, a closed or a hidden tab writes it at once.
    window.addEventListener('pagehide', this.onHide);
    document.addEventListener('visibilitychange', this.onHide);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener('keydown', this.onKeydown);
    this.removeEventListener('focusout', this.onFocusOut);
    this.removeEventListener('copy', this.onCopy);
    this.removeEventListener('paste', this.onPaste);
    window.removeEventListener('beforeunload', this.onLeave);
    window.removeEventListener('pagehide', this.onHide);
    document.removeEventListener('visibilitychange', this.onHide);
    void this.state?.flushDraft();
    this.state?.dispose();
    for (const off of this.unsubscribe) off();
  }

  override willUpdate(changed: Map<string, unknown>): void {
    if (!this.backend && this.api && this.session) this.backend = new ApiDesignerBackend(this.api, this.session);
    if (this.backend && !this.state) this.start(this.backend);
    if (this.ui && changed.has('locale')) {
      this.ui.t = stringsFor(this.locale);
      this.ui.locale = this.locale;
      this.speakCatalogue();
    }
    if (this.ui && (changed.has('currentStep') || changed.has('liveValues'))) {
      this.ui.current = this.currentStep;
      this.ui.liveValues = this.liveValues;
      // The outline, the map and the variables panel draw from ui: told, they draw the preview's position and values.
      this.ui.changed();
    }
  }

  /**
   * Reach and drop-off per step of the version in service (last 30 days), from insights, on the
   * outline and the map: for owners and analysts only (it is drawn from what visitors did).
   */
  private async loadDropOff(ui: DesignerUi): Promise<void> {
    const role = this.session?.account.role;
    if (!this.api || (role !== 'owner' && role !== 'analyst')) return;
    try {
      const figures = await this.dropOffFigures(this.api);
      const description = format(ui.t.dropOffHelp, { version: figures.version });
      ui.figures = new Map(
        figures.steps.map((s) => [
          `${s.dialogId}/${s.stepId}`,
          { text: format(ui.t.dropOffFigure, { reached: s.reached, stopped: s.stopped }), description },
        ]),
      );
      ui.changed();
    } catch {
      // Figures are extra: the designer works without them.
    }
  }

  /**
   * The drop-off figures, asked again after a second and after three when the server could not
   * answer (a busy store, a restart behind the balancer): a refusal is final, a hiccup is not.
   */
  private async dropOffFigures(api: ApiClient): Promise<StudioAnswer<'insightsDropOff'>> {
    for (const pause of [1000, 3000]) {
      try {
        return await api.request('insightsDropOff');
      } catch (error) {
        if (!(error instanceof ApiError) || (error.status !== 0 && error.status < 500)) throw error;
        await new Promise((resolve) => setTimeout(resolve, pause));
      }
    }
    return api.request('insightsDropOff');
  }

  private start(backend: DesignerBackend): void {
    const state = new DesignerState(backend);
    const ui = new DesignerUi(
      state,
      stringsFor(this.locale),
      this.locale,
      (text) => this.announce(text),
      (text) => navigator.clipboard.writeText(text),
    );
    this.state = state;
    this.ui = ui;
    this.unsubscribe.push(
      state.subscribe(() => {
        if (state.checkCount > 0 && state.problems.length !== this.lastProblemCount) {
          // Said once the count changes, not on every check: a screen reader user hears what their edit did.
          if (this.lastProblemCount >= 0) this.announce(ui.problemsSentence());
          this.lastProblemCount = state.problems.length;
        }
        this.requestUpdate();
      }),
      ui.subscribe(() => this.requestUpdate()),
    );
    void state.load().then(async () => {
      this.serverCatalogue = state.catalogue;
      this.speakCatalogue();
      const start = state.definition?.dialogs.findIndex((d) => d.id === state.definition?.settings.startDialog) ?? -1;
      ui.openDialog(Math.max(0, start));
      // The figures are extra: asked once the outline is drawn and the page idle, so the server's work on
      // them (a pass over the version's steps) does not hold up the draft and the catalogue the page waits for.
      await this.updateComplete;
      await whenIdle();
      await this.loadDropOff(ui);
    });
  }

  /** The catalogue as the server sent it: its help texts are in English and name fields by their JSON keys. */
  private serverCatalogue: DesignerState['catalogue'];

  /** Help texts in the person's language and the form's words (labels, not JSON keys), again when the language changes. */
  private speakCatalogue(): void {
    if (this.state && this.serverCatalogue)
      this.state.catalogue = catalogueInFormWords(this.serverCatalogue, stringsFor(this.locale), helpFor(this.locale));
  }

  private announced = 0;

  /** Says something in the live region; earlier ones stay a moment, so two quick ones are both heard. */
  announce(text: string): void {
    this.announcements = [...this.announcements.slice(-4), { id: ++this.announced, text }];
  }

  override render() {
    const ui = this.ui;
    const state = this.state;
    const t = stringsFor(this.locale);
    const live = html`<div class="visually-hidden" role="log" aria-live="polite" aria-label=${t.announcements}>${repeat(
      this.announcements,
      (a) => a.id,
      (a) => html`<p>${a.text}</p>`,
    )}</div>`;
    if (!ui || !state) return live;
    if (state.loadError) {
      return html`<p class="note error" role="alert">${format(t.loadFailed, { reason: state.loadError })}</p>
        <button type="button" @click=${() => void state.load()}>${t.retry}</button>${live}`;
    }
    const definition = state.definition;
    if (!definition) return html`<p role="status">${t.loading}</p>${live}`;
    const readOnly = state.readOnly;
    return html`
      ${this.renderBar(readOnly)}
      ${readOnly ? html`<p class="note" role="note">${format(t.readOnly, { role: state.session?.role ?? '' })}</p>` : nothing}
      ${
        state.draftStatus === 'conflict'
          ? html`<div class="note error" role="alert">
            ${t.draftConflict}
            <button type="button" @click=${() => void state.reloadDraft()}>${t.loadOtherDraft}</button>
            <button type="button" @click=${() => void state.overwriteDraft()}>${t.keepMine}</button>
          </div>`
          : nothing
      }
      <div class="grid">
        <nav class="dialogs" aria-label=${t.dialogs}>
          <designer-dialogs .ui=${ui} .definition=${definition} .selected=${ui.dialog} .byStep=${state.byStep} .readOnly=${readOnly}></designer-dialogs>
        </nav>
        <div class="view" role="tabpanel" id="view-panel" aria-labelledby=${`view-tab-${ui.view}`}>
          ${
            ui.view === 'map'
              ? this.mapLoaded()
                ? html`<designer-map .ui=${ui} .definition=${definition} .byStep=${state.byStep} .current=${ui.current} .figures=${ui.figures}></designer-map>`
                : html`<p role="status">${t.loadingMap}</p>`
              : ui.view === 'bot'
                ? html`<bot-form .ui=${ui} .definition=${definition} .problems=${state.problems} .readOnly=${readOnly}></bot-form>`
                : html`<designer-outline .ui=${ui} .definition=${definition} .dialog=${ui.dialog} .open=${ui.step} .byStep=${state.byStep} .readOnly=${readOnly} .current=${ui.current} .figures=${ui.figures}></designer-outline>`
          }
        </div>
        <section class="panels" aria-label=${t.panels} data-own-history>${this.renderPanels(definition)}</section>
      </div>
      <step-palette .ui=${ui} .open=${ui.palette !== undefined}></step-palette>
      ${this.renderSaveDialog()}
      <conflict-view .ui=${ui} .details=${this.conflict} .yours=${this.conflictYours} @merge-resolved=${this.onMerged} @merge-cancelled=${() => (this.conflict = undefined)}></conflict-view>
      ${live}
    `;
  }

  private renderBar(readOnly: boolean) {
    const ui = this.ui!;
    const state = this.state!;
    const t = ui.t;
    const history = state.history;
    const views: View[] = ['outline', 'map', 'bot'];
    const statusText = {
      saved: t.draftSaved,
      unsaved: t.draftUnsaved,
      saving: t.draftSaving,
      failed: format(t.draftFailed, { reason: state.draftError }),
      conflict: t.draftConflict,
      readOnly: '',
    }[state.draftStatus];
    const others = state.others;
    const mayPublish = state.session?.role === 'owner' || state.session?.role === 'editor';
    const blocked = state.blocksPublish;
    return html`<div class="bar" role="group" aria-label=${t.toolbar}>
      <h1>${t.designer}</h1>
      ${
        readOnly
          ? nothing
          : html`<div class="group">
            <button type="button" ?disabled=${!history?.canUndo} aria-label=${history?.undoLabel ? format(t.undoWhat, { what: actionName(history.undoLabel) }) : t.undo} title=${history?.undoLabel ? format(t.undoWhat, { what: actionName(history.undoLabel) }) : t.undo} @click=${() => ui.undo()}>${t.undo}</button>
            <button type="button" ?disabled=${!history?.canRedo} aria-label=${history?.redoLabel ? format(t.redoWhat, { what: actionName(history.redoLabel) }) : t.redo} title=${history?.redoLabel ? format(t.redoWhat, { what: actionName(history.redoLabel) }) : t.redo} @click=${() => ui.redo()}>${t.redo}</button>
          </div>`
      }
      <div role="tablist" aria-label=${t.views} @keydown=${(e: KeyboardEvent) => this.onViewKey(e, views)}>
        ${views.map(
          (view) =>
            html`<button type="button" role="tab" id=${`view-tab-${view}`} aria-selected=${ui.view === view ? 'true' : 'false'} aria-controls="view-panel" tabindex=${ui.view === view ? '0' : '-1'} @click=${() => this.showView(view)}>
              ${view === 'map' ? t.map : view === 'bot' ? t.botSettings : t.outline}
            </button>`,
        )}
      </div>
      <span class="spacer"></span>
      <span class="presence">${others.length === 0 ? t.presenceNone : html`${t.presence}: ${others.map((o) => format(t.presenceOn, { name: o.name, dialog: o.dialog ?? '—' })).join(', ')}`}</span>
      ${readOnly ? nothing : html`<span class="status ${state.draftStatus}" role="status">${statusText}</span>`}
      ${
        readOnly
          ? nothing
          : html`<button type="button" @click=${() => void this.openSaveDialog()}>${t.saveVersion}</button>`
      }
      ${
        mayPublish
          ? html`<button type="button" class="primary" aria-disabled=${blocked ? 'true' : 'false'} aria-describedby=${blocked ? 'publish-blocked' : nothing} @click=${() => void this.publish()}>${t.publish}</button>
            ${blocked ? html`<span class="status failed" id="publish-blocked">${plural(t.publishBlocked, state.errors, ui.locale)}</span>` : nothing}`
          : nothing
      }
    </div>`;
  }

  private renderPanels(definition: DefinitionDoc) {
    const ui = this.ui!;
    const t = ui.t;
    const state = this.state!;
    const names: Record<string, string> = {
      problems: plural(t.problemsCount, state.problems.length, ui.locale),
      variables: t.variables,
      search: t.search,
      preview: t.preview,
    };
    return html`<div role="tablist" aria-label=${t.panels} @keydown=${(e: KeyboardEvent) => {
      const next = tabKey(e, PANELS, this.panel);
      if (next) this.showPanel(next as SidePanel, true);
    }}>
        ${PANELS.map(
          (panel) =>
            html`<button type="button" role="tab" id=${`panel-tab-${panel}`} aria-selected=${this.panel === panel ? 'true' : 'false'} aria-controls=${`panel-${panel}`} tabindex=${this.panel === panel ? '0' : '-1'} @click=${() => this.showPanel(panel)}>
              ${names[panel]}
            </button>`,
        )}
      </div>
      ${(['problems', 'variables', 'search'] as SidePanel[]).map(
        (
          panel,
        ) => html`<div role="tabpanel" id=${`panel-${panel}`} aria-labelledby=${`panel-tab-${panel}`} ?hidden=${this.panel !== panel}>
          ${this.panel === panel ? html`<designer-side .ui=${ui} .definition=${definition} .panel=${panel} .problems=${state.problems}></designer-side>` : nothing}
        </div>`,
      )}
      <div role="tabpanel" id="panel-preview" aria-labelledby="panel-tab-preview" ?hidden=${this.panel !== ('preview' as SidePanel)}>
        <slot name="preview">${this.previewShown || this.panel === ('preview' as SidePanel) ? this.renderPreview() : nothing}</slot>
      </div>`;
  }

  /** The preview panel (studio/preview/, defined by the studio's entry) for those who may edit; a sentence for the rest. */
  private renderPreview() {
    const role = this.session?.account.role;
    if (role !== 'owner' && role !== 'editor') return html`<p class="help">${this.ui!.t.previewSlot}</p>`;
    const ui = this.ui!;
    const dialog = this.state?.definition?.dialogs[ui.dialog];
    const step = ui.step === undefined ? undefined : dialog?.steps[ui.step];
    const chosen = dialog && step ? { dialogId: dialog.id, stepId: step.id } : undefined;
    return html`<studio-preview-panel .session=${this.session} .host=${this} .chosen=${chosen} .locale=${this.locale}></studio-preview-panel>`;
  }

  private renderSaveDialog() {
    const t = this.ui!.t;
    const first = this.publishAfterSave;
    return html`<dialog id="save-dialog" aria-labelledby="save-title" aria-describedby=${first ? 'save-first-text' : nothing} @close=${() => (this.saving = false)}>
      <form method="dialog" @submit=${this.onSaveSubmit}>
        <h2 id="save-title">${first ? t.saveFirstTitle : t.saveVersionTitle}</h2>
        ${first ? html`<p id="save-first-text">${t.saveFirstText}</p>` : nothing}
        <label for="version-message">${t.versionMessage}</label>
        <input id="version-message" name="message" type="text" maxlength="500" autocomplete="off" aria-describedby="version-message-help" />
        <p class="help" id="version-message-help">${t.versionMessageHelp}</p>
        <div class="buttons">
          <button type="button" @click=${() => this.renderRoot.querySelector<HTMLDialogElement>('#save-dialog')?.close()}>${t.cancel}</button>
          <button type="submit" class="primary" ?disabled=${this.saving}>${first ? t.saveAndContinue : t.save}</button>
        </div>
      </form>
    </dialog>`;
  }

  /**
   * Shows a view. Focus stays on the tab (click, Enter or arrows), as tabs do; on the map the open
   * step is the one the next Tab reaches.
   */
  private showView(view: View): void {
    this.ui?.setView(view);
    if (view === 'map') {
      void customElements.whenDefined('designer-map').then(async () => {
        await this.updateComplete;
        const map = this.renderRoot.querySelector<DesignerMap>('designer-map');
        if (map && this.ui && this.ui.step !== undefined) map.focusStep(this.ui.dialog, this.ui.step, false);
      });
    }
  }

  private onViewKey(event: KeyboardEvent, views: View[]): void {
    const next = tabKey(event, views, this.ui!.view);
    if (!next) return;
    this.showView(next as View);
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>(`#view-tab-${next}`)?.focus());
  }

  private showPanel(panel: SidePanel, focusTab = false): void {
    this.panel = panel;
    if (panel === ('preview' as SidePanel)) this.previewShown = true;
    if (focusTab)
      void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>(`#panel-tab-${panel}`)?.focus());
  }

  private openSaveDialog = async (publishAfter = false) => {
    this.publishAfterSave = publishAfter;
    await this.updateComplete;
    const dialog = this.renderRoot.querySelector<HTMLDialogElement>('#save-dialog');
    if (!dialog) return;
    dialog.querySelector<HTMLInputElement>('#version-message')!.value = '';
    dialog.showModal();
  };

  private onSaveSubmit = async (event: Event) => {
    event.preventDefault();
    const dialog = this.renderRoot.querySelector<HTMLDialogElement>('#save-dialog')!;
    const message = dialog.querySelector<HTMLInputElement>('#version-message')!.value.trim();
    const publishAfter = this.publishAfterSave;
    const saved = await this.saveVersion(message);
    dialog.close();
    this.publishAfterSave = false;
    if (saved && publishAfter) this.openPlan();
  };

  /** Saves a version; true when saved (a conflict opens the merge view, an error is said). */
  private async saveVersion(message: string, baseVersionId?: string): Promise<boolean> {
    const state = this.state!;
    const t = this.ui!.t;
    this.saving = true;
    const result = await state.saveVersion(message, baseVersionId ?? state.baseVersionId);
    this.saving = false;
    if (result.ok) this.announce(t.savedVersion);
    else if ('conflict' in result) {
      this.conflictYours = state.definition;
      this.conflict = result.conflict;
    } else this.announce(format(t.forbidden, { reason: result.error }));
    return result.ok;
  }

  private onMerged = (event: CustomEvent<{ definition: DefinitionDoc; baseVersionId: string }>) => {
    const { definition, baseVersionId } = event.detail;
    this.conflict = undefined;
    this.state?.edit(this.ui!.t.conflictSave, () => definition);
    void this.saveVersion('', baseVersionId);
  };

  /** Publishing puts a saved version live: with edits since the last save, the author is offered to save them first. */
  private publish = async () => {
    const state = this.state!;
    const t = this.ui!.t;
    if (state.blocksPublish) {
      this.announce(plural(t.publishBlocked, state.errors, this.locale));
      return;
    }
    if (await state.hasUnsavedEdits()) {
      await this.openSaveDialog(true);
      return;
    }
    this.openPlan();
  };

  private openPlan(): void {
    const state = this.state!;
    this.dispatchEvent(
      new CustomEvent('designer-publish', {
        detail: { versionId: state.baseVersionId },
        bubbles: true,
        composed: true,
      }),
    );
  }

  /** The map's code (with its pan and zoom library) loads the first time the map is shown. */
  private mapLoaded(): boolean {
    if (customElements.get('designer-map')) return true;
    void import('./designer-map.ts').then(() => this.requestUpdate());
    return false;
  }

  /** The preview's hook: the draft on the server as the screen shows it (PreviewHost). */
  async saveDraftNow(): Promise<void> {
    await this.state?.flushDraft();
  }

  private onKeydown = (event: KeyboardEvent) => {
    const mod = event.ctrlKey || event.metaKey;
    if (!mod || !this.ui || event.defaultPrevented) return;
    // Ours when it happens in the designer, or around it: focus on the page itself, or on the
    // shell's <main> that a click on a heading or on empty space leaves it on.
    const path = event.composedPath();
    if (!path.includes(this) && !(path[0] instanceof Node && holds(path[0], this))) return;
    // A modal dialog (the palette, a save) keeps its own keys.
    if (path.some((node) => node instanceof HTMLDialogElement && node.open)) return;
    const key = event.key.toLowerCase();
    if (key === 'z' || key === 'y') {
      // A text field that is no part of the design (search, the preview's chat and stubs) keeps its own undo.
      if (
        path[0] instanceof HTMLElement &&
        isTextField(path[0]) &&
        path.some((node) => node instanceof HTMLElement && node.hasAttribute('data-own-history'))
      )
        return;
      // A design field's keystrokes are edits of the history, so the history's undo replaces the field's own.
      event.preventDefault();
      if (key === 'y' || event.shiftKey) this.ui.redo();
      else this.ui.undo();
      void this.updateComplete.then(() => this.keepFocus());
    } else if (key === 's') {
      event.preventDefault();
      void this.state?.flushDraft(true);
    } else if (key === 'f' && event.shiftKey) {
      event.preventDefault();
      this.showPanel('search');
      void this.updateComplete.then(() => this.renderRoot.querySelector<DesignerSide>('designer-side')?.focusInput());
    }
  };

  /** After an undo removed the focused control, focus the open step's header, else the selected dialog. */
  private keepFocus(): void {
    const ui = this.ui;
    if (!ui || deepActive() !== document.body) return;
    ui.focus =
      ui.step !== undefined
        ? { kind: 'step', dialog: ui.dialog, step: ui.step }
        : { kind: 'dialog', dialog: ui.dialog };
    ui.changed();
  }

  /** Ctrl+C on a step's header or a dialog in the list copies it as JSON (no clipboard permission needed). */
  private onCopy = (event: ClipboardEvent) => {
    const ui = this.ui;
    const target = event.composedPath()[0] as HTMLElement | undefined;
    if (!ui || !target || isTextField(target)) return;
    const step = target.closest<HTMLElement>('[data-step-head]')?.dataset.stepHead;
    const dialog = target.closest<HTMLElement>('[data-dialog]')?.dataset.dialog;
    const payload =
      step !== undefined
        ? ui.payloadForSteps([Number(step)])
        : dialog !== undefined
          ? ui.payloadForDialog(Number(dialog))
          : undefined;
    if (!payload || !event.clipboardData) return;
    event.preventDefault();
    event.clipboardData.setData('text/plain', JSON.stringify(payload, null, 2));
    ui.copied(payload);
  };

  /** Ctrl+V outside a text field pastes steps after the focused step (or at the end), dialogs after the selected dialog. */
  private onPaste = (event: ClipboardEvent) => {
    const ui = this.ui;
    const target =
      (event.composedPath()[0] as HTMLElement | undefined) ?? (deepActive() as HTMLElement | null) ?? undefined;
    if (!ui || !target || isTextField(target) || ui.state.readOnly) return;
    const text = event.clipboardData?.getData('text/plain') ?? '';
    event.preventDefault();
    const step = target.closest<HTMLElement>('[data-step-head]')?.dataset.stepHead;
    ui.paste(text, step === undefined ? undefined : Number(step));
  };

  private onFocusOut = () => {
    this.state?.seal();
  };

  private onLeave = () => {
    void this.state?.flushDraft();
  };

  private onHide = (event: Event) => {
    if (event.type === 'pagehide' || document.visibilityState === 'hidden') this.state?.keepHistoryNow();
  };
}

/** What an edit did, for the undo and redo buttons' names: the first sentence of its announcement, without the full stop ("Added Question ask"). */
function actionName(label: string): string {
  return (label.split(/(?<=\.)\s/)[0] ?? label).replace(/[.;]$/, '');
}

/** Whether `node` is `inner` or holds it, across shadow roots. */
function holds(node: Node, inner: Node): boolean {
  for (let at: Node | null = inner; at; at = at.parentNode ?? (at instanceof ShadowRoot ? at.host : null))
    if (at === node) return true;
  return false;
}

function isTextField(element: HTMLElement): boolean {
  return element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement || element.isContentEditable;
}

customElements.define('studio-designer', StudioDesigner);

declare global {
  interface HTMLElementTagNameMap {
    'studio-designer': StudioDesigner;
  }
}
