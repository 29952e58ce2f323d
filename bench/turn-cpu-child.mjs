// Child process for bench/turn-cpu.ts: runs either the real chatbot server (SQLite; mode "rest" with a REST channel,
// "chatbot-bare" without the insights bookkeeping), a raw socket.io echo server ("echo"), or the same
// echo that first commits each message to SQLite as the product's store does ("durable-echo": in the store's
// group commit; "durable-echo-each": one transaction per message), and reports its own CPU use over IPC.
// Run alone it does nothing.
// Plain JavaScript so that it runs on bare `node` with the compiled server (dist/), as production does;
// with a second argument "source" (BENCH_SOURCE=1 in the parent) it imports server/*.ts, under tsx.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Server } from 'socket.io';

/** The bench channel's key in mode "rest" (bench/turn-cpu.ts sends it). */
const REST_BENCH_KEY = 'bench-channel-key-0123456789abcdef';

if (process.send) {
  const mode = process.argv[2];
  const source = process.argv[3] === 'source';
  /** @param {unknown} message */
  const send = (message) => process.send?.(message);
  /** @type {() => Promise<void>} */
  let stop;
  /** @type {string} */
  let url;

  if (mode === 'echo' || mode === 'durable-echo' || mode === 'durable-echo-each') {
    // The floor: a socket.io server that acks each message and sends one entry back, nothing else.
    // "durable-echo(-each)": the same, but each message is first committed to SQLite as the product's
    // store commits a turn, and the ack and the echo wait for that commit (durableCommit below).
    const commit = mode === 'echo' ? undefined : await durableCommit(source, mode === 'durable-echo-each');
    const http = createServer();
    const io = new Server(http, { maxHttpBufferSize: 64 * 1024 });
    let users = 0;
    io.on('connection', (socket) => {
      const userId = `u${++users}`;
      let seq = 0;
      socket.on(
        'message',
        async (
          /** @type {{ clientId: string; text: string }} */ payload,
          /** @type {((r: unknown) => void) | undefined} */ ack,
        ) => {
          const stored = ++seq;
          if (commit) await commit.message(userId, stored, payload);
          ack?.({ ok: true, value: { seq: stored, duplicate: false } });
          socket.emit('entries', [
            {
              seq: ++seq,
              from: 'bot',
              at: new Date().toISOString(),
              clientId: null,
              message: { type: 'text', text: `You said: ${payload.text}` },
            },
          ]);
        },
      );
    });
    await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (http.address()).port}`;
    stop = async () => {
      await io.close();
      await commit?.close();
    };
  } else {
    const { readConfig } = await import(source ? '../server/config.ts' : '../dist/server/config.js');
    const { startServer } = await import(source ? '../server/main.ts' : '../dist/server/main.js');
    const dir = await mkdtemp(path.join(tmpdir(), 'bench-cpu-'));
    const bot = path.join(dir, 'bot.json');
    await writeFile(
      bot,
      JSON.stringify({
        settings: { id: 'bench', name: 'Bench bot', startDialog: 'chat' },
        dialogs: [
          {
            id: 'chat',
            steps: [
              { id: 'init', type: 'set', actions: [{ op: 'set', variable: 'last', value: 'nothing yet' }] },
              { id: 'listen', type: 'input', prompt: 'You said: {{last}}', saveTo: { variable: 'last' } },
              { id: 'again', type: 'goto', dialog: 'chat', step: 'listen' },
            ],
          },
        ],
      }),
    );
    const server = await startServer(
      readConfig({
        PORT: '0',
        DATA_DIR: dir,
        LOG_LEVEL: 'silent',
        BOT_DEFINITION: bot,
        BOT_FUNCTION_KEY: 'bench-function-key-0123456789',
        WEBCHAT_RATE_LIMIT: '1000000',
        // mode "rest": the same bot, talked to over the generic bot REST channel (no callback URL).
        ...(mode === 'rest'
          ? {
              REST_CHANNELS: JSON.stringify([{ name: 'bench', key: REST_BENCH_KEY }]),
              REST_CHANNEL_RATE_LIMIT: '100000000',
            }
          : {}),
      }),
      // mode "chatbot-bare": the same bot without the insights bookkeeping (bench/insights.ts compares the two).
      { insights: mode !== 'chatbot-bare' },
    );
    url = server.url;
    stop = async () => {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    };
  }

  // BENCH_PROFILE_DIR: a CPU profile of the measured window only (between the two cpu readings).
  const profileDir = process.env.BENCH_PROFILE_DIR;
  /** @type {import('node:inspector').Session | undefined} */
  let profiling;
  const profile = async () => {
    if (!profileDir) return;
    const { Session } = await import('node:inspector');
    if (!profiling) {
      profiling = new Session();
      profiling.connect();
      profiling.post('Profiler.enable');
      profiling.post('Profiler.start');
      return;
    }
    const session = profiling;
    await new Promise((resolve) =>
      session.post('Profiler.stop', (error, result) => {
        if (!error)
          void writeFile(
            path.join(profileDir, `${mode}-${process.pid}.cpuprofile`),
            JSON.stringify(result.profile),
          ).then(resolve);
        else resolve(undefined);
      }),
    );
  };

  process.on('message', (/** @type {{ cmd: 'cpu' } | { cmd: 'stop' }} */ message) => {
    if (message.cmd === 'cpu') {
      const cpu = process.cpuUsage();
      void profile().then(() => send({ cpu }));
    } else void stop().then(() => process.exit(0));
  });
  send({ url });
}

/**
 * The durable echo's commit of one message row: the product's SQLite store itself (its file, its
 * pragmas — WAL, synchronous=NORMAL, busy_timeout, foreign_keys, cache_size — its migrations and its
 * checkpointer, through its binding, stores/sqlite/database.ts), and the message row inserted into its
 * transcript table. By default in the store's group commit (stores/sqlite/group-commit.ts), the
 * transaction a turn's writes are committed in: the messages that arrive in one turn of the event loop
 * share one commit, as concurrent turns do. `each`: one transaction per message (BEGIN IMMEDIATE, the
 * insert, COMMIT: what the group commit does for a write that comes alone). Nothing else a turn does:
 * no user row, no state, no reply row.
 * @param {boolean} source
 * @param {boolean} each
 */
async function durableCommit(source, each) {
  const { openSqliteStore } = await import(
    source ? '../server/stores/sqlite/sqlite-store.ts' : '../dist/server/stores/sqlite/sqlite-store.js'
  );
  const { groupCommit } = await import(
    source ? '../server/stores/sqlite/group-commit.ts' : '../dist/server/stores/sqlite/group-commit.js'
  );
  const dir = await mkdtemp(path.join(tmpdir(), 'bench-durable-echo-'));
  const store = openSqliteStore({ file: path.join(dir, 'chatbot.sqlite') });
  const insert = store.db.prepare(
    `INSERT INTO transcript (user_id, seq, sender, client_id, at, message) VALUES (?, ?, 'user', ?, ?, ?)`,
  );
  const write = (/** @type {unknown[]} */ row) => insert.run(...row);
  const alone = store.db.transaction(write).immediate;
  const commitRow = each
    ? async (/** @type {unknown[]} */ row) => alone(row)
    : groupCommit(store.db, write, { singleStatement: true });
  return {
    /** @param {string} userId @param {number} seq @param {{ clientId: string; text: string }} payload */
    message: (userId, seq, payload) =>
      commitRow([userId, seq, payload.clientId, Date.now(), JSON.stringify({ type: 'text', text: payload.text })]),
    close: async () => {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
