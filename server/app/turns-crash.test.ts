import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Store, TranscriptEntry } from '../ports/store.ts';
import { openMongoStore } from '../stores/mongo/mongo-store.ts';
import { openSqliteStore } from '../stores/sqlite/sqlite-store.ts';
import { startServerChild, type ServerChild } from '../test/server-child.ts';
import { storeLegs } from '../test/start-test-server.ts';
import { LONG_OUTAGE_MAX_MS } from '../../widget/transport/reconnect-policy.ts';
import { ScriptedWidget } from './test/scripted-widget.ts';
import { startClientTrace } from './test/client-trace.ts';
import { restartTimeline } from './test/restart-timeline.ts';

/*
 * The figures line it prints (lost answers, undelivered entries, ack waits after
 * each restart) is the measurement; the assertions are the zeros. For a larger
 * run: TURNS_CRASH_USERS, TURNS_CRASH_KILLS; TURNS_CRASH_LOG=<file> keeps the
 * servers' log lines. 50 users keep the default run short; the goal for the
 * Mongo store on one node is TURNS_CRASH_USERS=200 with the zeros, acks from each
 * widget's reconnect p50 <= 0.25 s and p99 <= 1.5 s, and no widget waiting past
 * socket.io's connect timeout: the store shares the machine's cores, so the acks
 * are counted from the widget's reconnect, not from the restart. The figures line
 * says which are met, with the server's CPU to re-admit the widgets after each
 * restart; none of these is asserted (speed is measured, not tested). SERVER_CHILD_NODE_ARGS='--cpu-prof
 * --cpu-prof-dir=<dir>' profiles the server processes (the last one: a killed process writes none).
 * The server runs compiled, as in production (server/test/server-child.ts); the line gives
 * its CPU time, to read the figures on a shared machine. TURNS_CRASH_TRACE=<file> traces each
 * restart on both sides (client-trace.ts, server/test/restart-trace.mjs; RESTART_TRACE_PROFILES=<dir>
 * adds a CPU profile of each of the server's first five seconds after listening), keeps the trace in
 * the file and prints where the time went (restart-timeline.ts).
 */
/** Preloaded into the server processes of a traced run: their side of each restart's timeline. */
const SERVER_TRACE = path.join(import.meta.dirname, '..', 'test', 'restart-trace.mjs');
const ECHO_BOT = path.join(import.meta.dirname, 'test', 'fixtures', 'echo-bot.json');
const USERS = Number(process.env.TURNS_CRASH_USERS ?? 50);
const MESSAGES = 3;
const KILLS = Number(process.env.TURNS_CRASH_KILLS ?? 5);
/** Chance, per message, that the transport drops right after it is sent, and that the page reloads. */
const DROP_CHANCE = 0.5;
const RELOAD_CHANCE = 0.12;
/** Goals for the acks counted from each widget's reconnect (ms): printed as met or not, never asserted. */
const ACK_FROM_RECONNECT_GOAL = { p50: 250, p99: 1500 } as const;
/** How long one user waits for the answer to a message before sending the next anyway (counted if it never comes). */
const ANSWER_WAIT_MS = 20_000;
/**
 * How long everything still owed may take after the last restart: on a loaded machine a widget's
 * connection can sit in the listen queue past socket.io's connect timeout (20 s); that retry then
 * counts as failed, and a widget past its 30th waits up to LONG_OUTAGE_MAX_MS for the next.
 */
const FINAL_WAIT_MS = ANSWER_WAIT_MS + 20_000 + LONG_OUTAGE_MAX_MS;

interface Sent {
  readonly widget: ScriptedWidget;
  readonly clientId: string;
  readonly text: string;
  readonly sentAt: number;
}

for (const leg of storeLegs()) {
  describe.skipIf(leg.skip)(`web chat turns across crashes (${leg.name})`, () => {
    it(
      'when the server is killed and restarted while users chat, drop their links and reload their pages, then every message is answered once and every entry shown once',
      async () => {
        const dir = await mkdtemp(path.join(tmpdir(), 'turns-crash-'));
        const env: Record<string, string> = {
          ...leg.env(),
          DATA_DIR: dir,
          BOT_DEFINITION: ECHO_BOT,
          SESSION_SECRET: 'crash-test-session-secret-0123456789abcdef',
          WEBCHAT_RATE_LIMIT: '100000',
          LOG_LEVEL: 'warn',
          ...(process.env.TURNS_CRASH_TRACE
            ? { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${SERVER_TRACE}`.trim() }
            : {}),
        };
        const clientTrace = process.env.TURNS_CRASH_TRACE ? startClientTrace(env.MONGODB_URL) : undefined;
        let server: ServerChild = await startServerChild(env);
        const port = new URL(server.url).port;
        const widgets = Array.from({ length: USERS }, () => new ScriptedWidget(server.url, clientTrace?.widget));
        const sent: Sent[] = [];
        const restarts: Array<{ killedAt: number; upAt: number }> = [];
        // Server CPU (ms, from /proc): each process's total until it was killed, and each restart's until it listened.
        const serverCpuMs: number[] = [];
        const restartCpuMs: number[] = [];
        // Each restart's re-admission of the widgets: the server's CPU and the wall time from listening until every
        // widget is connected again and everything sent before the restart is acked (readmitted below).
        const readmissions: Array<Promise<Readmission>> = [];
        // This process plays all the widgets: on a busy machine its own CPU can be what holds them back.
        const testCpu = process.cpuUsage();
        // The machine's 1-minute load average at each kill: the figures are read against it on a shared machine.
        const loads: number[] = [];
        let drops = 0;
        let reloads = 0;
        let down = false;
        // Set once the widgets are closed: a re-admission still waited for ends there.
        let finished = false;
        let logs = '';
        try {
          for (const widget of widgets) widget.open();
          const conversations = widgets.map(async (widget, u) => {
            // Each user writes one message after the other, as a person does: the next once the last was answered.
            await until(() => widget.botTexts().includes('Say something.'), ANSWER_WAIT_MS);
            for (let m = 1; m <= MESSAGES; m += 1) {
              const text = `user ${u} says ${m}`;
              const clientId = `u${u}-m${m}`;
              widget.say(clientId, text);
              sent.push({ widget, clientId, text, sentAt: Date.now() });
              if (!down && Math.random() < DROP_CHANCE) {
                await pause(Math.random() * 30);
                widget.drop();
                drops += 1;
              }
              if (!down && Math.random() < RELOAD_CHANCE) {
                widget.reload();
                reloads += 1;
              }
              await until(() => widget.botTexts().includes(`You said: ${text}`), ANSWER_WAIT_MS);
            }
          });
          const crashes = (async () => {
            for (let kill = 1; kill <= KILLS; kill += 1) {
              await until(() => sent.length >= (kill * USERS * MESSAGES) / (KILLS + 1), 120_000);
              down = true;
              const killedAt = Date.now();
              loads.push(loadavg()[0] ?? 0);
              clientTrace?.widget('kill', {});
              logs += server.output();
              serverCpuMs.push(server.cpuMs());
              await server.kill();
              server = await startServerChild({ ...env, PORT: port });
              restarts.push({ killedAt, upAt: Date.now() });
              clientTrace?.widget('up', {});
              restartCpuMs.push(server.startupCpuMs);
              readmissions.push(
                readmitted(server, () => (finished ? undefined : server), widgets, sent, {
                  killedAt,
                  upAt: Date.now(),
                }),
              );
              down = false;
            }
          })();
          await Promise.all([...conversations, crashes]);
          // Everything still owed arrives within FINAL_WAIT_MS, or is counted below.
          await until(
            () => sent.every((s) => s.widget.ackedAt.has(s.clientId) || s.widget.refused.includes(s.clientId)),
            FINAL_WAIT_MS,
          );
          // The next kill cuts the earlier re-admissions short; the last one is waited for (at most FINAL_WAIT_MS).
          await readmissions.at(-1);
          await pause(1000);
        } finally {
          finished = true;
          for (const widget of widgets) widget.close();
          serverCpuMs.push(server.cpuMs());
          await server.stop();
        }
        const logFile = process.env.TURNS_CRASH_LOG;
        if (logFile) await writeFile(logFile, logs + server.output());
        if (clientTrace && process.env.TURNS_CRASH_TRACE) {
          const trace =
            clientTrace.stop() +
            (logs + server.output())
              .split('\n')
              .filter((line) => line.startsWith('TRACE '))
              .join('\n');
          await writeFile(process.env.TURNS_CRASH_TRACE, trace);
          console.info(`[turns crash, ${leg.name}] where the time after each restart went:\n${restartTimeline(trace)}`);
        }
        const readmits = await Promise.all(readmissions);
        const failedTurns = (logs + server.output())
          .split('\n')
          .filter((line) => /could not handle a client event/.test(line));

        const reader = await openReader(leg.name, dir, env.MONGODB_URL ?? '');
        try {
          const figures = await tally(reader, widgets, sent, restarts);
          console.info(
            `[turns crash, ${leg.name}] ${USERS} users, ${sent.length} messages, ${KILLS} kills, ${drops} drops, ${reloads} reloads: ` +
              `${figures.unanswered} unanswered, ${figures.answeredTwice} answered twice, ${figures.storedTwice} stored twice, ` +
              `${figures.undelivered} stored entries not shown, ${figures.conflicting} shown twice or changed, ` +
              `${figures.unacked} never acked, ${figures.refused} refused, ${failedTurns.length} failed turns logged; acks after restart: p50 ${figures.ackP50} ms, p99 ${figures.ackP99} ms, max ${figures.ackMax} ms (n=${figures.ackCount}); ` +
              `the same from the widget's reconnect: p50 ${figures.connectAckP50} ms, p99 ${figures.connectAckP99} ms; ` +
              `widgets reconnected p50 ${figures.reconnectP50} ms, p99 ${figures.reconnectP99} ms after the restart; ` +
              `a restart (kill to listening) took p50 ${quantiles(restarts.map((r) => r.upAt - r.killedAt))(0.5)} ms (max ${quantiles(restarts.map((r) => r.upAt - r.killedAt))(1)} ms) and p50 ${quantiles(restartCpuMs)(0.5)} ms of server CPU; ` +
              `server CPU ${(serverCpuMs.reduce((a, b) => a + b, 0) / 1000).toFixed(1)} s over ${serverCpuMs.length} processes on Node ${serverNodeVersion()}, ` +
              `the widgets' process ${cpuSeconds(process.cpuUsage(testCpu)).toFixed(1)} s; load average at the kills ${loads.map((l) => l.toFixed(1)).join(', ')}`,
          );
          const timedOut = widgets.filter((w) => w.connectTimeouts > 0).length;
          console.info(
            `[turns crash, ${leg.name}] after a restart, ${USERS} widgets (load average at the kills ${loads.map((l) => l.toFixed(1)).join(', ')}): ` +
              `acks from the widget's reconnect p50 ${figures.connectAckP50} ms (goal <= ${ACK_FROM_RECONNECT_GOAL.p50} ms: ${met(figures.connectAckP50 <= ACK_FROM_RECONNECT_GOAL.p50)}), ` +
              `p99 ${figures.connectAckP99} ms (goal <= ${ACK_FROM_RECONNECT_GOAL.p99} ms: ${met(figures.connectAckP99 <= ACK_FROM_RECONNECT_GOAL.p99)}); ` +
              `${timedOut} widgets waited past socket.io's connect timeout (${widgets.reduce((n, w) => n + w.connectTimeouts, 0)} timeouts; goal 0: ${met(timedOut === 0)}); ` +
              `re-admitting them: ${readmissionText(readmits, USERS)}`,
          );
          expect({
            unanswered: figures.unanswered,
            answeredTwice: figures.answeredTwice,
            storedTwice: figures.storedTwice,
            undelivered: figures.undelivered,
            conflicting: figures.conflicting,
            unacked: figures.unacked,
          }).toEqual({ unanswered: 0, answeredTwice: 0, storedTwice: 0, undelivered: 0, conflicting: 0, unacked: 0 });
        } finally {
          await reader.close();
          await rm(dir, { recursive: true, force: true });
        }
      },
      Math.max(420_000, USERS * 4_000),
    );
  });
}

/** Checks every user's stored transcript against what was sent and what the widget shows. */
async function tally(
  reader: Store,
  widgets: readonly ScriptedWidget[],
  sent: readonly Sent[],
  restarts: ReadonlyArray<{ killedAt: number; upAt: number }>,
) {
  let unanswered = 0;
  let answeredTwice = 0;
  let storedTwice = 0;
  let undelivered = 0;
  let conflicting = 0;
  const transcripts = new Map<ScriptedWidget, TranscriptEntry[]>();
  for (const widget of widgets) {
    const entries = widget.userId === undefined ? [] : await reader.readTranscript(widget.userId, 0, 10_000);
    transcripts.set(widget, entries);
    for (const entry of entries) if (!widget.items.has(entry.seq)) undelivered += 1;
    conflicting += widget.conflicting.length;
  }
  for (const message of sent) {
    const entries = transcripts.get(message.widget) ?? [];
    const stored = entries.filter((e) => e.clientId === message.clientId).length;
    if (stored > 1) storedTwice += 1;
    const answers = entries.filter((e) => e.from === 'bot' && textOf(e) === `You said: ${message.text}`).length;
    if (answers === 0) unanswered += 1;
    if (answers > 1) answeredTwice += 1;
  }
  const unacked = sent.filter(
    (s) => !s.widget.ackedAt.has(s.clientId) && !s.widget.refused.includes(s.clientId),
  ).length;
  const refused = sent.filter((s) => s.widget.refused.includes(s.clientId)).length;
  // Messages caught by a crash (sent before the restart, not acked before the kill): how long after the restart their ack came.
  // Each counted once, against the last restart it waited through.
  // The same acks counted from the widget's first connection to the restarted server: the wait until
  // then is the widget's reconnect policy (widget/transport/reconnect-policy.ts), the rest is the server's.
  const waits: number[] = [];
  const serverWaits: number[] = [];
  for (const s of sent) {
    const acked = s.widget.ackedAt.get(s.clientId) ?? Number.POSITIVE_INFINITY;
    const through = restarts.filter(({ killedAt, upAt }) => s.sentAt < upAt && acked > killedAt).at(-1);
    if (through === undefined) continue;
    waits.push(Math.max(0, acked - through.upAt));
    // Any connection after the kill is to the restarted server, even one made before the test read its "running" line.
    const back = s.widget.connectedAt.find((t) => t > through.killedAt);
    if (back !== undefined) serverWaits.push(Math.max(0, acked - back));
  }
  const at = quantiles(waits);
  const fromConnect = quantiles(serverWaits);
  // How long after each restart each widget was connected again (the reconnect policy and the server's accept).
  const reconnects = restarts.flatMap(({ killedAt, upAt }, i) => {
    const next = restarts[i + 1]?.killedAt ?? Number.POSITIVE_INFINITY;
    return widgets.flatMap((w) =>
      w.connectedAt
        .filter((t) => t > killedAt && t < next)
        .slice(0, 1)
        .map((t) => Math.max(0, t - upAt)),
    );
  });
  const back = quantiles(reconnects);
  return {
    unanswered,
    answeredTwice,
    storedTwice,
    undelivered,
    conflicting,
    unacked,
    refused,
    ackP50: at(0.5),
    ackP99: at(0.99),
    ackMax: at(1),
    ackCount: waits.length,
    connectAckP50: fromConnect(0.5),
    connectAckP99: fromConnect(0.99),
    reconnectP50: back(0.5),
    reconnectP99: back(0.99),
  };
}

interface Readmission {
  /** The server's CPU from listening until the widgets were back, or until its last reading before the next kill (ms). */
  readonly cpuMs: number;
  /** Wall time from listening to the same moment (ms). */
  readonly ms: number;
  /** How many widgets were connected to this server again by then. */
  readonly back: number;
  /** true: every widget back and everything sent before the restart acked; false: the next kill (or the test's end) came first. */
  readonly complete: boolean;
}

/**
 * Follows one restart's re-admission: every widget connected to the restarted server again, and
 * every message sent before the restart acked or refused. The server's CPU is read as it goes, so a
 * re-admission cut short by the next kill still says how far it got and what that cost.
 */
async function readmitted(
  restarted: ServerChild,
  current: () => ServerChild | undefined,
  widgets: readonly ScriptedWidget[],
  sent: readonly Sent[],
  { killedAt, upAt }: { killedAt: number; upAt: number },
): Promise<Readmission> {
  const before = sent.filter((s) => s.sentAt < upAt);
  // Any connection after the kill is to the restarted server; the quickest widgets get in before the
  // test has read the server's "running" line (upAt), so they are counted from the kill.
  const widgetsBack = () => widgets.filter((w) => w.connectedAt.some((t) => t > killedAt)).length;
  const caughtUp = () => before.every((s) => s.widget.ackedAt.has(s.clientId) || s.widget.refused.includes(s.clientId));
  let last: Readmission = { cpuMs: 0, ms: 0, back: 0, complete: false };
  while (current() === restarted && Date.now() - upAt < FINAL_WAIT_MS) {
    const cpuMs = restarted.cpuMs() - restarted.startupCpuMs;
    if (!Number.isFinite(cpuMs)) break; // killed: the last reading stands
    const back = widgetsBack();
    last = { cpuMs, ms: Date.now() - upAt, back, complete: back === widgets.length && caughtUp() };
    if (last.complete) break;
    await pause(25);
  }
  return last;
}

/** The last restart's re-admission (no kill cuts it short), then each earlier one as far as it got. */
function readmissionText(readmits: readonly Readmission[], widgets: number): string {
  const text = (r: Readmission) =>
    r.complete
      ? `${r.cpuMs} ms of server CPU, ${r.ms} ms`
      : `${r.back} of ${widgets} back after ${r.cpuMs} ms of server CPU, ${r.ms} ms`;
  const last = readmits.at(-1);
  if (last === undefined) return 'no restart';
  const earlier = readmits.slice(0, -1).map((r) => (r.complete ? text(r) : `cut short by the next kill: ${text(r)}`));
  return (
    `from listening until every widget was back and everything sent before the restart acked: ` +
    `after the last restart ${last.complete ? text(last) : `not all within ${FINAL_WAIT_MS} ms: ${text(last)}`}` +
    (earlier.length > 0 ? `; the earlier restarts: ${earlier.join('; ')}` : '')
  );
}

const met = (ok: boolean) => (ok ? 'met' : 'NOT met');

/** The server's Node (server/test/server-child.ts: SERVER_CHILD_NODE, else the test's own). */
function serverNodeVersion(): string {
  const node = process.env.SERVER_CHILD_NODE;
  return node ? execFileSync(node, ['--version'], { encoding: 'utf8' }).trim() : process.version;
}

function cpuSeconds(usage: NodeJS.CpuUsage): number {
  return (usage.user + usage.system) / 1e6;
}

function quantiles(values: number[]): (q: number) => number {
  const sorted = [...values].sort((a, b) => a - b);
  return (q) =>
    sorted.length === 0 ? 0 : Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!);
}

function textOf(entry: TranscriptEntry): string {
  return String((entry.message as { text?: unknown }).text);
}

async function until(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) return false;
    await pause(25);
  }
  return true;
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function openReader(leg: string, dir: string, mongoUrl: string): Promise<Store> {
  if (leg === 'mongo') return openMongoStore({ url: mongoUrl });
  return openSqliteStore({ file: path.join(dir, 'chatbot.sqlite') });
}
