import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from 'socket.io';
import { io, type Socket } from 'socket.io-client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  followReconnectPolicy,
  LONG_OUTAGE_MAX_MS,
  RECENT_OUTAGE_ATTEMPTS,
  RECENT_OUTAGE_MAX_MS,
  RECONNECT_OPTIONS,
} from '../../../widget/transport/reconnect-policy.ts';

/*
 * The widget's retry gaps, read on a fake clock so that they are exact and the test takes no
 * minutes: socket.io-client takes setTimeout when its manager is made, so the fake one
 * schedules its retries, while each attempt's refusal (nothing listening) and the real
 * socket.io server that comes back are real loopback I/O.
 */

/** A loopback port nothing listens on (yet). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

interface Widget {
  readonly socket: Socket;
  /** When each retry started, on the fake clock. */
  readonly attempts: number[];
  /** How many connection attempts failed (the first one included). */
  failures(): number;
}

function widgetAt(port: number): Widget {
  const socket = io(`http://127.0.0.1:${port}`, { transports: ['websocket'], forceNew: true, ...RECONNECT_OPTIONS });
  followReconnectPolicy(socket.io);
  const attempts: number[] = [];
  let failures = 0;
  socket.io.on('reconnect_attempt', () => attempts.push(Date.now()));
  socket.on('connect_error', () => (failures += 1));
  socket.on('disconnect', () => (failures += 1));
  return { socket, attempts, failures: () => failures };
}

/** Resolves once every attempt so far has been refused (real I/O), so the only timer left is the next retry. */
async function refused(...widgets: Widget[]): Promise<void> {
  await vi.waitFor(() => expect(widgets.every((w) => w.failures() >= w.attempts.length + 1)).toBe(true), {
    timeout: 5000,
    interval: 2,
  });
}

/** Lets `count` more retries happen and be refused, moving the fake clock to each. */
async function retries(widget: Widget, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    await refused(widget);
    vi.advanceTimersToNextTimer();
  }
  await refused(widget);
}

const gaps = (times: readonly number[]) => times.slice(1).map((t, i) => t - times[i]!);
/** socket.io's own zero-delay timers between two retries move the fake clock by a millisecond or two. */
const SLACK_MS = 10;

describe('the widget reconnecting after its server went away', () => {
  const cleanup: Array<() => unknown> = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0)) await step();
    vi.useRealTimers();
  });

  it('when the server is gone, then the first retry comes within a second and the next ones at most 2 s apart; when it stays gone, then they come at most 15 s apart', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const port = await freePort();
    const dropped = Date.now();
    const widget = widgetAt(port);
    cleanup.push(() => widget.socket.close());

    await retries(widget, RECENT_OUTAGE_ATTEMPTS + 5);

    expect(widget.attempts[0]! - dropped).toBeLessThanOrEqual(1000 + SLACK_MS);
    // The first RECENT_OUTAGE_ATTEMPTS retries, then the ones after.
    const recent = gaps(widget.attempts.slice(0, RECENT_OUTAGE_ATTEMPTS));
    expect(Math.max(...recent)).toBeLessThanOrEqual(RECENT_OUTAGE_MAX_MS + SLACK_MS);
    const long = gaps(widget.attempts.slice(RECENT_OUTAGE_ATTEMPTS - 1));
    expect(Math.max(...long)).toBeGreaterThan(RECENT_OUTAGE_MAX_MS + SLACK_MS);
    expect(Math.max(...long)).toBeLessThanOrEqual(LONG_OUTAGE_MAX_MS + SLACK_MS);
  });

  it('when the server comes back after a long outage and later goes away again, then the retries are at most 2 s apart again', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const port = await freePort();
    const widget = widgetAt(port);
    cleanup.push(() => widget.socket.close());
    await retries(widget, RECENT_OUTAGE_ATTEMPTS + 2);

    const http: HttpServer = createServer();
    const server = new Server(http);
    cleanup.push(() => server.close());
    await new Promise<void>((resolve) => http.listen(port, '127.0.0.1', resolve));
    vi.advanceTimersToNextTimer();
    await vi.waitFor(() => expect(widget.socket.connected).toBe(true), { timeout: 5000, interval: 2 });

    const before = widget.attempts.length;
    server.close();
    // The drop counts as the failure the first retry waits for.
    await retries(widget, 8);
    expect(Math.max(...gaps(widget.attempts.slice(before)))).toBeLessThanOrEqual(RECENT_OUTAGE_MAX_MS + SLACK_MS);
  });

  it('when many widgets lose the same server at once, then their first retries are spread out, not at one instant', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const port = await freePort();
    const widgets = Array.from({ length: 20 }, () => widgetAt(port));
    cleanup.push(() => widgets.forEach((w) => w.socket.close()));
    const dropped = Date.now();
    // The clock moves to each retry in turn until every widget has made its first.
    while (widgets.some((w) => w.attempts.length === 0)) {
      await refused(...widgets);
      vi.advanceTimersToNextTimer();
    }
    const firsts = widgets.map((w) => w.attempts[0]! - dropped);
    expect(new Set(firsts).size).toBeGreaterThan(10);
    expect(Math.max(...firsts)).toBeLessThanOrEqual(1000 + SLACK_MS);
  });
});
