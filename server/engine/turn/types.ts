// The engine's contract: what a turn takes, returns and asks the world to do. The step kinds and the runner
// import it from beside them, and everything outside the engine imports it here (no re-export at the folder's edge).
import type { BotMessage } from '../../../shared/protocol.ts';
import type { BotDefinition, Step } from '../../definition/schema.ts';

/** Where the user stands; null when no dialog is running. */
export interface Position {
  readonly dialogId: string;
  readonly stepId: string;
  readonly awaiting: boolean;
  readonly retries: number;
}

export interface ConversationState {
  readonly position: Position | null;
  readonly variables: Readonly<Record<string, unknown>>;
  readonly userData: Readonly<Record<string, unknown>>;
}

/** One intent and how sure the classifier is of it (0..1). */
export interface Classification {
  readonly intent: string;
  readonly score: number;
}

/** What the intent classifier made of a text; computed by the caller before the turn. */
export interface NlpResult {
  readonly modelId: string;
  /** The best intent, or null when the classifier has none. */
  readonly intent: string | null;
  readonly score: number;
  /** The classifier's calibrated threshold for the bot, used when neither the step nor the settings set one. */
  readonly threshold?: number;
  /** Every intent with a score, best first. */
  readonly classifications: readonly Classification[];
}

/** What the fuzzy FAQ matcher made of a question; computed by the caller before the turn. */
export interface FaqResult {
  /** The best FAQ pair's id, or null when nothing came close. */
  readonly id: string | null;
  /** 0..1, 1 = exact. */
  readonly score: number;
  /** The matcher's calibrated threshold for the bot, used when neither the step nor the settings set one. */
  readonly threshold?: number;
  /** Other candidates, best first. */
  readonly others: readonly { readonly id: string; readonly score: number }[];
}

/** Models' views of a text, given to the engine so it stays pure; see `understandingNeeded`. */
export interface Understanding {
  readonly nlp?: NlpResult;
  readonly faq?: FaqResult;
}

export type EngineInput =
  | { readonly kind: 'start'; readonly dialogId: string; readonly stepId?: string }
  | { readonly kind: 'text'; readonly text: string; readonly understanding?: Understanding }
  /** A pressed postback button or quick reply. */
  | {
      readonly kind: 'postback';
      readonly payload: string;
      readonly label: string;
      readonly understanding?: Understanding;
    }
  /** A durable timer set by a wait step is due. */
  | { readonly kind: 'timer'; readonly timerId: string }
  /** An event from the host page. */
  | { readonly kind: 'pageEvent'; readonly name: string; readonly payload: Readonly<Record<string, unknown>> }
  /** An effect of a step (email, sms) could not be carried out: follow the step's onError. */
  | { readonly kind: 'failed'; readonly dialogId: string; readonly stepId: string }
  /** A synchronous integration step's call finished: save the output and follow `next`, or apply its error policy. */
  | IntegrationResultInput
  /** The code a link-channels step showed arrived on another channel: the addresses are one person now; go on at `next`. */
  | { readonly kind: 'linked'; readonly dialogId: string; readonly stepId: string };

/** The failure classes of the integration layer: network, timeout, status (non-2xx), invalid_body, … */
export interface IntegrationFailure {
  readonly kind: string;
  readonly message: string;
  readonly status?: number;
}

export type IntegrationResultInput = {
  readonly kind: 'integrationResult';
  readonly dialogId: string;
  readonly stepId: string;
} & ({ readonly ok: true; readonly output: unknown } | { readonly ok: false; readonly error: IntegrationFailure });

/** A log row's fields other than userId and timestamp, exactly as the spec names them. */
export type NlpLogFields = {
  readonly dialogId: string | null;
  readonly stepId: string | null;
  readonly stepType: string | null;
  readonly query: string;
  readonly modelId: string | null;
  readonly intent: string | null;
  readonly result: unknown;
  readonly processed: boolean;
};

export type FaqLogFields = {
  readonly intent: string | null;
  readonly score: number;
  readonly text: string;
  readonly stepId: string;
  readonly dialogId: string;
  readonly matched: boolean;
  readonly otherClassifications: readonly { readonly intent: string; readonly score: number }[];
};

export interface EmailEffect {
  readonly type: 'email';
  readonly dialogId: string;
  readonly stepId: string;
  readonly to: readonly string[];
  readonly cc: readonly string[];
  readonly replyTo: string | null;
  readonly subject: string;
  readonly body: string;
}

/**
 * Call an integration step. `sync`: the conversation rests on the step until the caller
 * brings back an `integrationResult` input; `async`: the caller schedules a durable job and
 * the conversation has already moved on. The variables and user data are the ones the
 * step saw, so later steps of the same turn cannot change what the call sends.
 */
export interface IntegrationEffect {
  readonly type: 'integration';
  readonly dialogId: string;
  readonly stepId: string;
  readonly timing: 'sync' | 'async';
  readonly variables: Readonly<Record<string, unknown>>;
  readonly userData: Readonly<Record<string, unknown>>;
}

export interface SmsEffect {
  readonly type: 'sms';
  readonly dialogId: string;
  readonly stepId: string;
  readonly to: readonly string[];
  readonly message: string;
  /** The target URL; the caller turns it into a tracked link and appends it. */
  readonly link: string | null;
}

/** A link-channels step showed this code: the caller keeps its hash so that it can be sent on another channel. */
export interface LinkCodeEffect {
  readonly type: 'linkCode';
  readonly dialogId: string;
  readonly stepId: string;
  readonly code: string;
  /** How long the code works. */
  readonly minutes: number;
}

/** Something the caller must carry out or record; the engine itself does no I/O. */
export type Effect =
  | {
      readonly type: 'warn';
      readonly code: 'missing_variable';
      readonly detail: { readonly name: string; readonly dialogId?: string; readonly stepId?: string };
    }
  /** A run without input reached `settings.maxStepsWithoutInput` (step_limit) or `maxCallsWithoutInput` (call_limit) at this step. */
  | {
      readonly type: 'warn';
      readonly code: 'step_limit' | 'call_limit';
      readonly detail: { readonly dialogId: string; readonly stepId: string; readonly limit: number };
    }
  | {
      readonly type: 'warn';
      readonly code: 'integration_error_policy';
      readonly detail: {
        readonly dialogId: string;
        readonly stepId: string;
        readonly errorKind: string;
        readonly policy: string;
      };
    }
  /** The user's position named a dialog or step the definition no longer has; they were moved (see recovery.ts). */
  | {
      readonly type: 'warn';
      readonly code: 'stale_position';
      readonly detail: {
        readonly fromDialogId: string;
        readonly fromStepId: string;
        readonly toDialogId: string | null;
        readonly toStepId: string | null;
        /** True when the target was chosen at publish in the studio; false when settings.recovery chose it. */
        readonly chosenAtPublish: boolean;
      };
    }
  | { readonly type: 'nlpLog'; readonly fields: NlpLogFields }
  | { readonly type: 'faqLog'; readonly fields: FaqLogFields }
  /** Run a `timer` input for this user after `delayMs`; scheduling the same id again replaces it. */
  | { readonly type: 'scheduleTimer'; readonly timerId: string; readonly delayMs: number }
  | { readonly type: 'cancelTimer'; readonly timerId: string }
  | { readonly type: 'botEvent'; readonly name: string; readonly payload: Readonly<Record<string, unknown>> }
  /** Must be recorded before the new state (which has the data cleared) is saved. */
  | { readonly type: 'snapshotUserData'; readonly data: Readonly<Record<string, unknown>> }
  | EmailEffect
  | SmsEffect
  | IntegrationEffect
  | LinkCodeEffect;

/** A step of a dialog, as where a message came from. */
export interface StepRef {
  readonly dialogId: string;
  readonly stepId: string;
}

/**
 * What happened in a turn that someone outside may want to hear of (event subscriptions), in
 * order. A dialog is completed when it reaches an end step or runs past its last step; one left
 * by a goto, a fatal error or a run-budget stop is not.
 */
export type TrailMark =
  | { readonly kind: 'dialogStarted'; readonly dialogId: string }
  | { readonly kind: 'dialogCompleted'; readonly dialogId: string }
  /** The user's text was of no use to the step they were on, and no intent took it. */
  | {
      readonly kind: 'notUnderstood';
      readonly dialogId: string | null;
      readonly stepId: string | null;
      readonly text: string;
    };

export interface TurnResult {
  readonly state: ConversationState;
  readonly outputs: readonly BotMessage[];
  /** Where each output came from, index for index: the step that said it (undefined: no step, e.g. a fallback with no position). */
  readonly origins?: readonly (StepRef | undefined)[];
  readonly effects: readonly Effect[];
  /**
   * Milestones of the turn, in order: dialogs started and completed (see `follow` in engine.ts for when
   * a dialog completes), text not understood. Event subscriptions and insights both read it.
   */
  readonly trail: readonly TrailMark[];
  /** Every step the turn moved to, in order (a step entered twice in a row once): what insights count as reached. */
  readonly visits?: readonly StepRef[];
}

/** A jump: a step of the current dialog, or a dialog (optionally a step in it). */
export type Jump = { readonly dialogId?: string; readonly stepId?: string };

/** What a step may do after it runs. */
export type Next =
  | { readonly kind: 'advance'; readonly to?: string }
  | { readonly kind: 'await' }
  | { readonly kind: 'goto'; readonly dialogId: string; readonly stepId?: string }
  | { readonly kind: 'end' };

/** What a step may answer to the user's text. */
export type Received =
  | Next
  /** The answer failed validation: count a retry (the step said its retry prompt). */
  | { readonly kind: 'retry' }
  /** The step cannot use this text: it is unprocessed input (NLP, then fallback). `retry`: count a retry when NLP finds nothing. */
  | { readonly kind: 'unusable'; readonly retry: boolean };

/** The mutable scratch a single turn works on; steps read and write it. */
export interface TurnContext {
  readonly definition: BotDefinition;
  variables: Record<string, unknown>;
  userData: Record<string, unknown>;
  readonly outputs: BotMessage[];
  readonly effects: Effect[];
  /** Milestones of the turn (dialogs started and completed, text not understood); absent in a step's own tests. */
  readonly trail?: TrailMark[];
  /** Renders {{templates}} against the current variables and user data. `markdown`: escape values so they cannot add markup. */
  render(template: string, options?: { readonly markdown?: boolean }): string;
  /** The step being entered or answered: a warning about a template names where it is, and so does each message it says. */
  at?: StepRef;
  /** The one-time code a link-channels step shows, drawn by the caller (the engine draws nothing); absent when the bot has no such step. */
  readonly linkCode?: string;
}

export interface StepHandler<S extends Step> {
  /** Runs when the conversation reaches the step. `dialogId`: the dialog it belongs to. */
  enter(step: S, ctx: TurnContext, dialogId: string): Next;
  /** Takes the user's text while the step awaits input; absent for steps that never take text. */
  receive?(
    step: S,
    ctx: TurnContext,
    text: string,
    retries: number,
    input: { readonly understanding?: Understanding; readonly dialogId: string },
  ): Received;
  /** Which models the caller should run on this text before the turn. */
  needs?(step: S, text: string): { readonly nlp: boolean; readonly faq: boolean };
  /** After an unusable answer that NLP could not route: say the retry prompt or give up. */
  retry?(step: S, ctx: TurnContext, retries: number): Next | { readonly kind: 'retry' };
}
