import { createServer, connect, type Server, type Socket } from 'node:net';

/**
 * A TCP relay that holds every chunk `delayMs` in each direction before passing it on, in
 * order: a store (or any server) as slow to answer as one across a busy network or on a
 * loaded machine, the same on every run. Loopback only.
 */
export async function slowLink(
  target: { host: string; port: number },
  delayMs: number,
): Promise<{ readonly port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const relay = (from: Socket, to: Socket) => {
    from.on('data', (chunk) => setTimeout(() => to.write(chunk), delayMs));
    from.on('end', () => setTimeout(() => to.end(), delayMs));
    from.on('error', () => to.destroy());
    from.on('close', () => setTimeout(() => to.destroy(), delayMs));
  };
  const server: Server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    }
    relay(client, upstream);
    relay(upstream, client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the relay has no port');
  return {
    port: address.port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
