/**
 * # How a connector plugs into the connector core
 *
 * A connector (channels/telegram/, and one folder per further vendor) only translates between
 * a vendor's API and the core; it stores nothing, queues nothing and runs no turn. It implements
 * `Connector` below; main.ts (start/connectors.ts) hands it to the core, which then:
 *
 * 1. serves `POST /api/webhooks/{name}` (webhook.ts): reads the raw body (at most `maxBodyBytes`),
 *    calls `verify` (the vendor's secret or signature, in constant time, over the raw bytes),
 *    `parse` (the vendor's payload → `InboundMessage`s), stores each under the unique
 *    (channel, eventId) index (ports/channel-inbox.ts) with a durable turn job, and answers 200 at
 *    once. A redelivered event is a no-op. `handshake` (optional) answers GET (WhatsApp's
 *    `hub.challenge`); `challenge` (optional) answers a signed POST that is a handshake (Slack's
 *    `url_verification`).
 * 2. runs each turn from the job queue (inbound-job.ts), one user's in arrival order: `acknowledge`
 *    (optional: Telegram's answerCallbackQuery), then the user's input as the use cases' message,
 *    as the user `{ channelId: name, user: "{name}:{address}" }`. A typed answer that names a choice
 *    of the bot's last message (by number or label) becomes that choice.
 * 3. sends what the bot says (outbound.ts): one durable job per turn, serial per user; each
 *    message goes down the rendering ladder (ladder.ts) for `capabilities`, and each rendered part
 *    to `send`. `send` throws a `SendFailure`: `rate_limited` (waited out, no attempt used),
 *    `transient` (retried with backoff), `permanent` (given up at once, logged with the vendor's
 *    code in the integration log).
 *
 * A connector's secrets never reach a log line or an error: its `secrets` are redacted from the
 * request log, and the messages of its SendFailures must not hold them (Telegram's token sits in
 * the URL path).
 */
import type { Capabilities, RenderedPart } from './ladder.ts';
import type { UserRecord } from '../../ports/store.ts';
import type { WebhookRequest } from '../../ports/webhook-request.ts';

/** What the user did, as the core understands it. */
export type InboundInput =
  /** A typed message (may name a choice of the bot's last message by number or label). */
  | { readonly kind: 'text'; readonly text: string }
  /** A pressed native button: the `choiceId` the ladder gave it (see ladder.ts `choiceId`). */
  | { readonly kind: 'choice'; readonly choiceId: string }
  /** The user opened the conversation (Telegram's /start): a new user hears the start dialog. */
  | { readonly kind: 'open' };

/** One event of a vendor's webhook that needs a turn. */
export interface InboundMessage {
  /** The vendor's own id of the event: a redelivery carries the same one. At most 256 characters. */
  readonly eventId: string;
  /** Where to answer: the vendor's id of the conversation (a chat id, a phone number). At most 200 characters. */
  readonly address: string;
  readonly input: InboundInput;
  /** What the vendor tells about the user (a username, a name, a phone number): declared user-data fields become user data, the rest variables. */
  readonly userData: Readonly<Record<string, string>>;
  /** Connector-specific data `acknowledge` needs (a callback query id); JSON only. */
  readonly ack?: Readonly<Record<string, string>>;
}

/** Why a send failed, as the vendor said it; the core decides what to do with each kind. */
export type SendFailureKind = 'rate_limited' | 'transient' | 'permanent';

/** Thrown by `Connector.send`. Its message is for the log: never a token, never a full vendor URL with secrets. */
export class SendFailure extends Error {
  override readonly name = 'SendFailure';
  constructor(
    readonly kind: SendFailureKind,
    /** The vendor's code (HTTP status or its own error code), for the log. */
    readonly vendorCode: string,
    message: string,
    /** For `rate_limited`: how long the vendor asked to wait (retry_after, Retry-After). */
    readonly retryAfterMs?: number,
    /** The vendor's endpoint, without secrets (Telegram: "sendMessage"), for the integration log. */
    readonly endpoint?: string,
  ) {
    super(message);
  }
}

export interface Connector {
  /** The channel's name: the users' channelId and the webhook path's segment (lower case). */
  readonly name: string;
  /** What the channel shows natively; the ladder degrades the rest. */
  readonly capabilities: Capabilities;
  /** Largest webhook body accepted (413 past it). */
  readonly maxBodyBytes: number;
  /** Values never to log (tokens, secrets). */
  readonly secrets: readonly string[];
  /**
   * Refuses a request that is not the vendor's, throwing an HttpError (401 missing, 403 wrong,
   * stale). Compares in constant time, over the raw bytes as received. May be async (a signed token
   * checked against keys the vendor publishes and the server caches): nothing is stored before it settles.
   */
  verify(request: WebhookRequest, raw: Buffer): void | Promise<void>;
  /** The vendor's payload (already checked as JSON within depth bounds when `json` is true) → the events needing a turn; others are ignored. */
  parse(body: unknown, raw: Buffer): readonly InboundMessage[] | Promise<readonly InboundMessage[]>;
  /**
   * Whether the body is JSON (parsed and bounded by the core) or form-encoded (passed as a
   * URLSearchParams); `json-or-form`: by the request's Content-Type, for a vendor that posts both to
   * one URL (Slack's events are JSON, its button clicks a form).
   */
  readonly bodyFormat: 'json' | 'form' | 'json-or-form';
  /**
   * A signed POST the vendor wants answered with a body of its own instead of stored (Slack's
   * `url_verification` challenge): called after `verify`, before `parse`; undefined for every other body.
   */
  challenge?(body: unknown): { readonly status: number; readonly body: unknown; readonly text?: boolean } | undefined;
  /** A GET to the webhook (a subscription handshake); none: 405. */
  handshake?(request: WebhookRequest): { readonly status: number; readonly body: string };
  /** Work the vendor expects once per event, before its turn (Telegram: answerCallbackQuery). Failures are logged, never retried. */
  acknowledge?(message: InboundMessage): Promise<void>;
  /**
   * Refuses a trigger the vendor would not carry now (WhatsApp outside its 24-hour window, an SMS
   * number that opted out), throwing an HttpError (409) that names the rule; called before the
   * trigger is stored. `user` is as stored, or null for a user who never wrote.
   */
  admitTrigger?(
    user: Pick<UserRecord, 'lastMessageAt' | 'variables' | 'userData'> | null,
    dialogId: string,
    now: number,
  ): void;
  /**
   * A permanent SendFailure when the vendor's rules would refuse any message to this user now (a
   * closed WhatsApp window, an SMS opt-out): the message is given up without calling the vendor, and
   * logged as a refusal with the vendor's code. Asked once per send job (a turn's messages); absent: never.
   */
  refuseSend?(user: Pick<UserRecord, 'lastMessageAt' | 'variables'> | null, now: number): SendFailure | undefined;
  /**
   * A message the vendor's rules would refuse now may go in a form they allow instead (WhatsApp's
   * approved template outside its 24-hour window): asked before `refuseSend`, once per bot message.
   * `instead`: sent in the message's place; `covered`: dropped, as the replacement sent for its
   * turn's first message stands for it; undefined: as usual.
   */
  replaceSend?(user: UserRecord | null, now: number, message: OutboundMessage): SendReplacement | undefined;
  /** Sends one rendered part to the address; throws a SendFailure. */
  send(address: string, part: RenderedPart): Promise<void>;
}

/** What `replaceSend` knows of a bot message: the dialog that said it, and whether it opens its turn. */
export interface OutboundMessage {
  /** Absent when no step said it. */
  readonly dialogId?: string;
  /** Whether it is the first bot message of its turn. */
  readonly opensTurn: boolean;
}

export type SendReplacement =
  | { readonly kind: 'instead'; send(address: string): Promise<void> }
  | { readonly kind: 'covered'; readonly why: string };

/** The user id of a channel user: the connector's name and the vendor's address. */
export const channelUserId = (connector: string, address: string) => `${connector}:${address}`;
