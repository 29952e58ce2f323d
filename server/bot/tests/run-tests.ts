import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseDocument } from 'yaml';
import type { BotMessage, Button, UserMessage } from '../../../shared/protocol.ts';
import { handlePageEvent } from '../../app/handle-page-event.ts';
import { handleUserMessage } from '../../app/handle-user-message.ts';
import { openConversation } from '../../app/open-conversation.ts';
import { assertDialog, startDialog } from '../../app/start-dialog.ts';
import { runTrigger } from '../../app/trigger-dialog.ts';
import { parseDuration } from '../../definition/duration.ts';
import { DefinitionError, formatPath, loadDefinition } from '../../definition/load.ts';
import { loadStepTypeModules, StepTypeModuleError } from '../../integrations/step-types/load-modules.ts';
import type { BotDefinition } from '../../definition/schema.ts';
import type { StepType } from '../../integrations/step-contract/step-type.ts';
import { trainIntentClassifier } from '../../nlp/intent-classifier.ts';
import type { Store } from '../../ports/store.ts';
import { compare, labelsOf, type Mismatch, type Observed } from './expectations.ts';
import { jsonErrorAt } from './json-error-at.ts';
import { createTestBot, type TestBot } from './harness.ts';
import { testFileSchema, type BotTest, type TestFile, type TestStep } from './test-file.ts';

/** A tests file that cannot be run; one line per problem, `path: problem`. */
export class TestFileError extends Error {
  override readonly name = 'TestFileError';
  constructor(
    readonly file: string,
    readonly problems: readonly string[],
  ) {
    super(`Tests file ${file} is invalid:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

export interface TestFailure {
  /** 1-based, as a person counts the steps of the file. */
  readonly step: number;
  /** The step's action as written, e.g. `user: "Ada"`. */
  readonly action: string;
  readonly mismatches: readonly Mismatch[];
  /** What the bot logged for the user meanwhile: often the reason (a missing variable). */
  readonly warnings: readonly string[];
}

export interface TestResult {
  readonly name: string;
  readonly failure?: TestFailure;
}

/** Largest tests file read, so a wrong path (a log file) fails fast instead of filling memory. */
const MAX_FILE_BYTES = 5 * 1024 * 1024;

/** Reads and checks a tests file; throws a TestFileError naming every problem. */
export async function readTestFile(file: string): Promise<TestFile> {
  let text: string;
  try {
    const buffer = await readFile(file);
    if (buffer.length > MAX_FILE_BYTES)
      throw new TestFileError(file, [`is larger than ${MAX_FILE_BYTES / 1024 / 1024} MiB`]);
    text = buffer.toString('utf8');
  } catch (error) {
    if (error instanceof TestFileError) throw error;
    throw new TestFileError(file, [`cannot be read: ${(error as NodeJS.ErrnoException).code ?? String(error)}`]);
  }
  const json = /\.ya?ml$/i.test(file) ? parseYaml(file, text) : parseJson(file, text);
  const parsed = testFileSchema.safeParse(json);
  if (!parsed.success)
    throw new TestFileError(
      file,
      parsed.error.issues.map((i) => `${formatPath(i.path)}: ${i.message}`),
    );
  return parsed.data;
}

function parseJson(file: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new TestFileError(file, [`is not valid JSON: ${withLineAndColumn(text, (error as Error).message)}`]);
  }
}

/** YAML, for authors who want comments beside their conversations; the same schema as JSON. */
function parseYaml(file: string, text: string): unknown {
  const doc = parseDocument(text, { prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) {
    throw new TestFileError(
      file,
      doc.errors.slice(0, 20).map((error) => {
        const before = text.slice(0, error.pos[0]);
        const where = `line ${before.split('\n').length}, column ${error.pos[0] - before.lastIndexOf('\n')}`;
        return `is not valid YAML: ${error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')} (${where})`;
      }),
    );
  }
  return doc.toJS({ maxAliasCount: 100 });
}

/** JSON.parse's message, with the line and column a person looks for. */
function withLineAndColumn(text: string, message: string): string {
  const { line, column } = jsonErrorAt(text);
  // Node quotes the text around the error, which may span lines: keep only the reason.
  const reason =
    /^Unexpected token '.+?'/.exec(message)?.[0] ??
    message.replace(/\s*in JSON at position[\s\S]*$/, '').split('\n')[0]!;
  return `${reason} (line ${line}, column ${column})`;
}

/** A tests file that could not run: its own mistake, its definition's, or a step type module's (said, not thrown on). */
export function couldNotRun(error: unknown): error is Error {
  return error instanceof TestFileError || error instanceof DefinitionError || error instanceof StepTypeModuleError;
}

/** Runs every test of the file on a fresh bot; resolves with one result per test, in order. */
export async function runTestFile(
  file: string,
  scratchStore: () => Store,
  onResult: (result: TestResult) => void = () => undefined,
): Promise<TestResult[]> {
  const tests = await readTestFile(file);
  const definitionFile = path.resolve(path.dirname(file), tests.definition);
  const definition = await loadDefinition(definitionFile, { env: tests.env });
  const stale = stubProblems(tests, definition);
  if (stale.length > 0) throw new TestFileError(file, stale);
  const ownTypes = await loadStepTypeModules(definition.stepTypes, definitionFile);
  return runTests(tests, { definition, ownTypes, scratchStore }, onResult);
}

/**
 * Runs tests already read (a file's, or the studio's) on a bot already loaded and checked, in
 * order, each as a user of its own on one fresh bot. The definition is changed in place (integration
 * steps get their resolved timing), so pass one of its own. `scratchStore` opens the throw-away store
 * the bot keeps its users in (an in-memory SQLite database where the server wires it).
 */
export async function runTests(
  tests: TestFile,
  loaded: {
    readonly definition: BotDefinition;
    readonly ownTypes: readonly StepType[];
    readonly scratchStore: () => Store;
  },
  onResult: (result: TestResult) => void = () => undefined,
): Promise<TestResult[]> {
  const { definition, ownTypes } = loaded;
  const classifier =
    definition.intents.length > 0
      ? await trainIntentClassifier(definition.intents, definition.settings.locale)
      : undefined;
  const bot = createTestBot(definition, classifier, ownTypes, loaded.scratchStore());
  try {
    const results: TestResult[] = [];
    for (const [index, test] of tests.tests.entries()) {
      const result = await runTest(bot, `test-${index + 1}`, test, tests);
      results.push(result);
      onResult(result);
    }
    return results;
  } finally {
    await bot.close();
  }
}

/** A stub for a step the definition does not have would never answer: a renamed step, most likely. */
export function stubProblems(tests: Pick<TestFile, 'stubs' | 'tests'>, definition: BotDefinition): string[] {
  const steps = new Set(
    definition.dialogs.flatMap((d) => d.steps.filter((s) => s.type === 'integration').map((s) => `${d.id}.${s.id}`)),
  );
  const check = (at: string, stubs: Readonly<Record<string, unknown>>) =>
    Object.keys(stubs)
      .filter((key) => !steps.has(key))
      .map(
        (key) => `${at}["${key}"]: the definition has no integration step ${key}; stubs are keyed "dialogId.stepId"`,
      );
  return [
    ...check('stubs', tests.stubs),
    ...tests.tests.flatMap((test, i) => check(`tests[${i}].stubs`, test.stubs ?? {})),
  ];
}

async function runTest(bot: TestBot, userId: string, test: BotTest, file: TestFile): Promise<TestResult> {
  const { deps } = bot;
  bot.stub(userId, { ...file.stubs, ...test.stubs });
  const seen = bot.seen(userId);
  try {
    await openConversation(deps, {
      userId,
      channelId: 'webchat',
      init: test.pageData,
      ...(test.startAt ? { startAt: startPoint(deps.definition, test.startAt) } : {}),
    });
  } catch (error) {
    return {
      name: test.name,
      failure: {
        step: 1,
        action: `startAt: ${JSON.stringify(test.startAt)}`,
        mismatches: [{ what: 'action', lines: [(error as Error).message] }],
        warnings: [],
      },
    };
  }
  await deps.turns.idle(userId);
  let sent = 0;
  let messagesFrom = 0;
  let eventsFrom = 0;
  let warningsFrom = 0;
  for (const [index, step] of test.steps.entries()) {
    const fail = (mismatches: Mismatch[]): TestResult => ({
      name: test.name,
      failure: { step: index + 1, action: actionOf(step), mismatches, warnings: seen.warnings.slice(warningsFrom) },
    });
    if (actionOf(step) !== NO_ACTION) {
      // A step checks what its action brought; a step without one checks what came before (the opening).
      messagesFrom = seen.messages.length;
      eventsFrom = seen.events.length;
      warningsFrom = seen.warnings.length;
    }
    try {
      await act(bot, userId, step, seen.messages, () => `c${++sent}`);
    } catch (error) {
      return fail([{ what: 'action', lines: [(error as Error).message] }]);
    }
    await deps.turns.idle(userId);
    if (seen.unstubbed.length > 0) {
      const key = seen.unstubbed[0];
      return fail([
        {
          what: 'stubs',
          lines: [
            `integration step ${key} was reached and no stub answers it: add "stubs": { "${key}": { "output": … } }`,
          ],
        },
      ]);
    }
    const user = await deps.store.getUser(userId);
    const observed: Observed = {
      messages: seen.messages.slice(messagesFrom),
      latest: seen.messages.at(-1),
      events: seen.events.slice(eventsFrom),
      variables: withoutInternals(user?.variables ?? {}),
      userData: user?.userData ?? {},
      at: user?.position ? `${user.position.dialogId}.${user.position.stepId}` : null,
    };
    const mismatches = compare(step, observed);
    if (mismatches.length > 0) return fail(mismatches);
  }
  return { name: test.name };
}

async function act(
  bot: TestBot,
  userId: string,
  step: TestStep,
  said: readonly BotMessage[],
  clientId: () => string,
): Promise<void> {
  const { deps } = bot;
  if (step.user !== undefined)
    await handleUserMessage(deps, { userId, clientId: clientId(), message: { type: 'text', text: step.user } });
  else if (step.press !== undefined)
    await handleUserMessage(deps, { userId, clientId: clientId(), message: pressed(said, step.press) });
  else if (step.event !== undefined)
    await handlePageEvent(deps, { userId, name: step.event, payload: step.payload ?? {} });
  else if (step.startDialog !== undefined)
    await startDialog(deps, { userId, dialogId: step.startDialog, data: step.data });
  else if (step.trigger !== undefined) {
    // As the trigger job runs it once accepted; ids sort in the order the test sends them.
    assertDialog(deps, step.trigger);
    const trigger = {
      userId,
      channelId: 'webchat',
      dialogId: step.trigger,
      mode: step.mode ?? null,
      data: step.data ?? {},
    };
    await runTrigger(deps, trigger, { jobId: `test-trigger-${String(++triggers).padStart(9, '0')}`, attempt: 1 });
  } else if (step.wait !== undefined) await bot.advance(parseDuration(step.wait) ?? 0);
}

let triggers = 0;

/** A test's startAt ("dialog" or "dialog.step") as the bot has it; throws naming what it lacks. */
function startPoint(definition: BotDefinition, startAt: string): { dialogId: string; stepId?: string } {
  const [dialogId = '', stepId] = startAt.split('.');
  const dialog = definition.dialogs.find((d) => d.id === dialogId);
  if (!dialog) throw new Error(`startAt names the dialog "${dialogId}", which the bot does not have`);
  if (stepId !== undefined && !dialog.steps.some((s) => s.id === stepId))
    throw new Error(`startAt names the step "${stepId}", which dialog "${dialogId}" does not have`);
  return stepId === undefined ? { dialogId } : { dialogId, stepId };
}

/** The message a press sends: the latest button or quick reply with that label. */
function pressed(said: readonly BotMessage[], label: string): UserMessage {
  for (let i = said.length - 1; i >= 0; i--) {
    const message = said[i]!;
    if (message.type === 'text') {
      const reply = message.quickReplies?.find((q) => q.label === label);
      if (reply) return { type: 'postback', label, payload: reply.payload };
    }
    const buttons: readonly Button[] =
      message.type === 'text'
        ? (message.buttons ?? [])
        : message.type === 'carousel'
          ? message.cards.flatMap((c) => c.buttons ?? [])
          : [];
    const button = buttons.find((b) => b.label === label);
    if (!button) continue;
    if (button.kind === 'url')
      throw new Error(
        `"${label}" is a link button: it opens a page and sends the bot nothing, so a test cannot press it`,
      );
    return button.kind === 'dialog'
      ? { type: 'dialog', label, dialogId: button.dialogId }
      : { type: 'postback', label, payload: button.payload };
  }
  const offered = [...new Set(said.flatMap((m) => labelsOf(m)))];
  throw new Error(
    `no button or quick reply "${label}" was shown${offered.length > 0 ? `; shown: ${offered.map((l) => `"${l}"`).join(', ')}` : ''}`,
  );
}

/** The engine's own bookkeeping ($timers, $budget) is not the bot author's to test. */
function withoutInternals(variables: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(variables).filter(([key]) => !key.startsWith('$')));
}

function actionOf(step: TestStep): string {
  if (step.user !== undefined) return `user: ${JSON.stringify(step.user)}`;
  if (step.press !== undefined) return `press: ${JSON.stringify(step.press)}`;
  if (step.event !== undefined) return `event: ${JSON.stringify(step.event)}`;
  if (step.startDialog !== undefined) return `startDialog: ${JSON.stringify(step.startDialog)}`;
  if (step.trigger !== undefined) return `trigger: ${JSON.stringify(step.trigger)}`;
  if (step.wait !== undefined) return `wait: ${JSON.stringify(step.wait)}`;
  return NO_ACTION;
}

const NO_ACTION = '(no action: what the bot said before)';
