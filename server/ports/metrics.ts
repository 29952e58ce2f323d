/**
 * Counters the use cases and channels bump; the api/metrics.ts adapter turns
 * them into Prometheus series at GET /metrics.
 */
export interface Metrics {
  /** Messages stored in transcripts, by who wrote them. */
  messagesStored(from: 'user' | 'bot', count: number): void;
  /**
   * One call of an integration step, and whether it failed: `call` names its step type and its
   * service (the definition's `service`, or "none" for a type that calls no configured service;
   * both bounded by the definition); `detail` gives how long it took and its status: `ok` or the
   * failure's kind (timeout, http_status, network, …).
   */
  integrationCall(
    call: IntegrationCallLabels,
    outcome: 'ok' | 'error',
    detail?: { readonly seconds: number; readonly status: string },
  ): void;
  /** One turn of the dialog engine, from its input to its messages handed to the channel; `input` is the engine input's kind (text, press, start, timer, …). */
  turnCompleted?(input: string, seconds: number): void;
  /** A job attempt ended: done, failed with a retry to come, or failed for good (dead). */
  jobAttempt?(kind: string, outcome: 'done' | 'retry' | 'dead'): void;
  /** A request or message refused by a rate limit; `scope` says which (management, channels, webchat). */
  rateLimited?(scope: 'management' | 'channels' | 'webchat'): void;
}

/** What an integration call is counted under. */
export interface IntegrationCallLabels {
  readonly step: string;
  readonly service: string;
}

/** For wiring without metrics (unit tests, tools). */
export const noMetrics: Metrics = {
  messagesStored: () => undefined,
  integrationCall: () => undefined,
};
