import type { UserRecord } from './store.ts';

/**
 * What happened in one turn, as its observers hear it (app/observe-turn.ts derives them from the
 * engine's result). Plain facts, no judgement: an observer decides what they add up to.
 */
export type TurnEvent =
  /** The user wrote to start the turn; `text` is their words (null for a message without text). */
  | { readonly kind: 'userWrote'; readonly text: string | null }
  /** What woke the conversation when the user did not write. */
  | { readonly kind: 'pageEvent' | 'trigger' | 'timer'; readonly name: string }
  /** The bot said this many messages. */
  | { readonly kind: 'botSaid'; readonly messages: number }
  /** The conversation moved to this step (a step entered twice in a row once). */
  | { readonly kind: 'stepEntered'; readonly dialogId: string; readonly stepId: string }
  /** A dialog ran to its end (an end step, or past its last step). */
  | { readonly kind: 'dialogCompleted'; readonly dialogId: string }
  /** Free text the intent classifier did not take, as written. */
  | { readonly kind: 'unprocessed'; readonly text: string }
  /** A question the FAQ answered, or missed (`text` as written). */
  | { readonly kind: 'faqAnswered' }
  | { readonly kind: 'faqMissed'; readonly text: string }
  /** The integration call the turn was the answer to failed. */
  | { readonly kind: 'integrationFailed' }
  /** After the commit: an email or SMS step's message went out (one that failed does not). */
  | { readonly kind: 'emailSent' | 'smsSent' };

/** One try of a turn, about to be committed: a conflict redoes the turn, and its observers see it again. */
export interface ObservedTurn {
  /** The user as the turn read them (a trigger's data applied): what observers kept with earlier turns is in it. */
  readonly user: UserRecord;
  readonly now: number;
  readonly events: readonly TurnEvent[];
  /** The channel the turn came in on, when not the user's own (a linked person on another of their channels). */
  readonly channel?: string;
}

/**
 * What an observer keeps of a turn. `variables` are stored in the turn's own commit, with its
 * state (so written exactly when the turn is, under the same version check: two nodes never both
 * build on the same note), then `committed` is told, once, with the user as stored.
 */
export interface TurnNote {
  /** The product's own variables (`$`-named, never sent to an integration) to set with the turn's state. */
  readonly variables?: Readonly<Record<string, unknown>>;
  readonly committed?: (user: UserRecord) => void;
}

/** Hears every turn: before its commit (what to keep with it), and what the turn did after it. */
export interface TurnObserver {
  observe(turn: ObservedTurn): TurnNote;
  /** The events of a committed turn that come after its commit (emails and SMS sent). */
  followed(user: UserRecord, events: readonly TurnEvent[]): void;
}
