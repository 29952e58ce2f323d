import { isUtf8 } from 'node:buffer';
import { hash, timingSafeEqual } from 'node:crypto';
import type { ChannelRequest } from '../../ports/channel-request.ts';
import { checkJsonBounds, describeJsonExcess, MAX_JSON_DEPTH } from '../../../shared/json-bounds.ts';
import { MAX_TEXT_BYTES } from '../../../shared/protocol.ts';
import type { AppDeps } from '../../app/deps.ts';
import { KeyedQueue } from '../../app/keyed-queue.ts';
import { readMissed } from '../../app/open-conversation.ts';
import { UnknownDialogError, assertDialog } from '../../app/start-dialog.ts';
import type { UserRecord } from '../../ports/store.ts';
import type { RestChannel } from '../../settings/rest-channels.ts';
import { EVENT_KINDS, afterSchema, inboundSchema, type Inbound } from './request-schema.ts';
import { HttpError } from '../../ports/http-error.ts';
import { DeadlinePassed } from '../../ports/deadline.ts';
import { DEFAULT_TURN_DEADLINE_MS } from '../../app/turn-deadline.ts';
import type { RestDelivery } from './rest-delivery.ts';
import { Flight, answerResend, answerTurn, type Located } from './answer-turn.ts';
import { toItem } from '../../app/to-item.ts';

/** Largest request body, as for triggers. */
export const MAX_REST_BODY = 64 * 1024;
/** Users whose channel is remembered; past it the memory starts over (a miss is one read). */
const MAX_SEEN = 100_000;
/** Most values in one body: far above any real message or event. */
const BODY_BOUNDS = { maxDepth: MAX_JSON_DEPTH, maxNodes: 10_000 };

/** The answer: always 200 with a JSON body; every refusal is thrown as an HttpError. */
export interface RestAnswer {
  readonly status: 200;
  readonly body: unknown;
}

export interface RestEndpointOptions {
  readonly channels: readonly RestChannel[];
  /** Each channel's delivery, by name. */
  readonly deliveries: ReadonlyMap<string, RestDelivery>;
  /** The use cases' dependencies; a getter because main.ts builds them after the HTTP side. */
  readonly deps: () => AppDeps;
  /** Tells the delivery router a user's channel, so it needs no lookup. */
  readonly remember: (userId: string, channelId: string) => void;
  /**
   * How long after its arrival a request whose message is stored is answered at the latest
   * (REST_CHANNEL_ANSWER_WAIT), with what the bot said by then, however long it waited behind the
   * same user's earlier request. One not stored by then waits on, TURN_DEADLINE more at most (answer-turn.ts).
   */
  readonly answerWaitMs: number;
}

// crypto.hash: one call, no Hash object per request (the key is checked on every turn).
const digest = (value: string) => hash('sha256', value, 'buffer');

/**
 * The generic bot REST channel: `POST /api/channels/{channel}/users/{user}/messages`
 * (a text, a button, an event; answered with the bot's replies) and `GET` of the same
 * path (what the channel missed). Translates HTTP into the same use cases as the web
 * chat. Served on node:http without Express (api/channel-endpoint.ts), as the trigger
 * endpoint is: a turn's own work is small, and Express's routing and body parsing cost
 * more than it. Checks run in this order, and nothing is stored before all have passed:
 * rate limit (in front), channel, key, method, user, media type, body size, JSON, depth,
 * schema, dialog.
 */
export function restEndpoint(options: RestEndpointOptions): (request: ChannelRequest) => Promise<RestAnswer> {
  const locate = locator(options);
  const turns = new KeyedQueue();
  /** Users opened on a channel, by id: their later requests need no user read. */
  const seen = new Map<string, string>();
  /** Inputs on their way in this process, by user and clientId: a resend waits on its first request instead of behind it. */
  const flights = new Map<string, Flight>();

  const post = async (request: ChannelRequest, located: Located): Promise<RestAnswer> => {
    requireJson(request.contentType);
    const input = parseInbound(parseJson(await request.readBody(MAX_REST_BODY)));
    const deps = withRequestLogger(options.deps(), request.requestId);
    const wait = request.receivedAt + options.answerWaitMs;
    const bounds = { wait, cap: wait + (deps.turnDeadlineMs ?? DEFAULT_TURN_DEADLINE_MS) };
    // The channel too: a user id belongs to one channel, and another channel's request must never join its work.
    const flightKey = `${located.channel.name}\u0000${located.userId}\u0000${input.clientId}`;
    const first = flights.get(flightKey);
    if (first)
      return {
        status: 200,
        body: await answerResend(deps, located.userId, input.clientId, bounds, first).catch(refusal),
      };
    // A user this process has seen opened on this channel stays so (a user's channel never changes, users are never removed): no store read.
    let opened = seen.get(located.userId) === located.channel.name;
    if (!opened) {
      const user = await checkUser(deps, located);
      // A user who has heard from the bot needs no opening.
      opened = user !== null && (user.lastSeq > 0 || user.position !== null);
    }
    if (input.type === 'dialog') checkDialog(deps, input.dialogId);
    if (input.type === 'event' && input.event === 'startDialog') checkDialog(deps, input.dialogId);
    options.remember(located.userId, located.channel.name);
    const flight = new Flight();
    flights.set(flightKey, flight);
    const land = () => {
      if (flights.get(flightKey) === flight) flights.delete(flightKey);
    };
    // Both ways handled: a failed turn is answered to its own request, and must not surface as an unhandled rejection here.
    flight.done.then(land, land);
    const answer = await turns
      .run(located.userId, () => answerTurn(deps, located, input, opened, bounds, flight))
      .catch((error: unknown) => {
        flight.settle(error ?? new Error('the request failed'));
        return refusal(error);
      });
    if (seen.size >= MAX_SEEN) seen.clear();
    seen.set(located.userId, located.channel.name);
    return { status: 200, body: answer };
  };

  const get = async (request: ChannelRequest, located: Located): Promise<RestAnswer> => {
    const raw = request.query.getAll('after');
    const after = afterSchema.safeParse(raw.length === 0 ? undefined : raw.length === 1 ? raw[0] : '-');
    if (!after.success)
      throw new HttpError(
        400,
        'invalid_parameter',
        'after must be a whole number: the last seq the channel has (0 for everything).',
        { parameter: 'after' },
      );
    const deps = withRequestLogger(options.deps(), request.requestId);
    await checkUser(deps, located);
    const entries = await readMissed(deps, located.userId, after.data ?? 0);
    return { status: 200, body: { messages: entries.map(toItem) } };
  };

  return async (request) => {
    const located = locate(request);
    return request.method === 'POST' ? post(request, located) : get(request, located);
  };
}

/**
 * Finds a request's channel and user, in the order the checks run: an unknown channel (404), a
 * wrong key (401), another method (405), a user id that is empty or too long (400).
 */
function locator(options: Pick<RestEndpointOptions, 'channels' | 'deliveries'>): (request: ChannelRequest) => Located {
  // A channel accepts its key and, during a rotation, its previous one; each compared in constant time.
  const byName = new Map(
    options.channels.map((channel) => [
      channel.name,
      { channel, accepted: [channel.key, ...(channel.keyPrevious ? [channel.keyPrevious] : [])].map(digest) },
    ]),
  );
  return (request: ChannelRequest): Located => {
    const found = byName.get(request.channel);
    if (!found)
      throw new HttpError(
        404,
        'not_found',
        `There is no REST channel named "${request.channel.slice(0, 64)}" on this bot; channels are configured in REST_CHANNELS.`,
      );
    const sent = request.key;
    // Hashed first, so the comparison takes the same time whatever the length sent; every accepted key is compared.
    let valid = false;
    if (typeof sent === 'string' && sent !== '') {
      const hashed = digest(sent);
      for (const accepted of found.accepted) valid = timingSafeEqual(hashed, accepted) || valid;
    }
    if (!valid)
      throw new HttpError(
        401,
        'unauthorized',
        "A valid channel key is required: send the channel's key in the x-channel-key header.",
      );
    if (request.method !== 'GET' && request.method !== 'HEAD' && request.method !== 'POST') {
      throw new HttpError(
        405,
        'method_not_allowed',
        `${request.method} is not allowed here; use POST to send a message or GET to read what was missed.`,
      );
    }
    const user = request.user;
    if (!user || user.length > 256)
      throw new HttpError(400, 'invalid_parameter', 'The user id in the URL must be 1 to 256 characters long.', {
        parameter: 'user',
      });
    return { channel: found.channel, delivery: options.deliveries.get(found.channel.name)!, userId: user };
  };
}

/**
 * A message not stored by its cap (TURN_DEADLINE after the answer wait; logged once where the turn
 * ran): nothing of it is stored after that. Any other failure is answered as itself.
 */
function refusal(error: unknown): never {
  if (error instanceof DeadlinePassed) {
    throw new HttpError(
      503,
      'store_timeout',
      "The message could not be stored in time (the store is slow or unreachable, or the user's earlier message still holds the conversation). Send it again with the same clientId; it is stored once.",
    );
  }
  throw error;
}

/** The use cases' dependencies, with a logger that names the request on every line the turn writes. */
function withRequestLogger(deps: AppDeps, requestId: string): AppDeps {
  const { logger } = deps;
  return {
    ...deps,
    logger: {
      debug: (fields, message) => logger.debug?.({ ...fields, requestId }, message),
      info: (fields, message) => logger.info({ ...fields, requestId }, message),
      warn: (fields, message) => logger.warn({ ...fields, requestId }, message),
      error: (fields, message) => logger.error({ ...fields, requestId }, message),
    },
  };
}

/** Only JSON is read: anything else is said so, not guessed at. */
function requireJson(type: string | undefined): void {
  if (!type || !/^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(type)) {
    throw new HttpError(415, 'unsupported_media_type', 'Send the body as JSON with Content-Type: application/json.');
  }
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(type)?.[1]?.toLowerCase();
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    throw new HttpError(
      415,
      'unsupported_media_type',
      'Send the body as UTF-8 JSON (Content-Type: application/json; charset=utf-8).',
    );
  }
}

function parseJson(raw: Buffer): unknown {
  // As the trigger endpoint: bytes that are not UTF-8 are refused, never stored with U+FFFD in their place.
  if (!isUtf8(raw))
    throw new HttpError(400, 'invalid_body', 'The request body is not valid UTF-8: send JSON encoded as UTF-8.');
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    throw new HttpError(400, 'invalid_body', 'The request body is not valid JSON.');
  }
}

/** Bytes a string takes in UTF-8 is at most 3 per UTF-16 unit: a text this short needs no counting. */
const SURELY_SHORT = Math.floor(MAX_TEXT_BYTES / 3);

/**
 * The common body, a plain text message, checked by hand: the schema's rules for it, no
 * more and no less (exactly type, clientId and text; each a string in its bounds). Anything
 * else, valid or not, goes through the schema, which also words every refusal.
 */
function plainText(body: unknown): Inbound | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const sent = body as Record<string, unknown>;
  if (sent.type !== 'text') return undefined;
  const { clientId, text } = sent;
  if (typeof clientId !== 'string' || clientId.length === 0 || clientId.length > 128) return undefined;
  if (typeof text !== 'string' || text.length === 0) return undefined;
  if (text.length > SURELY_SHORT && Buffer.byteLength(text) > MAX_TEXT_BYTES) return undefined;
  let keys = 0;
  for (const key in sent) {
    if (!Object.hasOwn(sent, key)) continue;
    if (key !== 'type' && key !== 'clientId' && key !== 'text') return undefined;
    keys++;
  }
  return keys === 3 ? { type: 'text', clientId, text } : undefined;
}

function parseInbound(body: unknown): Inbound {
  const fast = plainText(body);
  if (fast) return fast;
  // Before the schema, which recurses: a body nested thousands deep must cost a refusal, not the stack.
  const excess = checkJsonBounds(body, BODY_BOUNDS);
  if (excess)
    throw new HttpError(400, 'invalid_body', `The request body is refused because ${describeJsonExcess(excess)}.`, {
      limit: excess.limit,
      max: excess.max,
    });
  const parsed = inboundSchema.safeParse(body);
  if (parsed.success) return parsed.data;
  const sent = body as { type?: unknown; event?: unknown } | null;
  if (
    typeof sent === 'object' &&
    sent !== null &&
    sent.type === 'event' &&
    !EVENT_KINDS.includes(sent.event as never)
  ) {
    throw new HttpError(
      400,
      'unknown_event',
      `Unknown event ${JSON.stringify(String(sent.event).slice(0, 64))}; send one of ${EVENT_KINDS.join(', ')}.`,
      { known: [...EVENT_KINDS] },
    );
  }
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
  throw new HttpError(
    400,
    'invalid_body',
    `The message is not valid (${where}${issue?.message ?? 'unknown problem'}). Send {"type":"text","clientId":"…","text":"…"}, a button, a dialog or an event.`,
  );
}

function checkDialog(deps: AppDeps, dialogId: string): void {
  try {
    assertDialog(deps, dialogId);
  } catch (error) {
    if (error instanceof UnknownDialogError) throw new HttpError(404, 'dialog_not_found', error.message, { dialogId });
    throw error;
  }
}

/** A user id belongs to one channel: another channel's user is not found here. */
async function checkUser(deps: AppDeps, located: Located): Promise<UserRecord | null> {
  const user = await deps.store.getUser(located.userId);
  if (user && user.channelId !== located.channel.name) {
    throw new HttpError(
      404,
      'not_found',
      `There is no user "${located.userId.slice(0, 64)}" on channel "${located.channel.name}".`,
    );
  }
  return user;
}
