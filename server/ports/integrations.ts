import type { NewJob } from './store.ts';

/**
 * Runs the bot definition's integration steps (the integration layer behind it is
 * wired by main.ts). Steps are named by dialog and step id: the adapter prepared
 * (validated and compiled) each of them at start-up.
 */
export interface IntegrationCaller {
  /**
   * Runs the step's call for the user: synchronous steps answer with the output or a
   * classified failure; asynchronous ones are scheduled as durable jobs and answer at once.
   * Never throws for a failed call.
   */
  run(
    step: { readonly dialogId: string; readonly stepId: string },
    context: IntegrationCallContext,
  ): Promise<IntegrationCallResult>;
  /**
   * The durable job of an asynchronous step's call, not stored: the turn that passed the
   * step puts it in its outbox (TurnCommit.jobs), so it is scheduled exactly when the turn
   * commits. A failure (no such step, a step that cannot run) is answered, not thrown.
   */
  asyncJob(
    step: { readonly dialogId: string; readonly stepId: string },
    context: IntegrationCallContext,
  ): IntegrationJobResult;
}

export type IntegrationJobResult =
  | { readonly ok: true; readonly job: NewJob }
  | { readonly ok: false; readonly error: { readonly kind: string; readonly message: string } };

export interface IntegrationCallContext {
  readonly userId: string;
  readonly variables: Readonly<Record<string, unknown>>;
  readonly userData: Readonly<Record<string, unknown>>;
}

export type IntegrationCallResult =
  | { readonly ok: true; readonly output: unknown; readonly scheduled?: string }
  | {
      readonly ok: false;
      readonly error: { readonly kind: string; readonly message: string; readonly status?: number };
    };
