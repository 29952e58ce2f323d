import type { Server, Socket } from 'socket.io';
import type { ClientToServerEvents, ProtocolError, ServerToClientEvents } from '../../../shared/protocol.ts';
import { handshakeAuthSchema, sendTextSchema } from '../../../shared/protocol-schemas.ts';
import { MAX_TEXT_BYTES } from '../../../shared/protocol.ts';
import type { AppDeps } from '../../app/deps.ts';
import { handleUserMessage } from '../../app/handle-user-message.ts';
import { openConversation, readMissed } from '../../app/open-conversation.ts';
import type { Delivery } from '../../ports/delivery.ts';
import type { Logger } from '../../ports/logger.ts';
import type { SessionTokens } from './session-tokens.ts';
import { toItem } from './to-item.ts';

export type ChatServer = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;
type ChatSocket = Socket<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

interface SocketData {
  userId: string;
  token: string;
  lastSeq: number;
  init: Record<string, unknown>;
}

export const CHANNEL_ID = 'webchat';

const room = (userId: string) => `user:${userId}`;

/** Delivery through socket.io rooms: every open widget of a user gets the entries. */
export function socketDelivery(io: ChatServer): Delivery {
  return {
    deliver(userId, entries) {
      if (entries.length > 0) io.to(room(userId)).emit('entries', entries.map(toItem));
    },
    typing(userId, on) {
      io.to(room(userId)).emit('typing', on);
    },
  };
}

/**
 * The web chat channel: translates socket.io into use-case calls and back.
 * Identity is settled in the handshake; every payload is validated against
 * the shared protocol schemas and a bad one gets a protocol_error, never a
 * dropped connection.
 */
export function attachWebchat(io: ChatServer, app: AppDeps, sessions: SessionTokens, logger: Logger): void {
  io.use((socket, next) => {
    const auth = handshakeAuthSchema.safeParse(socket.handshake.auth ?? {});
    if (!auth.success) return next(refusal('invalid_payload', 'The handshake is not valid.'));
    const { userId, token, lastSeq, user } = auth.data;
    if (userId !== undefined && token !== undefined) {
      if (!sessions.verify(userId, token)) {
        return next(refusal('unauthorized', 'This session is not valid here; start a new one.'));
      }
      socket.data = { userId, token, lastSeq: lastSeq ?? 0, init: user ?? {} };
    } else {
      socket.data = { ...sessions.issue(), lastSeq: 0, init: user ?? {} };
    }
    next();
  });

  io.on('connection', (socket: ChatSocket) => {
    const { userId } = socket.data;
    logger.info({ event: 'socket_connect', userId, socketId: socket.id }, 'web chat connected');
    socket.on('disconnect', (reason) => {
      logger.info({ event: 'socket_disconnect', userId, socketId: socket.id, reason }, 'web chat disconnected');
    });
    // Messages wait until the user exists and the start dialog has run.
    const ready = start(app, socket, logger);
    socket.on('message', (payload, ack) => void ready.then(() => onMessage(app, socket, payload, ack, logger)));
  });
}

async function start(app: AppDeps, socket: ChatSocket, logger: Logger): Promise<void> {
  const { userId, token, lastSeq, init } = socket.data;
  try {
    // Join before anything is sent, so nothing emitted meanwhile is missed;
    // the widget drops entries it already has by seq.
    await socket.join(room(userId));
    socket.emit('session', { userId, token });
    // Replay first: what the start dialog says next reaches the room live.
    const missed = await readMissed(app, userId, lastSeq);
    if (missed.length > 0) socket.emit('entries', missed.map(toItem));
    await openConversation(app, { userId, channelId: CHANNEL_ID, init });
  } catch (error) {
    logger.error({ userId, err: error }, 'could not open the conversation');
    socket.emit('protocol_error', { code: 'internal', message: 'The chat could not start. Please try again shortly.' });
  }
}

async function onMessage(
  app: AppDeps,
  socket: ChatSocket,
  payload: unknown,
  ack: unknown,
  logger: Logger,
): Promise<void> {
  const reply = typeof ack === 'function' ? (ack as Parameters<ClientToServerEvents['message']>[1]) : undefined;
  const fail = (error: ProtocolError) => {
    socket.emit('protocol_error', error);
    reply?.({ ok: false, error });
  };
  const parsed = sendTextSchema.safeParse(payload);
  if (!parsed.success) {
    const tooLong =
      typeof payload === 'object' && payload !== null && typeof (payload as { text?: unknown }).text === 'string' &&
      Buffer.byteLength((payload as { text: string }).text) > MAX_TEXT_BYTES;
    return fail(
      tooLong
        ? { code: 'text_too_long', message: `Messages can be at most ${MAX_TEXT_BYTES} bytes long; please shorten it.` }
        : { code: 'invalid_payload', message: `The message is not valid: ${parsed.error.issues[0]?.message ?? 'unknown problem'}.` },
    );
  }
  try {
    const result = await handleUserMessage(app, { userId: socket.data.userId, ...parsed.data });
    reply?.({ ok: true, value: result });
  } catch (error) {
    logger.error({ userId: socket.data.userId, err: error }, 'could not handle a message');
    fail({ code: 'internal', message: 'The message could not be handled. Please try again.' });
  }
}

function refusal(code: ProtocolError['code'], message: string): Error & { data: ProtocolError } {
  return Object.assign(new Error(message), { data: { code, message } });
}
