import { io, type Socket } from 'socket.io-client';
import { PREVIEW_NAMESPACE, type PreviewState } from '../../../shared/preview-protocol.ts';
import type { StudioClient } from './studio-client.ts';

/** The studio preview's sockets as the studio page opens them, for tests. */

export type Ack<T> = { ok: true; value: T } | { ok: false; error: { code: string; message: string } };

/** A socket.io client as the studio page opens it: the session cookie, the page's Origin, the CSRF token in the handshake. */
export function previewSocket(
  server: { readonly url: string },
  client: StudioClient,
  auth: Record<string, unknown>,
  origin = new URL(server.url).origin,
): Socket {
  return io(`${server.url}${PREVIEW_NAMESPACE}`, {
    transports: ['websocket'],
    forceNew: true,
    reconnection: false,
    auth,
    extraHeaders: { ...(client.cookie ? { cookie: client.cookie } : {}), origin },
  });
}

export const emit = <T>(socket: Socket, event: string, payload: unknown) =>
  new Promise<Ack<T>>((resolve) => socket.emit(event, payload, resolve));

/** The handshake's answer: connected, or the code it was refused with. */
export function outcome(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    socket.once('connect', () => resolve('connected'));
    socket.once('connect_error', (error: Error & { data?: { code?: string } }) =>
      resolve(error.data?.code ?? error.message),
    );
  });
}

/** The panel's view, kept as the server sends it. */
export function watch(control: Socket): { latest: () => PreviewState | undefined } {
  let latest: PreviewState | undefined;
  control.on('state', (state: PreviewState) => (latest = state));
  return { latest: () => latest };
}

/** The widget's view: the texts the bot said, in order. */
export function chat(socket: Socket): { said: string[] } {
  const said: string[] = [];
  socket.on('entries', (items: { from: string; message: { text?: string } }[]) => {
    for (const item of items) if (item.from === 'bot' && item.message.text) said.push(item.message.text);
  });
  return { said };
}
