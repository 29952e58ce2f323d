/**
 * One TCP write for what a turn sends one widget: its entries and, a few promise jobs later, the
 * message's ack. Sent as they come, each is a write system call of its own (on loopback the
 * kernel's share of a turn's CPU; on a network, a packet each). Held until the current tick's
 * promise jobs are done, they leave together: engine.io hands the held packets to the transport
 * in one batch, and the TCP socket, corked around that batch, writes them in one writev.
 *
 * The wire does not change: the same socket.io packets, in the same order. Only the websocket
 * transport is held (long polling already answers a poll with every packet waiting, in one body);
 * should the internals this reaches (below) be missing or shaped otherwise, packets go out one
 * by one as without it.
 *
 * What it reaches beyond socket.io's documented API: the engine.io transport's `writable` flag
 * (a public field of engine.io's Transport) and `flush()` of its socket (the method engine.io
 * runs itself when a write completes), and ws's TCP socket `_socket`, whose cork()/uncork() the
 * ws maintainers name as the way to batch sends (websockets/ws#1999).
 */

/** The parts of engine.io's Socket, its websocket transport and ws's WebSocket this reaches. */
interface EngineSocket {
  readonly readyState?: string;
  readonly transport?: {
    readonly name?: string;
    writable?: boolean;
    readonly socket?: { readonly _socket?: { cork?: () => void; uncork?: () => void; readonly destroyed?: boolean } };
  };
  readonly flush?: () => void;
}

/** Engine sockets whose packets are held until the end of this tick. */
const held = new Set<EngineSocket>();

/**
 * Holds what is sent on `conn` (a socket.io socket's `conn`) until the promise jobs of this tick
 * are done, then sends it in one write. Does nothing when the socket cannot be held: a transport
 * other than websocket, a write already in flight (engine.io then batches on its own), or
 * internals not as expected.
 */
export function holdWrites(conn: unknown): void {
  const engine = conn as EngineSocket;
  if (held.has(engine)) return;
  const transport = engine.transport;
  const tcp = transport?.socket?._socket;
  if (
    engine.readyState !== 'open' ||
    transport?.name !== 'websocket' ||
    transport.writable !== true ||
    typeof engine.flush !== 'function' ||
    typeof tcp?.cork !== 'function' ||
    typeof tcp.uncork !== 'function'
  ) {
    return;
  }
  // While not writable, engine.io keeps each packet in its buffer (as it does while a write is in flight).
  transport.writable = false;
  held.add(engine);
  // A tick callback queued from a promise job runs once the promise jobs queued meanwhile are done:
  // the ack, a few awaits after the entries, is in the buffer by then.
  process.nextTick(release, engine);
}

function release(engine: EngineSocket): void {
  held.delete(engine);
  const transport = engine.transport;
  // Only our hold sets it false and nothing sends meanwhile; a closed socket has nothing more to send.
  if (!transport || transport.writable !== false) return;
  transport.writable = true;
  // A socket closing meanwhile still sends what it holds (engine.io closes once its buffer is written).
  if (engine.readyState === 'closed') return;
  const tcp = transport.socket?._socket;
  if (!tcp || tcp.destroyed) return;
  tcp.cork?.();
  try {
    engine.flush?.();
  } finally {
    tcp.uncork?.();
  }
}
