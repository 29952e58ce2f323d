import type { EventKind } from './event-subscriptions.ts';
import type { NewJob, UserRecord } from './store.ts';

/** An event a use case saw happen, before it has an id: the sink names and records it. */
export interface EventDraft {
  readonly kind: EventKind;
  readonly data: Readonly<Record<string, unknown>>;
}

/**
 * Where the use cases hand the events subscribers may hear about (server/app/bot-events.ts
 * says which). Recording is a durable job: for a turn, one stored in the turn's own commit
 * (TurnCommit.jobs), so a turn and its events are written together.
 */
export interface BotEventSink {
  /** The kinds some subscription listens to now: a turn derives and stores nothing when none of its events is wanted. */
  wanted(): ReadonlySet<EventKind>;
  /**
   * The jobs that record a turn's events, to store in the turn's commit. `user` is the user as
   * the turn read it: the job checks that the turn committed (the version after it, at `now`)
   * before recording, since a store without transactions writes jobs just before the state.
   * `botEntries`: the seqs the turn's bot messages will have (they carry `now` as their time),
   * the surest sign that the turn was stored.
   */
  turnJobs(
    user: UserRecord,
    events: readonly EventDraft[],
    now: number,
    botEntries?: { readonly first: number; readonly last: number },
  ): readonly NewJob[];
  /**
   * Removes the user's recorded events now (an erasure): nothing naming the user stays behind
   * unless a subscription asked to hear of the erasure itself.
   */
  forget(userId: string): Promise<number>;
  /** Records events that happen outside a turn (a user erased, an asynchronous call given up), after the fact. */
  emit(
    user: { readonly userId: string; readonly channelId: string },
    events: readonly EventDraft[],
    now: number,
    options?: { readonly erase?: boolean },
  ): Promise<void>;
}
