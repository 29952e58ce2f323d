import { describe, expect, it } from 'vitest';
import { validateDefinition } from '../../definition/load.ts';
import type { BotDefinition } from '../../definition/schema.ts';
import { runTests } from './run-tests.ts';
import { testFileSchema } from './test-file.ts';
import { openSqliteStore } from '../../stores/sqlite/sqlite-store.ts';

const BOT = {
  settings: { id: 'shop', name: 'Shop', startDialog: 'main' },
  userDataFields: ['city'],
  dialogs: [
    {
      id: 'main',
      steps: [
        { id: 'hello', type: 'message', text: 'Hello!' },
        { id: 'bye', type: 'end' },
      ],
    },
    {
      id: 'order',
      steps: [
        { id: 'intro', type: 'message', text: 'Ordering.' },
        { id: 'where', type: 'message', text: 'Shipping to {{city}}.' },
        { id: 'done', type: 'end' },
      ],
    },
  ],
};

function bot(): BotDefinition {
  const checked = validateDefinition(structuredClone(BOT));
  if (!checked.ok) throw new Error(checked.problems.join('\n'));
  return checked.definition;
}

const run = (tests: unknown[]) =>
  runTests(testFileSchema.parse({ definition: 'bot.json', tests }), {
    definition: bot(),
    ownTypes: [],
    scratchStore: () => openSqliteStore({ file: ':memory:' }),
  });

describe('tests that start at a chosen point', () => {
  it('when a test starts at a step with page data, then the conversation begins there with that data and skips the start dialog', async () => {
    const [result] = await run([
      {
        name: 'from the middle',
        startAt: 'order.where',
        pageData: { city: 'Oslo' },
        steps: [{ bot: ['Shipping to Oslo.'], at: null }],
      },
    ]);
    expect(result).toEqual({ name: 'from the middle' });
  });

  it("when a test starts at a dialog, then it begins at that dialog's first step", async () => {
    const [result] = await run([
      {
        name: 'from order',
        startAt: 'order',
        pageData: { city: 'Rome' },
        steps: [{ bot: ['Ordering.', 'Shipping to Rome.'] }],
      },
    ]);
    expect(result).toEqual({ name: 'from order' });
  });

  it('when a test expects the start dialog but starts elsewhere, then it fails with a diff', async () => {
    const [result] = await run([
      { name: 'wrong', startAt: 'order.where', pageData: { city: 'Oslo' }, steps: [{ bot: ['Hello!'] }] },
    ]);
    expect(result?.failure?.mismatches[0]?.what).toBe('bot said');
  });

  it('when startAt names a dialog or step the bot does not have, then the test fails naming it', async () => {
    const results = await run([
      { name: 'no dialog', startAt: 'checkout', steps: [{ bot: [] }] },
      { name: 'no step', startAt: 'order.pay', steps: [{ bot: [] }] },
    ]);
    expect(results[0]?.failure?.mismatches[0]?.lines).toEqual([
      'startAt names the dialog "checkout", which the bot does not have',
    ]);
    expect(results[1]?.failure?.mismatches[0]?.lines).toEqual([
      'startAt names the step "pay", which dialog "order" does not have',
    ]);
  });

  it('when startAt is not a dialog or "dialog.step", then the tests file is refused', () => {
    const parsed = testFileSchema.safeParse({
      definition: 'bot.json',
      tests: [{ name: 'x', startAt: 'a.b.c', steps: [{ bot: [] }] }],
    });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe('name a dialog, or a step as "dialogId.stepId"');
  });
});
