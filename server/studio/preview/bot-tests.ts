import { z } from 'zod';
import { runTests, type TestResult } from '../../cli/bot-tests/run-tests.ts';
import { testFileSchema, type BotTest } from '../../cli/bot-tests/test-file.ts';
import { report } from '../../cli/test-command.ts';
import type { CheckResult } from '../../cli/check-definition.ts';
import type { BotTestOutcome } from '../../../shared/bot-test-outcome.ts';
import type { BotDefinition } from '../../definition/schema.ts';
import type { BotTestsRoom } from '../../ports/studio/bot-tests.ts';

/** Most tests the studio keeps: the test file's own bound. */
export const MAX_BOT_TESTS = 1000;

const testsSchema = z.array(testFileSchema.shape.tests.element).max(MAX_BOT_TESTS);

/** The bot's tests as stored; none when never saved. */
export async function readBotTests(room: BotTestsRoom): Promise<{ tests: BotTest[]; revision: number | null }> {
  const stored = await room.read();
  if (!stored) return { tests: [], revision: null };
  return { tests: testsSchema.parse(JSON.parse(stored.body)), revision: stored.revision };
}

/** Adds a test (one of the same name is replaced); answers how many there are now. Retries when another save came first. */
export async function addBotTest(room: BotTestsRoom, test: BotTest, by: string, now: () => number): Promise<number> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const { tests, revision } = await readBotTests(room);
    const next = [...tests.filter((t) => t.name !== test.name), test];
    if (next.length > MAX_BOT_TESTS)
      throw new RangeError(`The bot already has ${MAX_BOT_TESTS} tests, as many as it keeps; remove some first.`);
    const written = await room.write(JSON.stringify(next), revision, by, now());
    if (written !== 'conflict') return next.length;
  }
  throw new Error("The bot's tests kept changing while this one was saved; try again.");
}

/** Runs the bot's tests on a definition (a version about to be published), as `chatbot test` does. */
export async function runBotTests(
  room: BotTestsRoom,
  checked: { readonly definition: BotDefinition; readonly stepTypes: NonNullable<CheckResult['stepTypes']> },
): Promise<BotTestOutcome[]> {
  const { tests } = await readBotTests(room);
  if (tests.length === 0) return [];
  // runTests changes the definition in place: it gets a copy.
  const definition = structuredClone(checked.definition);
  const results: TestResult[] = await runTests(testFileSchema.parse({ definition: 'bot.json', tests }), {
    definition,
    ownTypes: checked.stepTypes,
  });
  return results.map((result) => ({ name: result.name, passed: !result.failure, report: report(result) }));
}
