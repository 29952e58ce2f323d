import { Worker } from 'node:worker_threads';

/**
 * The worker's code, plain CommonJS so it runs the same under tsx, vitest and
 * the built server: its own connection to the file, and a PASSIVE checkpoint
 * every `intervalMs`. PASSIVE never waits for, nor blocks, the server's reads
 * and writes; with nothing new in the WAL it only reads the WAL index.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
// Node 22 warns once that node:sqlite is experimental: nothing an operator can act on (database.ts).
const emitWarning = process.emitWarning;
process.emitWarning = (warning, ...rest) => (/SQLite is an experimental feature/.test(String(warning)) ? undefined : emitWarning.call(process, warning, ...rest));
const { DatabaseSync } = process.getBuiltinModule('node:sqlite');
process.emitWarning = emitWarning;
const db = new DatabaseSync(workerData.file);
db.exec('PRAGMA busy_timeout = 1000');
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
const timer = setInterval(() => {
  try { checkpoint.all(); } catch { /* busy or closing: the next tick tries again */ }
}, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

export interface Checkpointer {
  /** Stops the worker and closes its connection; the store closes its own after this. */
  stop(): Promise<void>;
}

/**
 * Moves WAL checkpoints off the event loop. SQLite's automatic checkpoint runs
 * inside whichever commit crosses its threshold: that commit copies pages into
 * the database file and syncs it, on the thread that serves requests, and those
 * commits were the slowest (3 to 30 ms) under load. Here a worker thread
 * checkpoints a little and often instead, and the server's connection keeps a
 * far larger automatic threshold only as a backstop, so the WAL stays bounded
 * even if the worker is gone.
 */
export function startCheckpointer(file: string, intervalMs = 100): Checkpointer {
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file, intervalMs } });
  // A checkpointer that fails leaves the backstop in charge; it must never take the server down.
  worker.on('error', () => undefined);
  worker.unref();
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return {
    async stop() {
      // Unref'd, the worker would not hold the process while we wait: a start-up that fails right
      // after opening the store would then end silently with code 0 instead of printing its error.
      worker.ref();
      worker.postMessage('stop');
      await exited;
    },
  };
}
