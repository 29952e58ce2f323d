/**
 * One request to `…/api/channels/{channel}/users/{user}/messages`, as the HTTP side
 * (api/channel-endpoint.ts) hands it to a channel (channels/rest/rest-endpoint.ts): the
 * path's parts already percent-decoded, the body not yet read (the channel and key are
 * checked first, so a stranger's body is never parsed).
 */
export interface ChannelRequest {
  readonly method: string;
  readonly channel: string;
  readonly user: string;
  readonly query: URLSearchParams;
  /** The x-channel-key header, as sent. */
  readonly key: string | string[] | undefined;
  readonly contentType: string | undefined;
  /** The request's id (X-Request-Id): every log line written on the request's behalf names it. */
  readonly requestId: string;
  /** When the request arrived, as performance.now(): the channel's answer wait is counted from here. */
  readonly receivedAt: number;
  /** Reads the body, at most `limit` bytes once decoded; rejects with an HttpError (413, 415, 400). */
  readBody(limit: number): Promise<Buffer>;
}

/** The channel's answer; a refusal is thrown as an HttpError instead. */
export interface ChannelAnswer {
  readonly status: number;
  readonly body: unknown;
}

export type ChannelHandler = (request: ChannelRequest) => Promise<ChannelAnswer>;
