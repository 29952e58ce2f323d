import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents, TranscriptItem } from '../../../shared/protocol.ts';

/**
 * A socket.io client that behaves as the widget does across a node's death: it reconnects
 * on its own, presents its session and the last seq it saw, and sends again every message
 * not yet acked (the server deduplicates by clientId). Items are kept by seq, so a
 * duplicate delivery is counted, not hidden.
 */
export interface ChatClient {
  readonly socket: Socket<ServerToClientEvents, ClientToServerEvents>;
  readonly bySeq: Map<number, TranscriptItem>;
  /** Deliveries of a seq the client already had. */
  duplicates: number;
  userId(): string | undefined;
  /** The session the server issued last, to open the same user's chat elsewhere (another tab). */
  session(): { userId: string; token: string } | undefined;
  texts(): string[];
  /** Sends a message (again after every reconnect until acked); `onReply` hears each ack. */
  send(text: string, onReply?: (reply: { ok: boolean; code?: string }) => void): void;
  close(): void;
}

export function chatClient(
  url: string,
  options: { reconnect?: boolean; session?: { userId: string; token: string } } = {},
): ChatClient {
  let session = options.session;
  const unacked = new Map<string, string>();
  const bySeq = new Map<number, TranscriptItem>();
  const lastSeq = () => (bySeq.size === 0 ? 0 : Math.max(...bySeq.keys()));
  const socket: Socket<ServerToClientEvents, ClientToServerEvents> = io(url, {
    auth: (cb) => cb(session ? { ...session, lastSeq: lastSeq() } : {}),
    transports: ['websocket'],
    reconnection: options.reconnect ?? true,
    reconnectionDelay: 200,
    reconnectionDelayMax: 1000,
    forceNew: true,
  });
  const client: ChatClient = {
    socket,
    bySeq,
    duplicates: 0,
    userId: () => session?.userId,
    session: () => session,
    texts: () =>
      [...bySeq.entries()]
        .sort(([a], [b]) => a - b)
        .map(([, item]) => (item.message.type === 'text' ? item.message.text : `<${item.message.type}>`)),
    send(text, onReply) {
      const clientId = crypto.randomUUID();
      unacked.set(clientId, text);
      if (onReply) replies.set(clientId, onReply);
      emit(clientId, text);
    },
    close: () => socket.disconnect(),
  };
  const replies = new Map<string, (reply: { ok: boolean; code?: string }) => void>();
  const emit = (clientId: string, text: string) => {
    if (!socket.connected) return;
    socket.emit('message', { clientId, text }, (reply) => {
      if (reply.ok) unacked.delete(clientId);
      replies.get(clientId)?.(reply.ok ? { ok: true } : { ok: false, code: reply.error.code });
    });
  };
  socket.on('session', (next) => (session = next));
  socket.on('entries', (items) => {
    for (const item of items) {
      if (bySeq.has(item.seq)) client.duplicates++;
      else bySeq.set(item.seq, item);
    }
  });
  socket.on('connect', () => {
    for (const [clientId, text] of unacked) emit(clientId, text);
  });
  return client;
}
