// Engine turns per second, in process (pure engine, no I/O): the demo bot's greeting, the menu,
// a number input with a condition, set and goto, then a wait step and its timer firing.
import { DEMO_BOT_DEFINITION } from '../server/config.ts';
import { loadDefinition } from '../server/definition/load.ts';
import { runTurn } from '../server/engine/engine.ts';
import type { ConversationState, EngineInput } from '../server/engine/turn/types.ts';

const definition = await loadDefinition(DEMO_BOT_DEFINITION);
const fresh: ConversationState = { position: null, variables: {}, userData: {} };
const script: EngineInput[] = [
  { kind: 'start', dialogId: 'greeting' },
  { kind: 'text', text: 'Ada' },
  { kind: 'postback', payload: 'tour', label: 'Show me around' },
  { kind: 'postback', payload: 'numbers', label: 'Numbers & conditions' },
  { kind: 'text', text: '8' },
  { kind: 'postback', payload: 'timer', label: 'Timer' },
  { kind: 'timer', timerId: 'timer.wait' },
];
function round(): void {
  let state = fresh;
  for (const input of script) state = runTurn(definition, state, input).state;
}

for (let i = 0; i < 5_000; i++) round();
const ROUNDS = 50_000;
const started = process.hrtime.bigint();
for (let i = 0; i < ROUNDS; i++) round();
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
const turns = ROUNDS * script.length;
console.log(
  `engine: ${Math.round(turns / seconds).toLocaleString('en')} turns/s (${turns} turns of the demo bot in ${seconds.toFixed(2)} s, ${((seconds / turns) * 1e6).toFixed(1)} µs/turn)`,
);
