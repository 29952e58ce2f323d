/**
 * Counters the use cases and channels bump; the api/metrics.ts adapter turns
 * them into Prometheus series at GET /metrics.
 */
export interface Metrics {
  /** Messages stored in transcripts, by who wrote them. */
  messagesStored(from: 'user' | 'bot', count: number): void;
  /**
   * One call of an integration step, and whether it failed; `detail` gives how long it
   * took and its status: `ok` or the failure's kind (timeout, http_status, network, …).
   */
  integrationCall(step: string, outcome: 'ok' | 'error', detail?: { readonly seconds: number; readonly status: string }): void;
  /** One turn of the dialog engine, from its input to its messages handed to the channel; `input` is the engine input's kind (text, press, start, timer, …). */
  turnCompleted?(input: string, seconds: number): void;
  /** A job attempt ended: done, failed with a retry to come, or failed for good (dead). */
  jobAttempt?(kind: string, outcome: 'done' | 'retry' | 'dead'): void;
  /** A request or message refused by a rate limit; `scope` says which (management, channels, webchat). */
  rateLimited?(scope: 'management' | 'channels' | 'webchat'): void;
}

/** For wiring without metrics (unit tests, tools). */
export const noMetrics: Metrics = {
  messagesStored: () => undefined,
  integrationCall: () => undefined,
};
