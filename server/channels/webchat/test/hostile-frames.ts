import { Manager } from 'socket.io-client';
import type { ProtocolError } from '../../../../shared/protocol.ts';
import type { TestClient } from '../../../test/start-test-server.ts';

/**
 * Test helpers that put hand-written socket.io frames on the wire. A real client
 * cannot send these: its encoder recurses and would overflow on the values a
 * hostile client writes by hand, which is exactly what the server must survive.
 */

/** JSON text of an array nested `depth` deep: `[[[…]]]`. */
export function deepArrayJson(depth: number): string {
  return `${'['.repeat(depth)}${']'.repeat(depth)}`;
}

/** JSON text of an object nested `depth` deep: `{"a":{"a":…1}}`. */
export function deepObjectJson(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

/** JSON text of one flat array of `count` zeros. */
export function wideArrayJson(count: number): string {
  return `[${Array.from({ length: count }, () => '0').join(',')}]`;
}

/** A value nested `depth` deep, built without recursion, for payloads a real client can send. */
export function nestedValue(depth: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

type AckResponse = { ok: true; value: unknown } | { ok: false; error: ProtocolError };

let nextAckId = 90_000;

/**
 * Sends one raw socket.io EVENT packet with an ack id (`2<id>["event",<payload>]`) on the client's live
 * connection and resolves with the server's ack.
 */
export function emitRaw(client: TestClient, event: string, payloadJson: string): Promise<AckResponse> {
  const id = nextAckId++;
  const engine = client.io.engine;
  return new Promise((resolve, reject) => {
    const onClose = (reason: string) =>
      reject(new Error(`the server closed the link before it answered ${event}: ${reason}`));
    const onMessage = (data: unknown) => {
      if (typeof data !== 'string' || !data.startsWith(`3${id}[`)) return;
      engine.off('message', onMessage);
      engine.off('close', onClose);
      resolve((JSON.parse(data.slice(`3${id}`.length)) as [AckResponse])[0]);
    };
    engine.on('message', onMessage);
    engine.once('close', onClose);
    engine.write(`2${id}[${JSON.stringify(event)},${payloadJson}]`);
  });
}

/**
 * Opens a bare engine.io link and sends a raw socket.io CONNECT packet (`0<auth>`) whose
 * auth is the given JSON text; resolves with the refusal's data, or 'connected'.
 */
export async function handshakeRaw(url: string, authJson: string): Promise<ProtocolError | 'connected'> {
  const manager = new Manager(url, { transports: ['websocket'], reconnection: false, autoConnect: false });
  await new Promise<void>((resolve, reject) => manager.open((error) => (error ? reject(error) : resolve())));
  const engine = manager.engine;
  try {
    return await new Promise((resolve, reject) => {
      engine.once('close', (reason: string) =>
        reject(new Error(`the server closed the link before it answered the handshake: ${reason}`)),
      );
      engine.on('message', (data: unknown) => {
        if (typeof data !== 'string') return;
        // socket.io packet types: 4 is CONNECT_ERROR, 0 is CONNECT (accepted).
        if (data.startsWith('4')) resolve((JSON.parse(data.slice(1)) as { data: ProtocolError }).data);
        else if (data.startsWith('0')) resolve('connected');
      });
      engine.write(`0${authJson}`);
    });
  } finally {
    engine.close();
  }
}
