import {
  BackendError,
  type Catalogue,
  type DesignerBackend,
  type DesignerSession,
  type PresenceEntry,
  type VersionConflictDetails,
} from '../backend/backend.ts';
import { History, type HistoryEntries } from '../model/history.ts';
import { hasErrors, placeProblems, problemsByStep, type PlacedProblem, type Problem } from '../model/problems.ts';
import type { DefinitionDoc } from '../model/types.ts';
import { keepHistory, keptHistory, sessionHistoryStorage, type HistoryStorage } from './kept-history.ts';
import { onIdle, whenIdle } from './when-idle.ts';
import { OneAtATime } from './one-at-a-time.ts';

export type DraftStatus = 'saved' | 'unsaved' | 'saving' | 'failed' | 'conflict' | 'readOnly';

/**
 * How long a check may take before the problems panel says "Checking…". Most answer well within it
 * (15-35 ms for 500 steps): a note flashing on every key says nothing, and each redraw of it costs a
 * frame beside the keystroke's.
 */
export const CHECK_NOTICE_MS = 400;
/** Waits after the last edit before the draft is saved. */
export const AUTOSAVE_DELAY_MS = 800;
const PRESENCE_EVERY_MS = 20_000;
/** The user timing of keeping the undo history in the tab's storage. */
export const KEEP_HISTORY_MEASURE = 'designer: keep undo history';
const HISTORY_LIMIT = 500;
/**
 * How long keeping the undo history may wait for the page to idle. Writing it takes 5-45 ms at 500
 * steps, in the way of a key if done at once after an autosave; a reload or a closed tab before then
 * writes it at once (keepHistoryNow, on pagehide and on the tab being hidden).
 */
const KEEP_HISTORY_WITHIN_MS = 2000;
/**
 * Typing in one field is one undo step however long it takes, as in Figma or Google Docs' fields:
 * the step ends when the field loses focus (seal) or another edit comes between.
 */
const TYPING_IS_ONE_STEP = Number.POSITIVE_INFINITY;

/**
 * The designer's document: the definition with its undo history, the draft's autosave, the
 * problems `check` finds (asked again after every edit), presence, and saving versions. Plain
 * TypeScript: the elements read it and call its methods; it tells them when it changed.
 */
export class DesignerState {
  session: DesignerSession | undefined;
  catalogue: Catalogue | undefined;
  history: History<DefinitionDoc> | undefined;
  baseVersionId: string | null = null;
  revision = 0;
  draftStatus: DraftStatus = 'saved';
  draftError = '';
  problems: PlacedProblem[] = [];
  byStep = new Map<string, PlacedProblem[]>();
  /** A check has been under way for longer than CHECK_NOTICE_MS (the problems panel says so). */
  checking = false;
  checkError = '';
  /** The definition the problems are about; problems of an older one are still shown until the new ones come. */
  checkedDefinition: DefinitionDoc | undefined;
  /** The checks answered, counted (an answer with the same problems changes nothing on the screen). */
  checkCount = 0;
  others: PresenceEntry[] = [];
  loadError = '';
  /** The names of the studio's secrets, for the pickers of fields that name one (undefined until loaded). */
  secrets: string[] | undefined;
  /** Increases on every change, for elements that re-render on it. */
  rev = 0;

  private readonly listeners = new Set<() => void>();
  private saveTimer: ReturnType<typeof setTimeout> | undefined;
  private presenceTimer: ReturnType<typeof setInterval> | undefined;
  /**
   * The server's check, one at a time, started when the page is idle: an edit made while one is
   * under way is checked by the next, which reads the definition as it is then. So a burst of keys
   * (typing, a paste, auto-repeat) costs the server and the page one check per answer, not one per
   * key, and the check's request (the whole definition as JSON) is made after the frame that shows
   * the key, not before it.
   */
  private readonly checks = new OneAtATime(async () => {
    await whenIdle();
    await this.runCheck();
  });
  /**
   * One presence beat at a time: two in flight could reach the server in either order, and the older
   * place (say, none before the first dialog opened) would stand until the next timed beat.
   */
  private readonly beats = new OneAtATime(() => this.beatOnce());
  private checkAbort: AbortController | undefined;
  private savedState: DefinitionDoc | undefined;
  private saving: Promise<void> | undefined;
  private dialogHere: string | undefined;
  /** The definition of the version the draft rests on, once read: what "unsaved edits" are measured against. */
  private versionState: DefinitionDoc | undefined;
  /** The undo history as of the last saved draft, waiting for idle time to be kept, and how to cancel that wait. */
  private historyToKeep: { revision: number; entries: HistoryEntries<DefinitionDoc>; cancel: () => void } | undefined;

  constructor(
    readonly backend: DesignerBackend,
    /** Where the undo history is kept across a reload of the page (none: it is not kept). */
    private readonly historyStorage: HistoryStorage | undefined = sessionHistoryStorage(),
  ) {}

  get definition(): DefinitionDoc | undefined {
    return this.history?.state;
  }

  get readOnly(): boolean {
    return this.session === undefined || this.session.role === 'viewer' || this.session.role === 'analyst';
  }

  get errors(): number {
    return this.problems.filter((p) => p.severity !== 'warning').length;
  }

  get blocksPublish(): boolean {
    return hasErrors(this.problems);
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async load(): Promise<void> {
    this.loadError = '';
    this.changed();
    try {
      this.session = await this.backend.session();
      // The catalogue and the bot are asked at once: neither needs the other, and the designer waits for both.
      const catalogue = this.backend.catalogue();
      if (this.readOnly) {
        const [served, head] = await Promise.all([catalogue, this.backend.loadHead()]);
        this.catalogue = served;
        this.baseVersionId = head.versionId;
        this.history = new History(head.definition);
        this.draftStatus = 'readOnly';
      } else {
        const [served, draft] = await Promise.all([catalogue, this.backend.loadDraft()]);
        this.catalogue = served;
        this.baseVersionId = draft.baseVersionId;
        this.revision = draft.revision;
        // The undo history of this tab's editing session, if the page was reloaded on the draft it was kept with.
        const kept =
          this.historyStorage &&
          keptHistory(
            this.historyStorage,
            this.session.accountId,
            draft.revision,
            draft.definition,
            (a, b) => canonical(a) === canonical(b),
            { limit: HISTORY_LIMIT, coalesceMs: TYPING_IS_ONE_STEP },
          );
        this.history = kept ?? new History(draft.definition, HISTORY_LIMIT, TYPING_IS_ONE_STEP);
        this.savedState = this.history.state;
        this.draftStatus = 'saved';
        void this.loadSecrets();
      }
      this.requestCheck();
      this.startPresence();
    } catch (error) {
      this.loadError = (error as Error).message;
    }
    this.changed();
  }

  /** One edit: `change` maps the definition to the next. Same `coalesce` key in a row = one undo step. */
  edit(label: string, change: (definition: DefinitionDoc) => DefinitionDoc, coalesce?: string): boolean {
    if (!this.history || this.readOnly) return false;
    const next = change(this.history.state);
    if (next === this.history.state) return false;
    this.history.push(next, label, coalesce === undefined ? {} : { coalesce });
    this.afterChange();
    return true;
  }

  /** A field lost focus: the next keys in it make a new undo step. */
  seal(): void {
    this.history?.seal();
  }

  undo(): string | undefined {
    if (this.readOnly) return undefined;
    const label = this.history?.undo();
    if (label !== undefined) this.afterChange();
    return label;
  }

  redo(): string | undefined {
    if (this.readOnly) return undefined;
    const label = this.history?.redo();
    if (label !== undefined) this.afterChange();
    return label;
  }

  /** Saves the current definition as a new version; a conflict comes back as its details for the merge view. */
  async saveVersion(
    message: string,
    baseVersionId = this.baseVersionId,
  ): Promise<
    { ok: true; id: string } | { ok: false; conflict: VersionConflictDetails } | { ok: false; error: string }
  > {
    const definition = this.definition;
    if (!definition) return { ok: false, error: 'not loaded' };
    try {
      const saved = await this.backend.saveVersion({ baseVersionId, definition, message });
      this.baseVersionId = saved.id;
      this.versionState = definition;
      // The draft now rests on the new version.
      await this.flushDraft(true);
      this.changed();
      return { ok: true, id: saved.id };
    } catch (error) {
      if (error instanceof BackendError && error.code === 'version_conflict' && isConflict(error.details))
        return { ok: false, conflict: error.details };
      return { ok: false, error: (error as Error).message };
    }
  }

  /** Reads the secrets' names again (after one was set in Settings); a failure leaves the list as it was. */
  async loadSecrets(): Promise<void> {
    try {
      this.secrets = (await this.backend.secretNames()).sort();
    } catch {
      this.secrets ??= [];
    }
    this.changed();
  }

  /**
   * Whether the definition differs from the version the draft rests on: publishing puts a saved
   * version live, so edits since are not in it. Compared by content, so an edit undone is none.
   */
  async hasUnsavedEdits(): Promise<boolean> {
    const definition = this.definition;
    if (!definition || this.readOnly) return false;
    if (this.baseVersionId === null) return true;
    if (this.versionState === undefined) {
      try {
        this.versionState = await this.backend.loadVersion(this.baseVersionId);
      } catch {
        // Unknown: saving first is the safe answer.
        return true;
      }
    }
    return canonical(definition) !== canonical(this.versionState);
  }

  /** Where this editor is, for the others' presence lists. */
  here(dialog: string | undefined): void {
    if (dialog === this.dialogHere) return;
    this.dialogHere = dialog;
    void this.beat();
  }

  /** Takes the draft another tab saved (after a draft conflict). */
  async reloadDraft(): Promise<void> {
    const draft = await this.backend.loadDraft();
    if (draft.baseVersionId !== this.baseVersionId) this.versionState = undefined;
    this.baseVersionId = draft.baseVersionId;
    this.revision = draft.revision;
    this.history?.push(draft.definition, 'load draft');
    this.savedState = draft.definition;
    this.draftStatus = 'saved';
    this.keepHistory();
    this.requestCheck();
    this.changed();
  }

  /** Keeps this tab's draft over the other's: saves it on the revision the server has now. */
  async overwriteDraft(): Promise<void> {
    const draft = await this.backend.loadDraft();
    this.revision = draft.revision;
    this.draftStatus = 'unsaved';
    await this.flushDraft(true);
  }

  /**
   * Keeps the undo history as of the saved draft, for a reload of the page (only when the screen is what
   * was saved). Its entries are taken now and written when the page is idle: a later save replaces them.
   */
  private keepHistory(): void {
    if (!this.historyStorage || !this.session || !this.history || this.draftStatus !== 'saved') return;
    this.historyToKeep?.cancel();
    this.historyToKeep = {
      revision: this.revision,
      entries: this.history.entries(),
      cancel: onIdle(() => this.keepHistoryNow(), KEEP_HISTORY_WITHIN_MS),
    };
  }

  /** Writes the undo history that waits for idle time now: the page is being left or hidden, or the page is idle. */
  keepHistoryNow(): void {
    const waiting = this.historyToKeep;
    if (!waiting || !this.historyStorage || !this.session) return;
    this.historyToKeep = undefined;
    waiting.cancel();
    const started = performance.now();
    keepHistory(this.historyStorage, this.session.accountId, waiting.revision, waiting.entries);
    // Named in a performance profile (and read by the designer's benchmark): it follows every autosave.
    performance.measure(KEEP_HISTORY_MEASURE, { start: started });
  }

  dispose(): void {
    this.keepHistoryNow();
    clearTimeout(this.saveTimer);
    clearInterval(this.presenceTimer);
    this.checks.stop();
    this.beats.stop();
    this.checkAbort?.abort();
    this.listeners.clear();
  }

  /** Saves the draft now if it changed (before leaving, or after a version save). */
  async flushDraft(force = false): Promise<void> {
    clearTimeout(this.saveTimer);
    if (this.readOnly || !this.history) return;
    if (this.saving) await this.saving;
    const definition = this.history.state;
    if (this.draftStatus === 'conflict') return;
    if (!force && definition === this.savedState) {
      // Undo came back to what the server holds (add, undo, redo, undo): nothing to send, and nothing unsaved.
      if (this.draftStatus === 'unsaved') {
        this.draftStatus = 'saved';
        this.keepHistory();
        this.changed();
      }
      return;
    }
    this.draftStatus = 'saving';
    this.changed();
    this.saving = (async () => {
      try {
        const saved = await this.backend.saveDraft({
          baseVersionId: this.baseVersionId,
          revision: this.revision,
          definition,
        });
        this.revision = saved.revision;
        this.savedState = definition;
        this.draftStatus = this.history?.state === definition ? 'saved' : 'unsaved';
        this.draftError = '';
        this.keepHistory();
        if (this.draftStatus === 'unsaved') this.scheduleSave();
      } catch (error) {
        if (error instanceof BackendError && error.code === 'draft_conflict') this.draftStatus = 'conflict';
        else {
          this.draftStatus = 'failed';
          this.draftError = (error as Error).message;
          // Offline or a passing fault: try again later, nothing is lost meanwhile.
          this.scheduleSave(5000);
        }
      } finally {
        this.saving = undefined;
        this.changed();
      }
    })();
    await this.saving;
  }

  private afterChange(): void {
    if (this.draftStatus !== 'conflict') this.draftStatus = 'unsaved';
    this.scheduleSave();
    this.requestCheck();
    this.changed();
  }

  private scheduleSave(delay = AUTOSAVE_DELAY_MS): void {
    clearTimeout(this.saveTimer);
    this.saveTimer = setTimeout(() => void this.flushDraft(), delay);
  }

  private requestCheck(): void {
    void this.checks.run();
  }

  /**
   * Asks the server's check about the definition on the screen (unless its answer is already there)
   * and redraws only when the answer changes what is shown: typing in a field mostly leaves the
   * problems as they were, and a full redraw then would only take time from the next key.
   */
  private async runCheck(): Promise<void> {
    const definition = this.definition;
    if (!definition || definition === this.checkedDefinition) return;
    const abort = new AbortController();
    this.checkAbort = abort;
    const notice = setTimeout(() => {
      this.checking = true;
      this.changed();
    }, CHECK_NOTICE_MS);
    let shown = false;
    try {
      const problems = await this.backend.check(definition, abort.signal);
      if (abort.signal.aborted) return;
      this.checkedDefinition = definition;
      this.checkCount++;
      if (this.checkError !== '' || !sameProblems(problems, this.problems)) {
        this.problems = placeProblems(problems);
        this.byStep = problemsByStep(this.problems);
        this.checkError = '';
        shown = true;
      }
    } catch (error) {
      if (abort.signal.aborted) return;
      this.checkError = (error as Error).message;
      shown = true;
    } finally {
      clearTimeout(notice);
      if (this.checking) {
        this.checking = false;
        shown = true;
      }
      if (shown && !abort.signal.aborted) this.changed();
    }
  }

  private startPresence(): void {
    clearInterval(this.presenceTimer);
    void this.beat();
    this.presenceTimer = setInterval(() => void this.beat(), PRESENCE_EVERY_MS);
  }

  private beat(): Promise<void> {
    return this.beats.run();
  }

  private async beatOnce(): Promise<void> {
    try {
      const others = await this.backend.presence(this.dialogHere);
      // The same editors in the same places: nothing to redraw (the beat comes every 20 s, typing or not).
      if (JSON.stringify(others) === JSON.stringify(this.others)) return;
      this.others = others;
      this.changed();
    } catch {
      // Presence is a courtesy: a failed beat leaves the last list until the next one.
    }
  }

  private changed(): void {
    this.rev++;
    for (const listener of this.listeners) listener();
  }
}

/** JSON with keys in order: two definitions with the same content read the same whatever order the server kept. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}

/** Whether the check's answer reads as the problems already shown, in the same order. */
function sameProblems(answer: readonly Problem[], shown: readonly Problem[]): boolean {
  return (
    answer.length === shown.length &&
    answer.every(
      (p, i) =>
        p.path === shown[i]!.path &&
        p.severity === shown[i]!.severity &&
        p.message === shown[i]!.message &&
        p.hint === shown[i]!.hint,
    )
  );
}

function isConflict(details: unknown): details is VersionConflictDetails {
  const theirs = (details as { theirs?: { id?: unknown; definition?: unknown } } | undefined)?.theirs;
  return typeof theirs?.id === 'string' && typeof theirs.definition === 'object' && theirs.definition !== null;
}
