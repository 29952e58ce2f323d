// Preloaded into the server processes of a traced crash run (server/app/turns-crash.test.ts, TURNS_CRASH_TRACE) to
// time each restart from the server's side: TRACE lines on stderr (listening, each TCP accept, the socket.io
// handshake, replays, incoming events and acks, and every 100 ms the event loop's busy share, CPU and the
// MongoDB driver's pool and commands). It patches library internals (socket.io's Socket and Namespace): for
// measurement only, never loaded by the product. RESTART_TRACE_PROFILES=<dir>: a CPU profile of each of the first
// five seconds after listening (one a second, so a SIGKILL loses only the second under way).
import { createRequire } from 'node:module';
import dc from 'node:diagnostics_channel';
import { performance, monitorEventLoopDelay } from 'node:perf_hooks';
import { Session } from 'node:inspector';
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';

const require = createRequire(path.join(process.cwd(), 'package.json'));
const profileDir = process.env.RESTART_TRACE_PROFILES;
let buffer = [];
const trace = (kind, data = {}) =>
  buffer.push(`TRACE ${JSON.stringify({ t: Date.now(), pid: process.pid, kind, ...data })}\n`);
const flush = () => {
  if (buffer.length === 0) return;
  process.stderr.write(buffer.join(''));
  buffer = [];
};
setInterval(flush, 50).unref();
trace('process_start');

dc.subscribe('net.server.socket', ({ socket }) => trace('accept', { port: socket.remotePort }));

const originalListen = http.Server.prototype.listen;
http.Server.prototype.listen = function (...args) {
  this.prependListener('upgrade', (req) => trace('upgrade', { port: req.socket.remotePort }));
  this.once('listening', () => {
    trace('listening');
    sample();
    profile();
  });
  return originalListen.apply(this, args);
};

function sample() {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  let elu = performance.eventLoopUtilization();
  let cpu = process.cpuUsage();
  let n = 0;
  const timer = setInterval(() => {
    const nextElu = performance.eventLoopUtilization();
    const nextCpu = process.cpuUsage();
    trace('sample', {
      elu: Number(performance.eventLoopUtilization(nextElu, elu).utilization.toFixed(3)),
      cpuMs: Math.round((nextCpu.user - cpu.user + nextCpu.system - cpu.system) / 1000),
      maxDelayMs: Math.round(delay.max / 1e6),
      inflight: mongo.inflight,
      waiting: mongo.waiting,
      cmds: mongo.commands,
      cmdMs: mongo.commands === 0 ? 0 : Math.round(mongo.totalMs / mongo.commands),
      cmdMaxMs: Math.round(mongo.maxMs),
      waitMaxMs: Math.round(mongo.waitMaxMs),
      conns: mongo.connections,
      byName: mongo.byName,
    });
    mongo.byName = {};
    mongo.commands = 0;
    mongo.totalMs = 0;
    mongo.maxMs = 0;
    mongo.waitMaxMs = 0;
    delay.reset();
    elu = nextElu;
    cpu = nextCpu;
    if (++n >= 100) clearInterval(timer);
  }, 100);
  timer.unref();
}

// The first seconds after listening, one profile a second (a SIGKILL loses only the second under way).
function profile() {
  if (!profileDir) return;
  const session = new Session();
  session.connect();
  let chunk = 0;
  const start = () =>
    session.post('Profiler.enable', () =>
      session.post('Profiler.setSamplingInterval', { interval: 500 }, () => session.post('Profiler.start')),
    );
  const stop = () =>
    session.post('Profiler.stop', (error, result) => {
      if (!error)
        writeFileSync(
          path.join(profileDir, `restart-${process.pid}-${chunk}.cpuprofile`),
          JSON.stringify(result.profile),
        );
      chunk += 1;
      if (chunk < 5) {
        session.post('Profiler.start');
        setTimeout(stop, 1000).unref();
      }
    });
  start();
  setTimeout(stop, 1000).unref();
}

// The driver's pool and commands.
const mongo = { byName: {}, inflight: 0, waiting: 0, commands: 0, totalMs: 0, maxMs: 0, waitMaxMs: 0, connections: 0 };
try {
  const { MongoClient } = require('mongodb');
  const connect = MongoClient.prototype.connect;
  MongoClient.prototype.connect = function (...args) {
    if (!this.__traced) {
      this.__traced = true;
      this.monitorCommands = true;
      const started = new Map();
      const checkouts = new Map();
      let seq = 0;
      this.on('commandStarted', (e) => {
        const target = e.command[e.commandName];
        const key = `${e.commandName}:${typeof target === 'string' ? target : ''}`;
        mongo.byName[key] = (mongo.byName[key] ?? 0) + 1;
        mongo.inflight += 1;
        started.set(e.requestId, performance.now());
      });
      const done = (e) => {
        mongo.inflight -= 1;
        const at = started.get(e.requestId);
        started.delete(e.requestId);
        if (at === undefined) return;
        const ms = performance.now() - at;
        mongo.commands += 1;
        mongo.totalMs += ms;
        mongo.maxMs = Math.max(mongo.maxMs, ms);
      };
      this.on('commandSucceeded', done);
      this.on('commandFailed', done);
      // Check-outs are not keyed; FIFO approximation of the wait.
      this.on('connectionCheckOutStarted', () => {
        mongo.waiting += 1;
        checkouts.set(seq++, performance.now());
      });
      const out = () => {
        mongo.waiting -= 1;
        const first = checkouts.keys().next().value;
        if (first === undefined) return;
        mongo.waitMaxMs = Math.max(mongo.waitMaxMs, performance.now() - checkouts.get(first));
        checkouts.delete(first);
      };
      this.on('connectionCheckedOut', out);
      this.on('connectionCheckOutFailed', out);
      this.on('connectionCreated', () => (mongo.connections += 1));
      this.on('connectionClosed', () => (mongo.connections -= 1));
    }
    return connect.apply(this, args);
  };
} catch (error) {
  trace('mongo_trace_failed', { message: String(error) });
}

// socket.io: the CONNECT packet's arrival (before the middleware), the connection, replays, incoming events and acks.
try {
  const { Namespace, Socket } = require('socket.io');
  const add = Namespace.prototype._add;
  Namespace.prototype._add = function (client, auth, fn) {
    trace('sio_connect_packet', { user: auth?.userId, port: client.conn?.request?.socket?.remotePort });
    return add.call(this, client, auth, fn);
  };
  const onconnect = Socket.prototype._onconnect;
  Socket.prototype._onconnect = function () {
    trace('sio_connected', { user: this.data?.userId, port: this.request?.socket?.remotePort });
    return onconnect.call(this);
  };
  const emit = Socket.prototype.emit;
  Socket.prototype.emit = function (event, ...args) {
    if (event === 'entries' || event === 'session')
      trace(`emit_${event}`, { user: this.data?.userId, n: Array.isArray(args[0]) ? args[0].length : undefined });
    return emit.call(this, event, ...args);
  };
  const onevent = Socket.prototype.onevent;
  Socket.prototype.onevent = function (packet) {
    const [event, payload] = packet.data ?? [];
    trace('event_in', { user: this.data?.userId, event, clientId: payload?.clientId });
    if (packet.id != null) (this.__clientIds ??= new Map()).set(packet.id, payload?.clientId);
    return onevent.call(this, packet);
  };
  const ack = Socket.prototype.ack;
  Socket.prototype.ack = function (id) {
    const reply = ack.call(this, id);
    const user = this.data?.userId;
    const clientId = this.__clientIds?.get(id);
    this.__clientIds?.delete(id);
    return function (...args) {
      trace('ack_out', { user, clientId, ok: args[0]?.ok });
      return reply.apply(this, args);
    };
  };
} catch (error) {
  trace('sio_trace_failed', { message: String(error) });
}
