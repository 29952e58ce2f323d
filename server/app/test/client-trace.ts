import dc from 'node:diagnostics_channel';
import { readdirSync, readFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import { loadavg } from 'node:os';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';

/**
 * The test process's side of a restart's timeline: each widget's events, its TCP connects, its own
 * load every 100 ms, and the CPU of the store's processes (the Mongo test server's, and PostgreSQL's
 * under FerretDB) and of the whole machine, to tell who had the cores.
 */
export function startClientTrace(mongoUrl?: string) {
  const lines: string[] = [];
  const record = (kind: string, data: Record<string, unknown>) =>
    lines.push(`CLIENT ${JSON.stringify({ t: Date.now(), kind, ...data })}`);
  const onSocket = ({ socket }: { socket: Socket }) => {
    const startedAt = Date.now();
    socket.once('connect', () => record('tcp_connect', { port: socket.localPort, startedAt }));
  };
  dc.subscribe('net.client.socket', onSocket as (message: unknown) => void);
  const store = storeProcesses(mongoUrl);
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  let elu = performance.eventLoopUtilization();
  let cpu = process.cpuUsage();
  let storeCpu = store.cpuMs();
  let machine = machineTicks();
  const timer = setInterval(() => {
    const nextElu = performance.eventLoopUtilization();
    const nextCpu = process.cpuUsage();
    const nextStore = store.cpuMs();
    const nextMachine = machineTicks();
    record('sample', {
      elu: Number(performance.eventLoopUtilization(nextElu, elu).utilization.toFixed(3)),
      cpuMs: Math.round((nextCpu.user - cpu.user + nextCpu.system - cpu.system) / 1000),
      maxDelayMs: Math.round(delay.max / 1e6),
      load: loadavg()[0],
      ferretMs: nextStore.ferret - storeCpu.ferret,
      pgMs: nextStore.pg - storeCpu.pg,
      // Busy share of all cores over the interval.
      machineBusy: Number(
        ((nextMachine.busy - machine.busy) / Math.max(1, nextMachine.total - machine.total)).toFixed(2),
      ),
    });
    delay.reset();
    elu = nextElu;
    cpu = nextCpu;
    storeCpu = nextStore;
    machine = nextMachine;
  }, 100);
  return {
    widget: record,
    stop(): string {
      clearInterval(timer);
      dc.unsubscribe('net.client.socket', onSocket as (message: unknown) => void);
      return lines.join('\n') + '\n';
    },
  };
}

function children(pid: string): string[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter((child) => child !== '');
  } catch {
    return [];
  }
}

function machineTicks(): { busy: number; total: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = fields.reduce((a, b) => a + b, 0);
  const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
  return { busy: total - idle, total };
}

/** The FerretDB process serving `mongoUrl` and the PostgreSQL cluster under it, found in /proc. */
function storeProcesses(mongoUrl?: string): { cpuMs(): { ferret: number; pg: number } } {
  const port = mongoUrl ? /:(\d+)\//.exec(mongoUrl)?.[1] : undefined;
  const cmdline = (pid: string) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
    } catch {
      return '';
    }
  };
  const pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  const ferret = port ? pids.find((pid) => cmdline(pid).includes(`--listen-addr=127.0.0.1:${port}`)) : undefined;
  const pgPort = ferret ? /127\.0\.0\.1:(\d+)\/postgres/.exec(cmdline(ferret))?.[1] : undefined;
  const postmaster = pgPort
    ? pids.find((pid) => /postgres/.test(cmdline(pid)) && cmdline(pid).includes(`-p ${pgPort}`))
    : undefined;
  const cpuOf = (pid: string) => {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
      return { ms: (Number(fields[11]) + Number(fields[12])) * 10 };
    } catch {
      return { ms: 0 };
    }
  };
  // Backends come and go (those gone take their CPU with them: a small undercount); the list is read again every second.
  let backends: string[] = [];
  let calls = 0;
  return {
    cpuMs() {
      const f = ferret ? cpuOf(ferret).ms : 0;
      if (!postmaster) return { ferret: f, pg: 0 };
      if (calls++ % 10 === 0) backends = children(postmaster);
      return { ferret: f, pg: cpuOf(postmaster).ms + backends.reduce((sum, pid) => sum + cpuOf(pid).ms, 0) };
    },
  };
}
