// The studio's versions: what a publish plan's count of resting users and a save of a large definition cost.
// SQLite, in a temporary folder; CPU time of this process (the machine may be shared, so wall time would mislead).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { canonicalText, exportDefinition, hashOfCanonicalText } from '../server/definition/canonical.ts';
import { parseDefinitionText } from '../server/definition/read-source.ts';
import { sqliteRestingUsers } from '../server/stores/sqlite/sqlite-resting-users.ts';
import { openSqliteStore } from '../server/stores/sqlite/sqlite-store.ts';
import { sqliteVersions } from '../server/stores/sqlite/sqlite-versions.ts';

const cpu = (run: () => void | Promise<void>) => async () => {
  const before = process.cpuUsage();
  await run();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
};

const dir = await mkdtemp(path.join(tmpdir(), 'bench-versions-'));
const store = openSqliteStore({ file: path.join(dir, 'store.db') });
try {
  const USERS = 100_000;
  const insert = store.db.prepare(
    `INSERT INTO users (user_id, channel_id, position, variables, user_data, created_at, updated_at, version, last_seq) VALUES (?, 'webchat', ?, '{}', '{}', 0, 0, 1, 0)`,
  );
  store.db.transaction(() => {
    for (let i = 0; i < USERS; i++)
      insert.run(`u${i}`, JSON.stringify({ dialogId: `d${i % 40}`, stepId: `s${i % 7}`, awaiting: true, retries: 0 }));
  })();
  const resting = sqliteRestingUsers(store.db);
  const positions = Array.from({ length: 10 }, (_, i) => ({ dialogId: `d${i}`, stepId: `s${i % 7}` }));
  let counts: number[] = [];
  const ms = await cpu(async () => {
    counts = await resting.countResting(positions);
  })();
  console.log(
    `resting users, ${USERS} users, 10 positions: ${ms.toFixed(0)} ms CPU (${counts.reduce((a, b) => a + b, 0)} users found)`,
  );

  // A generated bot of about 4 MB: 400 dialogs of 25 steps with long texts.
  const definition = {
    settings: { id: 'big', name: 'Big bot', startDialog: 'd0' },
    dialogs: Array.from({ length: 400 }, (_, d) => ({
      id: `d${d}`,
      steps: Array.from({ length: 25 }, (_, s) => ({
        type: 'message',
        text: `Dialog ${d}, step ${s}: ${'lorem ipsum '.repeat(30)}`,
        id: `s${s}`,
      })),
    })),
  };
  let text = '';
  const canonicalMs = await cpu(() => {
    text = canonicalText(definition);
  })();
  const hashMs = await cpu(() => void hashOfCanonicalText(text))();
  const room = sqliteVersions(store.db);
  const saveMs = await cpu(async () => {
    await room.createVersion(
      { author: { kind: 'system' }, createdAt: 0, message: '', hash: 'x', source: 'studio', definitionText: text },
      'any',
    );
  })();
  let yaml = '';
  const yamlMs = await cpu(() => {
    yaml = exportDefinition(definition, 'yaml');
  })();
  const readMs = await cpu(() => void parseDefinitionText(yaml, 'yaml'))();
  console.log(
    `save of a ${(text.length / 1024 / 1024).toFixed(1)} MB definition: canonical text ${canonicalMs.toFixed(0)} ms, hash ${hashMs.toFixed(0)} ms, store ${saveMs.toFixed(0)} ms CPU; YAML export ${yamlMs.toFixed(0)} ms, YAML read back ${readMs.toFixed(0)} ms CPU`,
  );
} finally {
  await store.close();
  await rm(dir, { recursive: true, force: true });
}
