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
  run(step: { readonly dialogId: string; readonly stepId: string }, context: IntegrationCallContext): Promise<IntegrationCallResult>;
}

export interface IntegrationCallContext {
  readonly userId: string;
  readonly variables: Readonly<Record<string, unknown>>;
  readonly userData: Readonly<Record<string, unknown>>;
}

export type IntegrationCallResult =
  | { readonly ok: true; readonly output: unknown; readonly scheduled?: string }
  | { readonly ok: false; readonly error: { readonly kind: string; readonly message: string; readonly status?: number } };
