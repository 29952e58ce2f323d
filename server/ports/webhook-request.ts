/**
 * One request to `/api/webhooks/{connector}`, as the HTTP side (api/webhook-endpoint.ts) hands
 * it to the connector core (channels/connector/webhook.ts): headers as sent, the body not yet
 * read, so a connector checks what it can (its secret header) before any byte is parsed.
 */
export interface WebhookRequest {
  readonly method: string;
  /** The connector's name from the path, percent-decoded. */
  readonly connector: string;
  readonly query: URLSearchParams;
  /** The path and query as received (`/api/webhooks/twilio?x=1`): a signature over the public URL (Twilio's) is made with PUBLIC_URL + this. */
  readonly url: string;
  /** Header names in lower case. */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly requestId: string;
  /** Reads the raw body, at most `limit` bytes; rejects with an HttpError (413) past it. */
  readBody(limit: number): Promise<Buffer>;
}

/** The answer: a JSON body, or a plain text one (a vendor's verification handshake echoes a challenge). */
export interface WebhookAnswer {
  readonly status: number;
  readonly body: unknown;
  readonly text?: boolean;
}

export type WebhookHandler = (request: WebhookRequest) => Promise<WebhookAnswer>;
