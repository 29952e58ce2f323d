/**
 * Sends one signed POST (a REST channel's callback, a subscription's delivery) through the
 * product's SSRF-guarded integration client, INTEGRATION_ALLOWED_HOSTS applied; start/ wires it.
 * Rejects when it cannot be sent; any answer, 2xx or not, resolves with its status.
 */
export type SignedPostSender = (request: {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
}) => Promise<{ status: number }>;
