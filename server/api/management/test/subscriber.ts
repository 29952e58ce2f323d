import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One POST the subscriber received. */
export interface Received {
  readonly headers: IncomingHttpHeaders;
  readonly raw: string;
  readonly event: {
    id: string;
    kind: string;
    occurredAt: string;
    sequence: number;
    bot: string;
    subscriptionId: string;
    user: { id: string; channelId: string; address: string };
    data: Record<string, unknown>;
  };
  /** The status it was answered with. */
  readonly status: number;
}

/**
 * An automation platform's webhook receiver on loopback (what n8n, Zapier or Make would run):
 * records every delivery, answers as told, and can go down (its port refuses connections) and
 * come back on the same port.
 */
export interface Subscriber {
  readonly url: string;
  readonly received: Received[];
  /** Deliveries it accepted (2xx), deduplicated by event id as a subscriber should. */
  accepted(): Received['event'][];
  /** Answers every request with this status from now on (200 by default). */
  answer(status: number): void;
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

export async function startSubscriber(path = '/hooks/chatbot'): Promise<Subscriber> {
  const received: Received[] = [];
  let status = 200;
  let port = 0;
  let server: Server | undefined;
  const listen = async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        let event: Received['event'];
        try {
          event = JSON.parse(raw) as Received['event'];
        } catch {
          res.writeHead(400).end();
          return;
        }
        const answered = req.url === path ? status : 404;
        received.push({ headers: req.headers, raw, event, status: answered });
        res.writeHead(answered, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve, reject) => {
      server!.once('error', reject);
      server!.listen(port, '127.0.0.1', () => resolve());
    });
    port = (server.address() as AddressInfo).port;
  };
  const stop = () =>
    new Promise<void>((resolve) => {
      if (!server) return resolve();
      server.closeAllConnections();
      server.close(() => resolve());
      server = undefined;
    });
  await listen();
  return {
    url: `http://127.0.0.1:${port}${path}`,
    received,
    accepted() {
      const seen = new Set<string>();
      return received
        .filter((r) => r.status >= 200 && r.status < 300 && !seen.has(r.event.id) && seen.add(r.event.id))
        .map((r) => r.event);
    },
    answer(next) {
      status = next;
    },
    down: stop,
    up: listen,
    close: stop,
  };
}

/** True when the delivery carries a valid signature of the REST channel's scheme, made with `secret`, and a fresh timestamp. */
export function signatureValid(received: Received, secret: string): boolean {
  const timestamp = String(received.headers['x-timestamp'] ?? '');
  const expected = `sha256=${createHmac('sha256', secret).update(`${timestamp}.${received.raw}`, 'utf8').digest('hex')}`;
  const given = String(received.headers['x-signature'] ?? '');
  return (
    /^\d+$/.test(timestamp) &&
    Math.abs(Date.now() / 1000 - Number(timestamp)) < 300 &&
    given.length === expected.length &&
    timingSafeEqual(Buffer.from(given), Buffer.from(expected))
  );
}
