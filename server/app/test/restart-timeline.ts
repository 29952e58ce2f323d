/**
 * Reads a traced crash run (turns-crash.test.ts with TURNS_CRASH_TRACE): the widgets' events and
 * the test process's load (client-trace.ts, `CLIENT` lines) beside the server's
 * (server/test/restart-trace.mjs, `TRACE` lines), and says where the time after each restart went,
 * widget by widget: the wait for its next retry, the TCP connect, the wait until the server's event
 * loop accepted the connection, the handshake, and each resent message's turn until its ack.
 */
interface Event {
  readonly t: number;
  readonly kind: string;
  readonly pid?: number;
  readonly user?: string;
  readonly port?: number;
  readonly clientId?: string;
  readonly [key: string]: unknown;
}

export function restartTimeline(text: string): string {
  const client: Event[] = [];
  const server: Event[] = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('CLIENT ')) client.push(JSON.parse(line.slice(7)) as Event);
    else if (line.startsWith('TRACE ')) server.push(JSON.parse(line.slice(6)) as Event);
  }
  const kills = client.filter((e) => e.kind === 'kill').map((e) => e.t);
  const segments = new Map<string, number[]>();
  const add = (name: string, value: number | undefined) => {
    if (value === undefined || Number.isNaN(value)) return;
    segments.set(name, [...(segments.get(name) ?? []), value]);
  };
  const lines: string[] = [];
  kills.forEach((killedAt, k) => {
    const started = server.filter((e) => e.kind === 'process_start' && e.t > killedAt).sort((a, b) => a.t - b.t)[0];
    const listening = server.find((e) => e.kind === 'listening' && e.pid === started?.pid)?.t;
    if (started === undefined || listening === undefined) return;
    const end = kills[k + 1] ?? Number.POSITIVE_INFINITY;
    const own = server.filter((e) => e.pid === started.pid);
    const window = client.filter((e) => e.t >= killedAt && e.t < end);
    const accepted = new Map(own.filter((e) => e.kind === 'accept').map((e) => [e.port, e.t]));
    const connectedAt = new Map(own.filter((e) => e.kind === 'sio_connected').map((e) => [e.port, e.t]));
    const tcp = new Map<number | undefined, number>();
    for (const e of window) if (e.kind === 'tcp_connect' && !tcp.has(e.port)) tcp.set(e.port, e.t);
    const users = new Set(window.map((e) => e.user).filter((user) => user !== undefined));
    for (const user of users) {
      const mine = window.filter((e) => e.user === user);
      const opened = mine.find((e) => e.kind === 'engine_open' && e.t >= listening);
      if (opened === undefined) continue;
      const attempt = mine
        .filter((e) => (e.kind === 'attempt' || e.kind === 'open_socket') && e.t <= opened.t)
        .at(-1)?.t;
      const tcpAt = tcp.get(opened.port);
      const acceptAt = accepted.get(opened.port);
      const serverConnected = connectedAt.get(opened.port);
      const connected = mine.find((e) => e.kind === 'connect' && e.t >= opened.t)?.t;
      add('listening -> retry', attempt === undefined ? undefined : Math.max(0, attempt - listening));
      add('retry -> TCP connected', attempt !== undefined && tcpAt !== undefined ? tcpAt - attempt : undefined);
      add(
        'TCP connected -> accepted by the server',
        tcpAt !== undefined && acceptAt !== undefined ? acceptAt - tcpAt : undefined,
      );
      add(
        'accepted -> socket.io connected (server)',
        acceptAt !== undefined && serverConnected !== undefined ? serverConnected - acceptAt : undefined,
      );
      add(
        'server connected -> widget connect',
        serverConnected !== undefined && connected !== undefined ? connected - serverConnected : undefined,
      );
      add('listening -> widget connect', connected === undefined ? undefined : connected - listening);
      if (connected === undefined) continue;
      for (const sent of mine.filter((e) => e.kind === 'emit' && e.t >= connected && e.t < connected + 5)) {
        const arrived = own.find((e) => e.kind === 'event_in' && e.clientId === sent.clientId && e.t >= sent.t - 5)?.t;
        const acked = own.find((e) => e.kind === 'ack_out' && e.clientId === sent.clientId && e.t >= sent.t - 5)?.t;
        const seen = mine.find((e) => e.kind === 'ack' && e.clientId === sent.clientId && e.t >= sent.t)?.t;
        add('resend -> server has it', arrived === undefined ? undefined : arrived - sent.t);
        add(
          'server has it -> ack sent (the turn)',
          arrived !== undefined && acked !== undefined ? acked - arrived : undefined,
        );
        add('widget connect -> ack seen', seen === undefined ? undefined : seen - connected);
      }
    }
    const horizon = Math.min(listening + 3000, end);
    const serverSamples = own.filter((e) => e.kind === 'sample' && e.t <= horizon);
    const clientSamples = window.filter((e) => e.kind === 'sample' && e.t >= listening && e.t <= horizon);
    const sum = (events: Event[], key: string) => events.reduce((total, e) => total + Number(e[key] ?? 0), 0);
    const mean = (events: Event[], key: string) => (events.length === 0 ? 0 : sum(events, key) / events.length);
    lines.push(
      `restart ${k + 1}: kill -> listening ${listening - killedAt} ms; the ${horizon - listening} ms after listening: ` +
        `server CPU ${sum(serverSamples, 'cpuMs')} ms (event loop busy ${mean(serverSamples, 'elu').toFixed(2)}), ` +
        `widgets' process CPU ${sum(clientSamples, 'cpuMs')} ms (busy ${mean(clientSamples, 'elu').toFixed(2)}, longest loop delay ${Math.max(0, ...clientSamples.map((e) => Number(e.maxDelayMs)))} ms), ` +
        `FerretDB ${sum(clientSamples, 'ferretMs')} ms, PostgreSQL ${sum(clientSamples, 'pgMs')} ms, machine busy ${mean(clientSamples, 'machineBusy').toFixed(2)}, load ${Number(clientSamples[0]?.load ?? 0).toFixed(1)}`,
    );
  });
  for (const [name, values] of segments) {
    const sorted = [...values].sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
    lines.push(
      `  ${name.padEnd(42)} n=${String(sorted.length).padStart(4)} p50 ${at(0.5)} ms, p90 ${at(0.9)} ms, p99 ${at(0.99)} ms`,
    );
  }
  return lines.join('\n');
}
