// Does the SQLite binding survive the running Node's garbage collector while the process is idle?
// `node scripts/sqlite-gc-check.mjs` exits 0 when it does; a binding that does not aborts the
// process (exit 134), as better-sqlite3 12 did on Node 24.19 and later ("Assertion failed: (env) !=
// nullptr" in node::RemoveEnvironmentCleanupHook, nodejs/node#65446: V8 collected a statement from
// a platform task once the process went idle). The store now uses Node's built-in node:sqlite
// (server/stores/sqlite/database.ts); CI runs this on every Node it tests (.ci/run), since a
// statement freed by an idle collection is exactly what a quiet bot does.
const emitWarning = process.emitWarning;
process.emitWarning = (warning, ...rest) =>
  /SQLite is an experimental feature/.test(String(warning)) ? undefined : emitWarning.call(process, warning, ...rest);
const { DatabaseSync } = process.getBuiltinModule('node:sqlite');
process.emitWarning = emitWarning;

const IDLE_SECONDS = Number(process.env.SQLITE_GC_IDLE_SECONDS ?? 30);
const db = new DatabaseSync(':memory:');
db.exec('create table t (a integer)');
// Statements prepared and dropped: garbage for the collector, as a busy store's one-off queries are.
for (let round = 0; round < 5; round += 1) {
  for (let i = 0; i < 50_000; i += 1) db.prepare('insert into t values (?)').run(i);
}
// Enough other garbage that the memory reducer has work when the process goes idle.
let junk = Array.from({ length: 2_000_000 }, (_, i) => ({ i }));
junk = [];
// Idle, with a timer keeping the process alive: the memory reducer runs its collection from a task.
let waited = 0;
const tick = setInterval(() => {
  waited += 1;
  if (waited < IDLE_SECONDS) return;
  clearInterval(tick);
  const { n } = db.prepare('select count(*) as n from t').get();
  db.close();
  console.log(
    `node:sqlite survived ${IDLE_SECONDS} s of idle collection on Node ${process.version} (${n} rows, ${junk.length} left)`,
  );
}, 1000);
