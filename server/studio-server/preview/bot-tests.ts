import { MAX_BOT_TESTS, readBotTests } from '../../bot/tests/kept-tests.ts';
import type { BotTest } from '../../bot/tests/test-file.ts';
import type { BotTestsRoom } from '../../ports/bot-tests.ts';

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
