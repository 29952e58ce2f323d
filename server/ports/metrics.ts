/**
 * Counters the use cases and channels bump; the api/metrics.ts adapter turns
 * them into Prometheus series at GET /metrics.
 */
export interface Metrics {
  /** Messages stored in transcripts, by who wrote them. */
  messagesStored(from: 'user' | 'bot', count: number): void;
  /** One call of an integration step (or an export of the integration log's kind), and whether it failed. */
  integrationCall(step: string, outcome: 'ok' | 'error'): void;
}

/** For wiring without metrics (unit tests, tools). */
export const noMetrics: Metrics = {
  messagesStored: () => undefined,
  integrationCall: () => undefined,
};
