import { z } from 'zod';
import type { BotTestOutcome } from '../../../shared/bot-test-outcome.ts';
import type { BotDefinition } from '../../definition/schema.ts';
import type { Store } from '../../ports/store.ts';
import type { BotTestsStore } from '../../ports/bot-tests.ts';
import type { StepType } from '../../integrations/step-contract/step-type.ts';
import { report } from './report.ts';
import { runTests } from './run-tests.ts';
import { testFileSchema, type BotTest } from './test-file.ts';

/** Most tests the studio keeps: the test file's own bound. */
export const MAX_BOT_TESTS = 1000;

const testsSchema = z.array(testFileSchema.shape.tests.element).max(MAX_BOT_TESTS);

/** The bot's tests as stored; none when never saved. */
export async function readBotTests(kept: BotTestsStore): Promise<{ tests: BotTest[]; revision: number | null }> {
  const stored = await kept.read();
  if (!stored) return { tests: [], revision: null };
  return { tests: testsSchema.parse(JSON.parse(stored.body)), revision: stored.revision };
}

/** Runs the bot's kept tests on a definition (a version about to be published), as `chatbot test` does. */
export async function runKeptTests(
  kept: BotTestsStore,
  checked: { readonly definition: BotDefinition; readonly stepTypes: readonly StepType[] },
  scratchStore: () => Store,
): Promise<BotTestOutcome[]> {
  const { tests } = await readBotTests(kept);
  if (tests.length === 0) return [];
  // runTests changes the definition in place: it gets a copy.
  const definition = structuredClone(checked.definition);
  const results = await runTests(testFileSchema.parse({ definition: 'bot.json', tests }), {
    definition,
    ownTypes: checked.stepTypes,
    scratchStore,
  });
  return results.map((result) => ({ name: result.name, passed: !result.failure, report: report(result) }));
}
