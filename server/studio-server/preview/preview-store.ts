import type { PreviewMark } from '../../ports/preview.ts';
import type {
  LogKind,
  NewJob,
  NewLogEntry,
  NewUser,
  Store,
  TurnCommit,
  TurnCommitResult,
  UserRecord,
} from '../../ports/store.ts';

export interface PreviewStoreHooks {
  /** A turn of the preview user was stored. */
  committed(commit: TurnCommit, result: Extract<TurnCommitResult, { status: 'committed' }>): void;
  /** The preview user changed outside a turn (values set, the opening's data). */
  changed(user: UserRecord): void;
  /** A committed turn's outbox jobs (timers, asynchronous calls) and the timers it stopped: the preview runs them itself. */
  jobs(jobs: readonly NewJob[], cancelJobs: readonly string[], at: number): void;
  /** A record the live bot would write, kept out of every log (ports/preview.ts): the panel is told instead. */
  notLogged(kind: LogKind, entries: readonly NewLogEntry[]): void;
}

/**
 * The store as one preview sees it: the real one, so the engine, the use cases and the widget's
 * replay work as they do for everyone, except that the user it creates carries the preview mark,
 * no log row is written (NLP log, FAQ log, integration log, email, SMS, snapshots), no durable
 * job is stored (a turn's jobs go to the preview, which runs them in memory: preview-jobs.ts), and
 * only this preview's own user may be created or written. Everything else reads and writes through.
 */
export function previewStore(real: Store, mark: PreviewMark, ownUser: () => string, hooks: PreviewStoreHooks): Store {
  const mine = (userId: string) => {
    // The preview's use cases only ever name their own user; anything else is a bug to stop, not a write to let through.
    if (userId !== ownUser()) throw new Error('a preview wrote to a user that is not its own');
  };
  const overrides: Partial<Store> = {
    async ensureUser(user: NewUser) {
      mine(user.userId);
      return real.ensureUser({ ...user, preview: mark });
    },
    async updateUser(userId, expectedVersion, patch, now) {
      mine(userId);
      const user = await real.updateUser(userId, expectedVersion, patch, now);
      if (user) hooks.changed(user);
      return user;
    },
    async commitTurn(commit) {
      mine(commit.userId);
      const { snapshots, jobs, cancelJobs, logs, ...rest } = commit;
      if (snapshots && snapshots.length > 0) hooks.notLogged('userDataSnapshot', snapshots);
      // The turn's own log rows (NLP log, FAQ log) ride in its outbox: kept out like every other.
      for (const { kind, entry } of logs ?? []) hooks.notLogged(kind, [entry]);
      const result = await real.commitTurn(rest);
      if (result.status === 'committed') {
        hooks.committed(commit, result);
        // Only a stored turn starts its jobs, as with the live bot's outbox.
        if ((jobs?.length ?? 0) > 0 || (cancelJobs?.length ?? 0) > 0)
          hooks.jobs(jobs ?? [], cancelJobs ?? [], commit.now);
      }
      return result;
    },
    async appendTranscript(userId, entries) {
      mine(userId);
      return real.appendTranscript(userId, entries);
    },
    async storePending(userId, entry) {
      mine(userId);
      return real.storePending(userId, entry);
    },
    async appendLog(kind, entry) {
      hooks.notLogged(kind, [entry]);
    },
    async appendLogs(kind, entries) {
      if (entries.length > 0) hooks.notLogged(kind, entries);
    },
    async scheduleJob() {
      throw new Error("a preview takes no durable jobs; it runs its turns' jobs itself");
    },
  };
  return new Proxy(real, {
    get(target, property, receiver) {
      if (Object.hasOwn(overrides, property)) return overrides[property as keyof Store];
      const value = Reflect.get(target, property, receiver) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
