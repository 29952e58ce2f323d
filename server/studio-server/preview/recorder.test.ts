import { describe, expect, it } from 'vitest';
import { handleUserMessage } from '../../app/handle-user-message.ts';
import { openConversation } from '../../app/open-conversation.ts';
import { createTestBot } from '../../bot/tests/harness.ts';
import { runTests } from '../../bot/tests/run-tests.ts';
import { testFileSchema } from '../../bot/tests/test-file.ts';
import { validateDefinition } from '../../definition/load.ts';
import type { BotDefinition } from '../../definition/schema.ts';
import { openSqliteStore } from '../../stores/sqlite/sqlite-store.ts';
import { previewStore } from './preview-store.ts';
import { ConversationRecorder, durationText } from './recorder.ts';

const BOT = {
  settings: { id: 'shop', name: 'Shop', startDialog: 'main' },
  userDataFields: ['name', 'city'],
  dialogs: [
    {
      id: 'main',
      steps: [
        { id: 'hello', type: 'message', text: 'Hello!' },
        { id: 'ask', type: 'input', prompt: 'Your name?', saveTo: { userData: 'name' } },
        { id: 'thanks', type: 'message', text: 'Thanks, {{name}} from {{city}}.' },
        { id: 'bye', type: 'end' },
      ],
    },
  ],
};

function bot(): BotDefinition {
  const checked = validateDefinition(structuredClone(BOT));
  if (!checked.ok) throw new Error(checked.problems.join('\n'));
  return checked.definition;
}

/** A conversation held on the real use cases through a preview's store, recorded as it happens. */
async function record(
  start: { dialogId: string; stepId: string | null },
  userData: Record<string, unknown>,
  said: string[],
): Promise<ConversationRecorder> {
  const testBot = createTestBot(bot(), undefined, [], openSqliteStore({ file: ':memory:' }));
  const recorder = new ConversationRecorder({ ...start, startDialog: 'main', variables: {}, userData }, () => []);
  const store = previewStore(testBot.deps.store, { accountId: 'acc-1' }, () => 'p1', {
    committed: (commit, result) => recorder.committed(commit, result.user),
    changed: (user) => recorder.changed(user),
    jobs: () => undefined,
    notLogged: () => undefined,
  });
  const deps = { ...testBot.deps, store };
  try {
    await openConversation(deps, {
      userId: 'p1',
      channelId: 'webchat',
      init: userData,
      ...(start.dialogId === 'main' && start.stepId === null
        ? {}
        : { startAt: { dialogId: start.dialogId, ...(start.stepId ? { stepId: start.stepId } : {}) } }),
    });
    await deps.turns.idle('p1');
    for (const [index, text] of said.entries()) {
      await handleUserMessage(deps, { userId: 'p1', clientId: `c${index}`, message: { type: 'text', text } });
      await deps.turns.idle('p1');
    }
  } finally {
    await testBot.close();
  }
  return recorder;
}

describe('a preview conversation saved as a test', () => {
  it('when the author chats through the bot, then the saved test says what the bot said, the fields it set and where it rested, and passes on the same bot', async () => {
    const recorder = await record({ dialogId: 'main', stepId: null }, { city: 'Oslo' }, ['Ada']);
    const test = recorder.toTest('greets Ada');
    expect(test).toMatchObject({
      name: 'greets Ada',
      pageData: { city: 'Oslo' },
      steps: [
        { bot: ['Hello!', 'Your name?'], at: 'main.ask' },
        { user: 'Ada', bot: ['Thanks, Ada from Oslo.'], userData: { name: 'Ada' }, at: null },
      ],
    });
    expect(test).not.toHaveProperty('startAt');
    const results = await runTests(testFileSchema.parse({ definition: 'bot.json', tests: [test] }), {
      definition: bot(),
      ownTypes: [],
      scratchStore: () => openSqliteStore({ file: ':memory:' }),
    });
    expect(results).toEqual([{ name: 'greets Ada' }]);
  });

  it('when the preview started at a chosen step, then the test starts there too and passes', async () => {
    const recorder = await record({ dialogId: 'main', stepId: 'ask' }, { city: 'Rome' }, ['Grace']);
    const test = recorder.toTest('from the question');
    expect(test.startAt).toBe('main.ask');
    const results = await runTests(testFileSchema.parse({ definition: 'bot.json', tests: [test] }), {
      definition: bot(),
      ownTypes: [],
      scratchStore: () => openSqliteStore({ file: ':memory:' }),
    });
    expect(results).toEqual([{ name: 'from the question' }]);
  });

  it('when time is written for a test, then it is in the largest unit that divides it', () => {
    expect([durationText(600_000), durationText(90_000), durationText(1500), durationText(86_400_000)]).toEqual([
      '10m',
      '90s',
      '1500ms',
      '1d',
    ]);
  });
});
