import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents, TranscriptItem } from '../../../shared/protocol.ts';
import { followReconnectPolicy, RECONNECT_OPTIONS } from '../../../widget/transport/reconnect-policy.ts';

type ChatSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** Where a widget's timeline goes when a test traces it (turns-crash.test.ts, TURNS_CRASH_TRACE). */
export type WidgetTrace = (kind: string, data: Record<string, unknown>) => void;

interface Unacked {
  readonly clientId: string;
  readonly text: string;
}

/**
 * A scripted stand-in for the widget's connection controller: the same
 * handshake (userId, token, lastSeq), the same resend of every unacked message
 * on each connect, the same merge of entries by seq, and what a page reload
 * keeps (session, lastSeq, shown items, unacked messages, as in localStorage).
 * socket.io's own reconnection with the widget's delays (widget/transport/reconnect-policy.ts).
 */
export class ScriptedWidget {
  private socket: ChatSocket | null = null;
  private session: { userId: string; token: string } | null = null;
  private lastSeq = 0;
  /** What the widget shows, by seq. */
  readonly items = new Map<number, TranscriptItem>();
  private unacked: Unacked[] = [];
  /** Ack time per clientId (ms, wall clock). */
  readonly ackedAt = new Map<string, number>();
  /** Messages the server answered with an error ack (the widget would show an error and stop resending). */
  readonly refused: string[] = [];
  /** When each connection came up (ms, wall clock): a reconnect's delay is socket.io's backoff, not the server's. */
  readonly connectedAt: number[] = [];
  /** Items that arrived for a seq the widget already showed with a different entry. */
  readonly conflicting: TranscriptItem[] = [];
  /**
   * Connection attempts given up by socket.io's connect timeout (the manager's `timeout`, 20 s):
   * the widget waited that long for a server that did not take it in, then tried again.
   */
  connectTimeouts = 0;

  constructor(
    private url: string,
    private readonly trace?: WidgetTrace,
  ) {}

  get userId(): string | undefined {
    return this.session?.userId;
  }

  get waiting(): readonly Unacked[] {
    return this.unacked;
  }

  open(url = this.url): void {
    this.url = url;
    const socket: ChatSocket = io(url, {
      auth: (cb) => cb(this.session ? { ...this.session, lastSeq: this.lastSeq } : {}),
      transports: ['websocket'],
      forceNew: true,
      ...RECONNECT_OPTIONS,
    });
    followReconnectPolicy(socket.io);
    socket.io.on('error', (error) => {
      if (error.message === 'timeout') this.connectTimeouts += 1;
    });
    this.socket = socket;
    const trace = this.trace;
    if (trace) {
      const user = () => this.session?.userId;
      trace('open_socket', { user: user() });
      socket.io.on('reconnect_attempt', (attempt) => trace('attempt', { user: user(), attempt }));
      socket.io.on('reconnect_error', () => trace('refused', { user: user() }));
      socket.io.on('open', () => {
        const port = (
          socket.io.engine?.transport as unknown as { ws?: { _socket?: { localPort?: number } } } | undefined
        )?.ws?._socket?.localPort;
        trace('engine_open', { user: user(), port });
      });
      socket.on('session', () => trace('session', { user: user() }));
      socket.on('entries', (items) => trace('entries', { user: user(), n: items.length }));
    }
    socket.on('connect', () => {
      this.trace?.('connect', { user: this.session?.userId });
      this.connectedAt.push(Date.now());
      for (const message of this.unacked) this.emit(message);
    });
    socket.on('session', (session) => (this.session = session));
    socket.on('entries', (items) => this.merge(items));
  }

  /** The network blips: the transport closes under the socket, which reconnects by itself. */
  drop(): void {
    this.socket?.io.engine?.close();
  }

  /** The page is reloaded: a new socket from what the widget keeps in localStorage. */
  reload(): void {
    this.close();
    this.open();
  }

  close(): void {
    this.socket?.removeAllListeners();
    this.socket?.disconnect();
    this.socket = null;
  }

  say(clientId: string, text: string): void {
    const message = { clientId, text };
    this.unacked.push(message);
    if (this.socket?.connected) this.emit(message);
  }

  /** Bot texts shown, in seq order. */
  botTexts(): string[] {
    return [...this.items.values()]
      .sort((a, b) => a.seq - b.seq)
      .filter((item) => item.from === 'bot')
      .map((item) => (item.message.type === 'text' ? item.message.text : `<${item.message.type}>`));
  }

  private emit(message: Unacked): void {
    this.trace?.('emit', { user: this.session?.userId, clientId: message.clientId });
    this.socket?.emit('message', message, (response) => {
      if (!this.unacked.includes(message)) return;
      this.unacked = this.unacked.filter((m) => m !== message);
      if (!response.ok) {
        this.refused.push(message.clientId);
        return;
      }
      this.trace?.('ack', { user: this.session?.userId, clientId: message.clientId });
      if (!this.ackedAt.has(message.clientId)) this.ackedAt.set(message.clientId, Date.now());
    });
  }

  private merge(items: readonly TranscriptItem[]): void {
    for (const item of items) {
      const held = this.items.get(item.seq);
      if (held && (held.clientId !== item.clientId || JSON.stringify(held.message) !== JSON.stringify(item.message)))
        this.conflicting.push(item);
      this.items.set(item.seq, item);
      if (item.seq > this.lastSeq) this.lastSeq = item.seq;
      if (item.clientId !== null) {
        const acked = this.unacked.find((m) => m.clientId === item.clientId);
        // The entry arriving is as good as an ack (the widget drops it from its queue too).
        if (acked) {
          this.trace?.('ack', { user: this.session?.userId, clientId: acked.clientId, by: 'entry' });
          this.unacked = this.unacked.filter((m) => m !== acked);
          if (!this.ackedAt.has(acked.clientId)) this.ackedAt.set(acked.clientId, Date.now());
        }
      }
    }
  }
}
