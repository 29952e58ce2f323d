/**
 * A gate in front of every HTTP call the integration layer makes (steps, their services' token
 * requests, a code step type's calls). The server in service has none: calls go out. A studio
 * preview puts one in: each call is held as a dry run, shown to the author exactly as it would go
 * out (credentials masked), and answered with a stub or sent for real as the author decides.
 */
export interface OutboundRequest {
  readonly url: string;
  readonly method: string;
  /** As they would go out, credentials included. */
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string | Buffer;
  /** Whole call, redirects included (ms). */
  readonly timeoutMs?: number;
  /** Largest response body accepted (bytes). */
  readonly maxBytes?: number;
  readonly maxRedirects?: number;
}

export interface OutboundResponse {
  readonly status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
  /** The URL that answered, after redirects. */
  readonly url: string;
}

export interface OutboundGate {
  /**
   * Answers the call: `sendForReal` sends it through the guarded client (deadline, size cap,
   * destination checks). Throwing fails the call as the network failing would.
   */
  send(
    request: OutboundRequest,
    sendForReal: (request: OutboundRequest) => Promise<OutboundResponse>,
  ): Promise<OutboundResponse>;
}
