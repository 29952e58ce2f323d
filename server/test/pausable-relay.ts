import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP relay between the server and its store that the test can stop: a store that hangs
 * (every byte held, both ways, the connections left open as a hung server leaves them), or a
 * store that took a write and whose answers stop coming from then on (the write lands, the
 * server never hears of it until release). Loopback only; nothing held is lost, release
 * passes it on in order.
 */
export interface PausableRelay {
  readonly port: number;
  /** Holds every byte from now on, both ways. */
  hold(): void;
  /** Lets requests through, and holds every answer once a request containing `marker` has passed. */
  holdAnswersAfter(marker: Buffer): void;
  /** Whether answers are held (after `holdAnswersAfter`'s marker passed, or after `hold`). */
  readonly holding: boolean;
  /** Passes on what was held, in order, and holds nothing more. */
  release(): void;
  close(): Promise<void>;
}

export async function pausableRelay(target: { readonly host: string; readonly port: number }): Promise<PausableRelay> {
  let mode: 'none' | 'both' | 'answers' = 'none';
  let marker: Buffer | null = null;
  const held: Array<() => void> = [];
  const sockets = new Set<Socket>();
  const pass = (from: Socket, to: Socket, answers: boolean) => {
    from.on('data', (chunk: Buffer) => {
      const write = () => void to.write(chunk);
      if (mode === 'both' || (mode === 'answers' && answers)) held.push(write);
      else write();
      if (!answers && marker !== null && chunk.includes(marker)) {
        marker = null;
        mode = 'answers';
      }
    });
    from.on('end', () => (mode === 'none' ? to.end() : held.push(() => to.end())));
    from.on('error', () => to.destroy());
    from.on('close', () => to.destroy());
  };
  const server: Server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    }
    pass(client, upstream, false);
    pass(upstream, client, true);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the relay has no port');
  return {
    port: address.port,
    hold() {
      mode = 'both';
    },
    holdAnswersAfter(bytes) {
      marker = bytes;
    },
    get holding() {
      return mode !== 'none';
    },
    release() {
      mode = 'none';
      marker = null;
      for (const write of held.splice(0)) write();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
