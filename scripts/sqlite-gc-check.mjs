// Does the installed better-sqlite3 survive the running Node's garbage collector?
// `node scripts/sqlite-gc-check.mjs` exits 0 when it does, and the process aborts (exit 134,
// "Assertion failed: (env) != nullptr" in node::RemoveEnvironmentCleanupHook) when it does not.
//
// Why: Node 24.19 added cleanup hooks to node::ObjectWrap (nodejs/node#63642); its destructor now
// asks for the current Environment, which is null when V8 collects an object from a platform task
// (the memory reducer, once the process goes idle) rather than from JavaScript. better-sqlite3 12
// derives its statements from node::ObjectWrap, so the first idle collection of a dropped statement
// aborts the process (nodejs/node#65446, open). better-sqlite3 13 uses Node-API instead and does
// not abort, but needs Node-API 10 (Node 22.14+; none in Node 20). README, "Node", says which
// versions the project therefore allows. Run this after changing either Node or better-sqlite3.
import Database from 'better-sqlite3';

const db = new Database(':memory:');
db.exec('create table t (a integer)');
// Statements prepared and dropped: garbage for the collector, as a busy store's one-off queries are.
for (let round = 0; round < 5; round += 1) {
  for (let i = 0; i < 50_000; i += 1) db.prepare('insert into t values (?)').run(i);
}
// Enough other garbage that the memory reducer has work when the process goes idle.
let junk = Array.from({ length: 2_000_000 }, (_, i) => ({ i }));
junk = [];
// Idle, with a timer keeping the process alive: the memory reducer runs its collection from a task.
const IDLE_SECONDS = 30;
let waited = 0;
const tick = setInterval(() => {
  waited += 1;
  if (waited < IDLE_SECONDS) return;
  clearInterval(tick);
  const { n } = db.prepare('select count(*) as n from t').get();
  db.close();
  console.log(`better-sqlite3 survived ${IDLE_SECONDS} s of idle collection on Node ${process.version} (${n} rows, ${junk.length} left)`);
}, 1000);
