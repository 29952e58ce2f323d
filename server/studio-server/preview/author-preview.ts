import { randomUUID } from 'node:crypto';
import type { CallAnswer, PreviewActivity, PreviewState, StartPreview } from '../../../shared/preview-protocol.ts';
import type { AppDeps } from '../../app/deps.ts';
import { eraseUser } from '../../app/erase-user.ts';
import { openConversation } from '../../app/open-conversation.ts';
import type { BotTest } from '../../bot/tests/test-file.ts';
import type { PreparedBot } from '../../bot/load-bot.ts';
import type { Store } from '../../ports/store.ts';
import { fireTimer } from '../../app/fire-timer.ts';
import { runAsyncCall, type DryRunDeps } from './dry-run.ts';
import { HeldCalls } from './held-calls.ts';
import { namedSecrets } from './mask.ts';
import { previewApp } from './preview-app.ts';
import type { PreviewDeps, PreviewOutlets } from './preview-deps.ts';
import { PreviewJobs } from './preview-jobs.ts';
import { previewStore } from './preview-store.ts';
import { ConversationRecorder } from './recorder.ts';

const MAX_ACTIVITY = 50;

/** A conversation that cannot become a test: values were changed by hand after it began. */
export class NotATest extends Error {
  override readonly name = 'NotATest';
}

/** No preview runs for this author. */
export class NoPreview extends Error {
  override readonly name = 'NoPreview';
  constructor() {
    super('No preview runs; start one first.');
  }
}

interface Running {
  readonly userId: string;
  readonly app: AppDeps;
  readonly bot: PreparedBot;
  readonly holds: HeldCalls;
  readonly jobs: PreviewJobs;
  readonly recorder: ConversationRecorder;
  readonly revision: number;
  readonly from: { readonly dialogId: string; readonly stepId: string | null };
}

/**
 * One author's preview: their draft on the real engine and use cases, as a preview user of
 * their own (preview-store.ts), every outbound call held as a dry run (dry-run.ts) until they
 * answer it, the conversation recorded for "Save as test". One at a time per author: a start
 * ends the one before (its held calls abandoned, its user erased).
 */
export class AuthorPreview {
  private running: Running | null = null;
  private activity: PreviewActivity[] = [];
  private edited = false;
  /** Starts and stops one after the other, so two quick restarts never leave two users. */
  private chain: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly deps: PreviewDeps,
    readonly accountId: string,
    private readonly out: PreviewOutlets,
  ) {}

  get userId(): string | null {
    return this.running?.userId ?? null;
  }

  /** The conversation's use-case deps, for the chat socket. */
  get app(): AppDeps | null {
    return this.running?.app ?? null;
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.chain.then(work, work);
    this.chain = next.catch(() => undefined);
    return next;
  }

  private note(entry: PreviewActivity): void {
    this.activity = [...this.activity, entry].slice(-MAX_ACTIVITY);
    this.publish();
  }

  state(): PreviewState {
    const running = this.running;
    if (!running) return { active: false, activity: this.activity };
    const now = running.recorder.now;
    return {
      active: true,
      draftRevision: running.revision,
      from: running.from,
      position: now.position
        ? { dialogId: now.position.dialogId, stepId: now.position.stepId, awaiting: now.position.awaiting }
        : null,
      variables: Object.fromEntries(Object.entries(now.variables).filter(([key]) => !key.startsWith('$'))),
      userData: now.userData,
      held: running.holds.list(),
      timers: running.jobs.list(),
      activity: this.activity,
      edited: this.edited,
    };
  }

  private publish(): void {
    this.out.state(this.state());
  }

  /** Starts the draft as it is saved now, from the chosen step with the chosen values; ends a preview already running. */
  start(payload: StartPreview): Promise<PreviewState> {
    return this.serial(async () => {
      await this.end();
      const { written, revision } = await this.deps.draft(this.accountId);
      const userId = `preview-${randomUUID()}`;
      const secrets = () => namedSecrets(written, this.deps.env());
      // Made once the draft is read (it needs the start dialog); the store's hooks reach it through here.
      const recording: { current?: ConversationRecorder; jobs?: PreviewJobs } = {};
      const store = this.recordedStore(userId, recording);
      const bot = await this.deps.prepare(written, store);
      const dialogId = payload.dialogId ?? bot.definition.settings.startDialog;
      const from = { dialogId, stepId: payload.stepId ?? null };
      const { variables = {}, userData = {} } = payload;
      const recorder = new ConversationRecorder(
        { ...from, startDialog: bot.definition.settings.startDialog, variables, userData },
        secrets,
      );
      const holds = new HeldCalls(() => this.publish());
      const dry: DryRunDeps = {
        holds,
        secrets,
        activity: (entry) => this.note(entry),
        now: () => this.deps.clock.now(),
      };
      recording.current = recorder;
      const app = previewApp(this.deps, { bot, store, userId, dry, recorder, out: this.out });
      const jobs = this.previewJobs(app, userId, dry, bot, recorder);
      recording.jobs = jobs;
      this.running = { userId, app, bot, holds, jobs, recorder, revision, from };
      this.edited = false;
      this.activity = [];
      this.note({ at: this.deps.clock.now(), what: 'started', ...from });
      // Not awaited: the first step may hold a call until the author answers it, after this start is acked.
      const startAt =
        payload.dialogId === undefined && payload.stepId === undefined
          ? {}
          : { startAt: { dialogId, ...(payload.stepId ? { stepId: payload.stepId } : {}) } };
      openConversation(app, { userId, channelId: 'webchat', init: { ...variables, ...userData }, ...startAt }).catch(
        (error: unknown) => this.failed(error),
      );
      return this.state();
    });
  }

  /** The preview user's store: every commit and change it takes is recorded for a test and shown in the panel. */
  private recordedStore(userId: string, recording: { current?: ConversationRecorder; jobs?: PreviewJobs }): Store {
    return previewStore(this.deps.store, { accountId: this.accountId }, () => userId, {
      committed: (commit, result) => {
        recording.current?.committed(commit, result.user);
        this.publish();
      },
      changed: (user) => {
        recording.current?.changed(user);
        this.publish();
      },
      jobs: (jobs, cancelJobs, at) => recording.jobs?.committed(jobs, cancelJobs, at),
      notLogged: (kind) => this.note({ at: this.deps.clock.now(), what: 'notLogged', log: kind }),
    });
  }

  /** The preview's timers and asynchronous calls, run in memory; a timer runs when its wait ends or the author skips it. */
  private previewJobs(
    app: AppDeps,
    userId: string,
    dry: DryRunDeps,
    bot: PreparedBot,
    recorder: ConversationRecorder,
  ): PreviewJobs {
    return new PreviewJobs({
      now: () => this.deps.clock.now(),
      changed: () => this.publish(),
      timer: async (timerId, delayMs) => {
        // In a test this is time passing: the bot's words after it belong to a "wait" step.
        recorder.waited(delayMs);
        this.note({ at: this.deps.clock.now(), what: 'timerRan', timerId });
        await fireTimer(app, { userId, timerId }).catch((error: unknown) => this.failed(error));
      },
      integration: (job) => runAsyncCall(dry, bot.runtime, job).catch((error: unknown) => this.failed(error)),
    });
  }

  private failed(error: unknown): void {
    this.deps.logger.warn(
      { event: 'preview_turn_failed', accountId: this.accountId, err: error },
      'a turn of a studio preview failed',
    );
  }

  /** Ends the preview: held calls are abandoned (nothing sent), the preview user erased. */
  stop(): Promise<void> {
    return this.serial(() => this.end());
  }

  private async end(): Promise<void> {
    const running = this.running;
    if (!running) return;
    this.running = null;
    running.jobs.close();
    running.holds.abandonAll();
    await running.app.turns.idle(running.userId).catch(() => undefined);
    await eraseUser(running.app, running.userId).catch((error: unknown) =>
      this.deps.logger.error(
        { event: 'preview_erase_failed', accountId: this.accountId, err: error },
        'a preview user was not erased; the sweep of previews left behind removes it',
      ),
    );
    await running.bot.runtime.close().catch(() => undefined);
    this.publish();
  }

  /** The author skips a pending wait: its timer runs now. False when no such timer is pending. */
  runTimer(timerId: string): boolean {
    const running = this.running;
    if (!running) throw new NoPreview();
    return running.jobs.runNow(timerId);
  }

  answer(callId: string, answer: CallAnswer): 'answered' | 'gone' | 'unfit' {
    const running = this.running;
    if (!running) throw new NoPreview();
    return running.holds.answer(callId, answer);
  }

  /** The conversation so far, saved as one of the bot's tests. */
  async saveTest(name: string): Promise<{ name: string; tests: number }> {
    const running = this.running;
    if (!running) throw new NoPreview();
    if (this.edited)
      throw new NotATest(
        'Values were changed by hand during this preview, which a test cannot do; restart it and chat through again.',
      );
    let test: BotTest;
    try {
      test = running.recorder.toTest(name);
    } catch (error) {
      throw new NotATest((error as Error).message);
    }
    const tests = await this.deps.saveTest(test, this.accountId);
    this.note({ at: this.deps.clock.now(), what: 'testSaved', name });
    return { name, tests };
  }
}
