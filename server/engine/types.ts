import type { BotMessage } from '../../shared/protocol.ts';
import type { BotDefinition, Step } from '../definition/schema.ts';

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

export type EngineInput =
  | { readonly kind: 'start'; readonly dialogId: string; readonly stepId?: string }
  | { readonly kind: 'text'; readonly text: string }
  /** A pressed postback button or quick reply. */
  | { readonly kind: 'postback'; readonly payload: string; readonly label: string };

/** Something the caller must carry out or record; the engine itself does no I/O. */
export type Effect =
  | { readonly type: 'warn'; readonly code: 'missing_variable'; readonly detail: { readonly name: string } }
  | { readonly type: 'warn'; readonly code: 'step_limit'; readonly detail: { readonly dialogId: string; readonly stepId: string; readonly limit: number } }
  | {
      readonly type: 'unprocessed';
      readonly detail: { readonly text: string; readonly dialogId: string | null; readonly stepId: string | null; readonly stepType: string | null };
    };

export interface TurnResult {
  readonly state: ConversationState;
  readonly outputs: readonly BotMessage[];
  readonly effects: readonly Effect[];
}

/** What a step may do after it runs. */
export type Next =
  | { readonly kind: 'advance'; readonly to?: string }
  | { readonly kind: 'await' }
  | { readonly kind: 'goto'; readonly dialogId: string; readonly stepId?: string }
  | { readonly kind: 'end' };

/** The mutable scratch a single turn works on; steps read and write it. */
export interface TurnContext {
  readonly definition: BotDefinition;
  variables: Record<string, unknown>;
  userData: Record<string, unknown>;
  readonly outputs: BotMessage[];
  readonly effects: Effect[];
  /** Renders {{templates}} against the current variables and user data. */
  render(template: string): string;
}

export interface StepHandler<S extends Step> {
  /** Runs when the conversation reaches the step. */
  enter(step: S, ctx: TurnContext): Next;
  /** Takes the user's text while the step awaits input; absent for steps that never wait. */
  receive?(step: S, ctx: TurnContext, text: string, retries: number): Next | { readonly kind: 'retry' };
}
