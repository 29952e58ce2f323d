import { io, type Socket } from 'socket.io-client';
import { PROTOCOL_ERROR_CODES, SOCKET_PATH, type ProtocolErrorCode } from '../../shared/protocol.ts';
import type { ClientToServerEvents, HandshakeAuth, ServerToClientEvents } from '../../shared/protocol.ts';
import { followReconnectPolicy, RECONNECT_OPTIONS } from './reconnect-policy.ts';
import type { ClientAck, ClientPayload, Transport, TransportEvents, TransportFactory } from './transport.ts';

type ChatSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/**
 * How long a WebSocket attempt may take before long-polling gets its turn. A WebSocket that a
 * proxy accepts and then drops (closes it, or holds it open in silence) neither fails nor opens,
 * so only this timeout ends it; socket.io's own (20 s) kept visitors on "Connecting…" that long.
 * A working WebSocket opens in a few round trips, well within it, even on a slow phone network.
 */
const WEBSOCKET_ATTEMPT_MS = 2000;
/** socket.io's default, once long-polling goes first: a slow network must not fail every attempt. */
const POLLING_ATTEMPT_MS = 20_000;

/** A transport over socket.io; the only module that knows socket.io-client exists. */
export class SocketTransport implements Transport {
  #socket: ChatSocket | null = null;
  readonly #listeners: Array<(socket: ChatSocket) => void> = [];

  constructor(private readonly serverUrl: string) {}

  connect(auth: () => HandshakeAuth): void {
    if (this.#socket) return;
    this.#socket = io(this.serverUrl, {
      path: SOCKET_PATH,
      // The function form is re-run on every reconnection, so the server hears the
      // lastSeq the widget has reached by then, not the one it had at page load.
      auth: (cb) => cb({ ...auth() }),
      // WebSocket first: most networks allow it and it skips the polling upgrade dance. Where a
      // proxy or carrier blocks it, the same attempt goes on over long-polling instead of failing.
      transports: ['websocket', 'polling'],
      tryAllTransports: true,
      timeout: WEBSOCKET_ATTEMPT_MS,
      ...RECONNECT_OPTIONS,
    });
    const manager = this.#socket.io;
    followReconnectPolicy(manager);
    // A WebSocket that is dropped after the upgrade ends in that timeout, which tryAllTransports does not
    // count as a failure: after any failed attempt, start with long-polling (and upgrade to WebSocket once
    // it is seen to work), with socket.io's usual patience.
    this.#socket.on('connect_error', () => {
      manager.opts.transports = ['polling', 'websocket'];
      manager.timeout(POLLING_ATTEMPT_MS);
    });
    for (const attach of this.#listeners) attach(this.#socket);
  }

  #attach<E extends keyof TransportEvents>(socket: ChatSocket, event: E, listener: TransportEvents[E]): void {
    if (event === 'connect_error') {
      const report = listener as TransportEvents['connect_error'];
      // socket.active is false once socket.io has given up, i.e. the server said no.
      socket.on('connect_error', (error) =>
        // originRefused only when it is, so a failure reads the same as before this flag existed.
        report(
          { code: refusalCode(error), ...(originRefused(error) && { originRefused: true }), message: describe(error) },
          socket.active,
        ),
      );
      return;
    }
    // socket.io's typed `on` cannot relate our generic E to its own overloads.
    (socket.on as (e: string, l: (...args: never[]) => void) => void)(event, listener);
  }

  emit<E extends keyof ClientToServerEvents>(event: E, payload: ClientPayload<E>, ack: ClientAck<E>): void {
    // Only on a live link: the controller resends what is unacked on every connect,
    // and socket.io's own offline buffer would send it a second time.
    if (!this.#socket?.connected) return;
    (this.#socket.emit as (e: string, p: unknown, a: unknown) => void)(event, payload, ack);
  }

  on<E extends keyof TransportEvents>(event: E, listener: TransportEvents[E]): void {
    // Listeners may be added before connect(); they are attached once the socket exists.
    const attach = (socket: ChatSocket): void => this.#attach(socket, event, listener);
    this.#listeners.push(attach);
    if (this.#socket) attach(this.#socket);
  }

  disconnect(): void {
    this.#socket?.removeAllListeners();
    this.#socket?.disconnect();
    this.#socket = null;
  }
}

/** The protocol error code the server put in a handshake refusal (`error.data.code`), if any. */
function refusalCode(error: Error): ProtocolErrorCode | null {
  const code = (error as Error & { data?: { code?: unknown } }).data?.code;
  return (PROTOCOL_ERROR_CODES as readonly unknown[]).includes(code) ? (code as ProtocolErrorCode) : null;
}

/**
 * The server refused this page's origin: a handshake refusal saying so, or HTTP 403 on the
 * polling handshake (all the browser learns when the server refuses before socket.io runs).
 */
function originRefused(error: Error): boolean {
  const failure = error as Error & { data?: { code?: unknown }; description?: unknown };
  return failure.data?.code === 'origin_not_allowed' || failure.description === 403;
}

/** The error with its detail (an HTTP status, a close code), for the console. */
function describe(error: Error): string {
  const { description } = error as Error & { description?: unknown };
  return typeof description === 'number' || typeof description === 'string'
    ? `${error.message} (${description})`
    : error.message;
}

export const socketTransport: TransportFactory = (serverUrl) => new SocketTransport(serverUrl);
