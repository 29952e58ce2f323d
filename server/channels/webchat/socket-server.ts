import type { IncomingMessage } from 'node:http';
import type { Server, Socket } from 'socket.io';
import type { z } from 'zod';
import type { ClientToServerEvents, ProtocolError, ServerToClientEvents } from '../../../shared/protocol.ts';
import { clientPayloadExcess, handshakeAuthSchema } from '../../../shared/protocol-schemas.ts';
import { MAX_TEXT_BYTES } from '../../../shared/protocol.ts';
import type { AppDeps } from '../../app/deps.ts';
import { UnknownDialogError, handleUserMessage } from '../../app/handle-user-message.ts';
import { linkSignedIdentity } from '../../app/link-signed-identity.ts';
import { openConversation, readReturning } from '../../app/open-conversation.ts';
import { followsLinks, linkedPersonOf } from '../../app/reach-person.ts';
import { DeadlinePassed } from '../../ports/deadline.ts';
import type { Delivery } from '../../ports/delivery.ts';
import type { UserRecord } from '../../ports/store.ts';
import type { Logger } from '../../ports/logger.ts';
import { identityVerified } from './identity.ts';
import type { OriginRefusal } from './origin-policy.ts';
import { TokenBucket } from '../../app/token-bucket.ts';
import type { SessionTokens } from './session-tokens.ts';
import { toItem } from '../../app/to-item.ts';
import { SentEntries } from './resend-replay.ts';
import { holdWrites } from './batch-writes.ts';
import { CLIENT_EVENTS, type ClientEvent, type WebchatConnection } from './client-events.ts';

export type ChatServer = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;
type ChatSocket = Socket<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

interface SocketData {
  userId: string;
  token: string;
  lastSeq: number;
  init: Record<string, unknown>;
  /** Store a new visitor only once the chat is opened or used (HandshakeAuth.deferStart). */
  deferStart: boolean;
}

export const CHANNEL_ID = 'webchat';

const room = (userId: string) => `user:${userId}`;
/** How long a moved widget's link stays up: long enough for the ack of the message that moved it. */
const MOVE_AFTER_MS = 200;

/** Where users have open widgets across nodes (cluster mode); see server/cluster/presence.ts. */
export interface ClusterPresence {
  connected(userId: string, socketId: string): Promise<void>;
  disconnected(userId: string, socketId: string): Promise<void>;
  isOnline(userId: string): Promise<boolean>;
}

/**
 * Delivery through socket.io rooms: every open widget of a user gets the entries.
 * With `presence` (cluster mode) the adapter carries each emit to every node, so a
 * widget open on another node gets it too.
 */
export function socketDelivery(io: ChatServer, presence?: ClusterPresence): Delivery {
  // The local view of the room: with the in-memory adapter a room with no socket here has no one
  // to reach, so nothing is encoded for it (triggers for offline users are the common case).
  const chat = io.of('/');
  const here = (userId: string) => (chat.adapter.rooms.get(room(userId))?.size ?? 0) > 0;
  // In a cluster the user may be on another node; the adapter decides who gets it.
  const reach = presence ? () => true : here;
  // A user with one widget open here and no other node to tell: that socket is the whole room, and an emit
  // on it spares a turn the broadcast's bookkeeping (an operator, sets of rooms and of sockets reached).
  const alone = (userId: string) => {
    const ids = presence ? undefined : chat.adapter.rooms.get(room(userId));
    if (ids?.size !== 1) return undefined;
    for (const id of ids) return chat.sockets.get(id);
    return undefined;
  };
  return {
    deliver(userId, entries) {
      if (entries.length === 0) return;
      const socket = alone(userId);
      if (socket) {
        // The ack of the message that ran this turn follows in a few promise jobs: one TCP write for both.
        holdWrites(socket.conn);
        socket.emit('entries', entries.map(toItem));
      } else if (reach(userId)) io.to(room(userId)).emit('entries', entries.map(toItem));
    },
    typing(userId, on) {
      if (reach(userId)) io.to(room(userId)).emit('typing', on);
    },
    event(userId, event) {
      if (reach(userId)) io.to(room(userId)).emit('bot_event', event);
    },
    moved(fromUserId) {
      // Their widgets here reconnect, after the ack of the message that linked them has gone out, and the
      // handshake gives them the person's session (linkedPerson below). A widget on another node of a
      // cluster switches at its next reconnect.
      const ids = [...(chat.adapter.rooms.get(room(fromUserId)) ?? [])];
      setTimeout(() => {
        for (const id of ids) chat.sockets.get(id)?.conn.close();
      }, MOVE_AFTER_MS).unref();
    },
    reach(userId) {
      if (here(userId)) return 'live';
      if (!presence) return 'queued';
      // Only the trigger's answer reads it: Redis away means "queued", which is still delivered on connect.
      return presence.isOnline(userId).then(
        (online) => (online ? 'live' : 'queued'),
        () => 'queued',
      );
    },
  };
}

export interface WebchatOptions {
  /** BOT_IDENTITY_SECRET: enables `identity` (userId + userHash) in the handshake. */
  readonly identitySecret?: string | undefined;
  /** BOT_IDENTITY_LINK_PHONE: an identity may carry a phone number the site verified, which links (link-signed-identity.ts). */
  readonly linkByPhone?: boolean;
  /** Client events a minute per connection; default 60. */
  readonly rateLimitPerMinute?: number;
  /** The client's address as TRUST_PROXY reads it, for the connect log line; the TCP peer when absent. */
  readonly clientIp?: (req: IncomingMessage) => string;
  /** Whether the page's origin may open the chat (origin-policy.ts); every origin when absent. */
  readonly checkOrigin?: (origin: string | undefined, host: string | undefined) => OriginRefusal | null;
  /**
   * Cluster mode: one limit per user over every node (WEBCHAT_RATE_LIMIT a minute), on top of
   * the per-connection bucket; resolves false when the user is over it.
   */
  readonly userLimit?: (userId: string) => Promise<boolean>;
  /** Cluster mode: records which node holds each socket, so any node can tell a user is online. */
  readonly presence?: ClusterPresence;
  /**
   * True once the server is shutting down: client events are then neither run nor acked, so
   * the widget sends them again after it reconnects to another node (it resends whatever is
   * unacked, and the server deduplicates by clientId).
   */
  readonly draining?: () => boolean;
}

/** How long after a connect (or a message's turn) its user may still serve the next message's turn. */
const RETURNING_FRESH_MS = 5_000;

/**
 * The web chat channel: translates socket.io into use-case calls and back.
 * Identity is settled in the handshake; every payload is validated against
 * the shared protocol schemas and a bad one gets a protocol_error, never a
 * dropped connection.
 */
export function attachWebchat(
  io: ChatServer,
  app: AppDeps,
  sessions: SessionTokens,
  logger: Logger,
  options: WebchatOptions = {},
): void {
  io.use(
    checkHandshake(sessions, logger, options, ({ userId, phone }) =>
      phone !== undefined ? linkSignedIdentity(app, { userId, phone }) : linkedPerson(app, userId),
    ),
  );
  io.on('connection', (socket: ChatSocket) => serveConnection(socket, app, logger, options));
}

/** Settles who a connection speaks for before it is accepted; a refusal is a connect_error with a code. */
function checkHandshake(
  sessions: SessionTokens,
  logger: Logger,
  options: WebchatOptions,
  personOf: (settled: Settled) => Promise<string | undefined> | undefined,
): Parameters<ChatServer['use']>[0] {
  return (socket, next) => {
    try {
      // Refused here rather than in engine.io's allowRequest: there it would be a bare HTTP 403
      // the widget cannot tell from a network fault; here it is a connect_error with a code.
      const refused = options.checkOrigin?.(socket.handshake.headers.origin, socket.handshake.headers.host);
      if (refused) return next(Object.assign(new Error(refused.message), { data: refused }));
      // Before the schema: a handshake nested thousands deep would overflow any recursive walk.
      const excess = clientPayloadExcess(socket.handshake.auth ?? {});
      if (excess) return next(refusal('invalid_payload', `The handshake is not valid: ${excess}.`));
      const auth = handshakeAuthSchema.safeParse(socket.handshake.auth ?? {});
      if (!auth.success) return next(refusal('invalid_payload', 'The handshake is not valid.'));
      const settled = settleIdentity(auth.data, sessions, options);
      if ('code' in settled) {
        // Who was refused stays out of the line: a claimed id is not a verified one.
        logger.debug?.(
          { event: 'handshake_refused', code: settled.code, identity: socket.handshake.auth?.identity !== undefined },
          settled.message,
        );
        return next(refusal(settled.code, settled.message));
      }
      const { phone: _signed, ...session } = settled;
      socket.data = { ...session, deferStart: auth.data.deferStart === true };
      const person = personOf(settled);
      if (!person) return next();
      // A web chat linked into a person speaks for the person: their session, their transcript from the start.
      person.then(
        (personId) => {
          if (personId !== undefined)
            socket.data = { ...socket.data, userId: personId, token: sessions.sign(personId), lastSeq: 0 };
          next();
        },
        (error: unknown) => {
          logger.error({ event: 'socket_handshake_failed', err: error }, 'could not look up or link a linked web chat');
          next(refusal('internal', 'The chat could not start. Please try again shortly.'));
        },
      );
    } catch (error) {
      logger.error({ event: 'socket_handshake_failed', err: error }, 'could not check a web chat handshake');
      next(refusal('internal', 'The chat could not start. Please try again shortly.'));
    }
  };
}

/** The person a web chat user was linked into, when addresses link here; undefined (no read) otherwise. */
function linkedPerson(app: AppDeps, userId: string): Promise<string | undefined> | undefined {
  if (!followsLinks(app)) return undefined;
  return linkedPersonOf(app, userId).then((person) =>
    person && person.personId !== userId ? person.personId : undefined,
  );
}

/**
 * The user as the connect read them, or as this connection's last message turn committed them, while nothing has
 * changed them since: the next message's turn starts from it instead of a read of its own (a stale one only costs
 * that turn a retry). Only for a message soon after, as a widget's resend after a restart or a visitor's quick
 * reply is: later, a timer or a trigger has likely moved the user on, and the retry would cost more than the read
 * saves. This connection's other events change the user: they drop it.
 */
class ReturningUser {
  #seen: { readonly user: UserRecord; readonly at: number } | undefined;
  readonly #now: () => number;

  constructor(now: () => number) {
    this.#now = now;
  }

  remember(user: UserRecord): void {
    this.#seen = { user, at: this.#now() };
  }

  forget(): void {
    this.#seen = undefined;
  }

  /**
   * The user for the next message's turn, taken once. Entries of a turn this connection did not run (a synchronous
   * integration's answer, another tab's message, a timer) show the copy is behind the store: a read costs less than
   * the conflict and second run.
   */
  take(highestSent: number): UserRecord | undefined {
    const seen = this.#seen;
    this.#seen = undefined;
    return seen && this.#now() - seen.at <= RETURNING_FRESH_MS && highestSent <= seen.user.lastSeq
      ? seen.user
      : undefined;
  }
}

/** One accepted connection: its session, its start, and its client events behind the rate limits. */
function serveConnection(socket: ChatSocket, app: AppDeps, logger: Logger, options: WebchatOptions): void {
  const { userId } = socket.data;
  const ip = options.clientIp?.(socket.request) ?? socket.handshake.address;
  logger.info({ event: 'socket_connect', userId, socketId: socket.id, ip }, 'web chat connected');
  const presence = options.presence;
  // Awaited before the session is announced, so a trigger sent once the widget is up finds the user online.
  const registered = presence?.connected(userId, socket.id).catch(() => undefined);
  socket.on('disconnect', (reason) => {
    logger.info({ event: 'socket_disconnect', userId, socketId: socket.id, reason }, 'web chat disconnected');
    presence?.disconnected(userId, socket.id).catch(() => undefined);
  });
  // Client events wait until the user exists and the start dialog has run; with deferStart,
  // a new visitor's first event (`open` or any other) is what stores them.
  const started = start(app, socket, logger, registered);
  const returning = new ReturningUser(() => app.clock.now());
  void started.then((outcome) => {
    if (outcome !== false && outcome !== true) returning.remember(outcome.user);
  });
  let opening: Promise<void> | undefined;
  const ready = () =>
    (opening ??= started.then(async (opened) => {
      if (opened !== false) return;
      try {
        await openConversation(app, { userId, channelId: CHANNEL_ID, init: socket.data.init });
      } catch (error) {
        logger.error({ userId, err: error }, 'could not open the conversation');
        socket.emit('protocol_error', {
          code: 'internal',
          message: 'The chat could not start. Please try again shortly.',
        });
      }
    }));
  const sent = new SentEntries(socket, socket.data.lastSeq);
  const connection: WebchatConnection = {
    app,
    userId,
    forgetReturning: () => returning.forget(),
    // A resend of a stored message: its turn's entries may have been stored by a node that died before pushing them.
    async send(message, clientId) {
      const user = returning.take(sent.highest);
      const committed = (after: UserRecord) => returning.remember(after);
      const result = await handleUserMessage(app, {
        ...{ userId, clientId, message, committed, channelId: CHANNEL_ID },
        ...(user ? { user } : {}),
      });
      if (result.duplicate) await sent.replayFrom(app, socket, userId, result.seq);
      return result;
    },
  };
  const gate = eventGate(socket, app, logger, options, ready);
  for (const [event, { schema, run }] of Object.entries(CLIENT_EVENTS) as [
    keyof ClientToServerEvents,
    ClientEvent<z.ZodType>,
  ][])
    socket.on(event, gate(handle(socket, logger, schema, (payload) => run(connection, payload))));
}

/**
 * What every client event passes before its handler: not while draining, within the connection's rate limit (and
 * the user's over every node in a cluster), after the conversation is open. Built once per connection, not per
 * event: a chat turn is one event.
 */
function eventGate(
  socket: ChatSocket,
  app: AppDeps,
  logger: Logger,
  options: WebchatOptions,
  ready: () => Promise<void>,
): (handler: (payload: unknown, ack?: unknown) => Promise<void>) => (payload: unknown, ack?: unknown) => void {
  const { userId } = socket.data;
  const bucket = new TokenBucket(options.rateLimitPerMinute ?? 60, () => app.clock.now());
  let warned = false;
  const refuse = (ack: unknown) => {
    if (!warned)
      logger.warn(
        { event: 'socket_rate_limited', userId, socketId: socket.id },
        'web chat client is over its rate limit',
      );
    warned = true;
    app.metrics?.rateLimited?.('webchat');
    const error: ProtocolError = {
      code: 'rate_limited',
      message: 'You are sending messages too quickly. Please wait a moment and try again.',
    };
    socket.emit('protocol_error', error);
    if (typeof ack === 'function') (ack as Reply<never>)({ ok: false, error });
  };
  const failed = (error: unknown) =>
    logger.error({ event: 'socket_event_failed', userId, socketId: socket.id, err: error }, 'a client event failed');
  return (handler) => (payload, ack) => {
    if (options.draining?.()) return;
    // Counted on arrival, before any work, so a flood costs the server next to nothing.
    if (!bucket.take()) return refuse(ack);
    // handler answers every failure itself; the catch is the last line, so no client event can
    // ever become an unhandled rejection (which would stop the process).
    if (!options.userLimit) {
      void ready()
        .then(() => handler(payload, ack))
        .catch(failed);
      return;
    }
    // In a cluster the user's events also count against one limit over every node (their tabs
    // may sit on several); the replies come back in order on one Redis connection.
    const allowed = options.userLimit(userId).catch(() => true);
    void Promise.all([ready(), allowed])
      .then(([, ok]) => (ok ? handler(payload, ack) : refuse(ack)))
      .catch(failed);
  };
}

/** Who the handshake speaks for, with the phone number its signed identity carries. */
type Settled = Omit<SocketData, 'deferStart'> & { readonly phone?: string };

/** Who the handshake speaks for, or why it is refused. */
function settleIdentity(
  auth: z.infer<typeof handshakeAuthSchema>,
  sessions: SessionTokens,
  options: WebchatOptions,
): Settled | ProtocolError {
  const { userId, token, lastSeq, user, identity } = auth;
  if (identity !== undefined) {
    // A verified identity wins over a stored session: it is how one user resumes on another device.
    if (!options.identitySecret) {
      return {
        code: 'not_allowed',
        message:
          'Identity verification is not enabled on this server; set BOT_IDENTITY_SECRET or leave out userId and userHash.',
      };
    }
    if (identity.phone !== undefined && !options.linkByPhone) {
      return {
        code: 'not_allowed',
        message:
          'Linking by a signed phone number is not enabled on this server; set BOT_IDENTITY_LINK_PHONE=true or leave out phone.',
      };
    }
    if (!identityVerified(options.identitySecret, identity)) {
      return {
        code: 'unauthorized',
        message:
          identity.phone === undefined
            ? 'The userHash does not match this userId; compute it as HMAC-SHA256(BOT_IDENTITY_SECRET, userId).'
            : 'The userHash does not match this userId and phone; compute it as HMAC-SHA256(BOT_IDENTITY_SECRET, userId + "\\n" + phone).',
      };
    }
    const resuming =
      userId === identity.userId && token !== undefined && sessions.check(userId, token).status === 'valid';
    return {
      userId: identity.userId,
      token: sessions.sign(identity.userId),
      lastSeq: resuming ? (lastSeq ?? 0) : 0,
      init: user ?? {},
      ...(identity.phone !== undefined ? { phone: identity.phone } : {}),
    };
  }
  if (userId !== undefined && token !== undefined) {
    const check = sessions.check(userId, token);
    if (check.status === 'expired') {
      return {
        code: 'session_expired',
        message:
          'This session has expired; start a new one, or resume it with a verified identity (userId and userHash).',
      };
    }
    if (check.status === 'invalid')
      return { code: 'unauthorized', message: 'This session is not valid here; start a new one.' };
    // Sliding lifetime: every connect gets a fresh token (a legacy one is replaced here too).
    return { userId, token: sessions.sign(userId), lastSeq: lastSeq ?? 0, init: user ?? {} };
  }
  return { ...sessions.issue(), lastSeq: 0, init: user ?? {} };
}

/**
 * Issues the session and replays what was missed; false when the conversation is left for the
 * visitor's first event (deferStart); `{ user }` when a returning user needed nothing opened, so
 * the user read here is still as stored; else true.
 */
async function start(
  app: AppDeps,
  socket: ChatSocket,
  logger: Logger,
  registered?: Promise<void>,
): Promise<boolean | { user: UserRecord }> {
  const { userId, token, lastSeq, init, deferStart } = socket.data;
  try {
    // Join before anything is sent, so nothing emitted meanwhile is missed;
    // the widget drops entries it already has by seq.
    await socket.join(room(userId));
    await registered;
    const { name, avatarUrl } = app.definition.settings;
    socket.emit('session', { userId, token, bot: avatarUrl ? { name, avatarUrl } : { name } });
    // Replay first: what the start dialog says next reaches the room live. One read of the user serves
    // the replay, the check below and the opening's (a restart brings every widget back at once).
    const { user, missed } = await readReturning(app, userId, lastSeq);
    if (missed.length > 0) socket.emit('entries', missed.map(toItem));
    // A page view by a visitor not yet stored stores nothing: they are stored when they open the chat or write.
    if (deferStart && user === null) return false;
    const opened = await openConversation(app, { userId, channelId: CHANNEL_ID, init, known: user });
    if (!opened && user !== null) return { user };
  } catch (error) {
    logger.error({ userId, err: error }, 'could not open the conversation');
    socket.emit('protocol_error', { code: 'internal', message: 'The chat could not start. Please try again shortly.' });
  }
  return true;
}

type Reply<T> = (response: { ok: true; value: T } | { ok: false; error: ProtocolError }) => void;

/**
 * Validates a client event's payload against its schema, runs the use case,
 * and answers through the ack (and a protocol_error event, for clients that
 * sent no ack). A bad payload never drops the connection.
 */
function handle<S extends z.ZodType, T>(
  socket: ChatSocket,
  logger: Logger,
  schema: S,
  action: (payload: z.infer<S>) => Promise<T>,
): (payload: unknown, ack?: unknown) => Promise<void> {
  return async (payload, ack) => {
    const reply = typeof ack === 'function' ? (ack as Reply<T>) : undefined;
    try {
      // Before the schema and anything else that recurses: one payload nested thousands deep must cost a refusal, not the process.
      const excess = clientPayloadExcess(payload);
      if (excess)
        return failWith(socket, reply, { code: 'invalid_payload', message: `The message is not valid: ${excess}.` });
      const parsed = schema.safeParse(payload);
      if (!parsed.success) return failWith(socket, reply, invalid(payload, parsed.error));
      reply?.({ ok: true, value: await action(parsed.data) });
    } catch (error) {
      if (error instanceof UnknownDialogError)
        return failWith(socket, reply, { code: 'unknown_dialog', message: error.message });
      // The store did not answer in time: logged once where the turn ran (app/turn-deadline.ts); the widget shows the message as not sent.
      if (error instanceof DeadlinePassed)
        return failWith(socket, reply, {
          code: 'internal',
          message: 'That could not be sent just now. Please try again.',
        });
      logger.error(
        { event: 'socket_event_failed', userId: socket.data.userId, socketId: socket.id, err: error },
        'could not handle a client event',
      );
      failWith(socket, reply, { code: 'internal', message: 'That could not be handled. Please try again.' });
    }
  };
}

function failWith(socket: ChatSocket, reply: Reply<never> | undefined, error: ProtocolError): void {
  socket.emit('protocol_error', error);
  reply?.({ ok: false, error });
}

function invalid(payload: unknown, error: z.ZodError): ProtocolError {
  const text = typeof payload === 'object' && payload !== null ? (payload as { text?: unknown }).text : undefined;
  if (typeof text === 'string' && Buffer.byteLength(text) > MAX_TEXT_BYTES) {
    return {
      code: 'text_too_long',
      message: `Messages can be at most ${MAX_TEXT_BYTES} bytes long; please shorten it.`,
    };
  }
  const issue = error.issues[0];
  const where = issue?.path.length ? `${issue.path.join('.')} ` : '';
  return {
    code: 'invalid_payload',
    message: `The message is not valid: ${where}${issue?.message ?? 'unknown problem'}.`,
  };
}

function refusal(code: ProtocolError['code'], message: string): Error & { data: ProtocolError } {
  return Object.assign(new Error(message), { data: { code, message } });
}
