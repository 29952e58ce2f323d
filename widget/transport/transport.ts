import type {
  ClientToServerEvents,
  HandshakeAuth,
  ProtocolErrorCode,
  ServerToClientEvents,
} from '../../shared/protocol.ts';

/** The ack callback of a `message` emit, as the protocol declares it. */
export type MessageAck = Parameters<ClientToServerEvents['message']>[1];

/** What an ack carries: the stored seq, or a protocol error. */
export type MessageAckResponse = Parameters<MessageAck>[0];

/** A client event's payload and ack, by event name. */
export type ClientPayload<E extends keyof ClientToServerEvents> = Parameters<ClientToServerEvents[E]>[0];
export type ClientAck<E extends keyof ClientToServerEvents> = Parameters<ClientToServerEvents[E]>[1];

/** Why a connection attempt failed: the server's protocol error code when it refused the handshake, and its message for the console. */
export interface ConnectFailure {
  readonly code: ProtocolErrorCode | null;
  /** The server refused this page's origin (its ALLOWED_ORIGINS leaves it out). */
  readonly originRefused?: boolean;
  readonly message: string;
}

/**
 * Events a transport reports: the server's events plus its own link state.
 * `connect` fires on every (re)connection, so the owner can resend what was not acked.
 */
export interface TransportEvents extends ServerToClientEvents {
  connect: () => void;
  disconnect: (reason: string) => void;
  /** The handshake failed; `willRetry` is false when the server refused it (e.g. an expired token). */
  connect_error: (failure: ConnectFailure, willRetry: boolean) => void;
}

/**
 * The seam between the connection controller and the wire. The real one wraps
 * socket.io-client; component tests use an in-memory fake.
 */
export interface Transport {
  /** Opens the link. `auth` is called on every (re)connection so it can report the current lastSeq. */
  connect(auth: () => HandshakeAuth): void;
  /** Sends a client event; `ack` fires once the server handled or refused it. */
  emit<E extends keyof ClientToServerEvents>(event: E, payload: ClientPayload<E>, ack: ClientAck<E>): void;
  on<E extends keyof TransportEvents>(event: E, listener: TransportEvents[E]): void;
  /** Closes the link for good; no events fire afterwards. */
  disconnect(): void;
}

/** Makes a transport for a server base URL (e.g. `http://host:3000`). */
export type TransportFactory = (serverUrl: string) => Transport;
