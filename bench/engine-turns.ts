// Engine turns per second, in process: start the demo greeting, answer it, repeat.
import { DEMO_BOT_DEFINITION } from '../server/config.ts';
import { loadDefinition } from '../server/definition/load.ts';
import { runTurn } from '../server/engine/engine.ts';
import type { ConversationState } from '../server/engine/types.ts';

const definition = await loadDefinition(DEMO_BOT_DEFINITION);
const fresh: ConversationState = { position: null, variables: {}, userData: {} };
const ROUNDS = 100_000;

for (let i = 0; i < 5_000; i++) runTurn(definition, runTurn(definition, fresh, { kind: 'start', dialogId: 'greeting' }).state, { kind: 'text', text: 'Ada' });
const started = process.hrtime.bigint();
for (let i = 0; i < ROUNDS; i++) {
  const greeted = runTurn(definition, fresh, { kind: 'start', dialogId: 'greeting' });
  runTurn(definition, greeted.state, { kind: 'text', text: 'Ada' });
}
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
console.log(`engine: ${Math.round((ROUNDS * 2) / seconds).toLocaleString('en')} turns/s (${ROUNDS * 2} turns in ${seconds.toFixed(2)} s)`);
