import type { BotMessage, UserMessage } from '../../../shared/protocol.ts';
import { labelsOf, lineOf } from '../../bot/tests/expectations.ts';
import type { BotTest, Stub, TestStep } from '../../bot/tests/test-file.ts';
import type { IntegrationCallResult } from '../../ports/integrations.ts';
import type { TurnCommit, UserRecord } from '../../ports/store.ts';
import { maskFields, maskText, type NamedSecret } from './mask.ts';

type Values = Readonly<Record<string, unknown>>;

/** What the user (or time) did in one step of the conversation, as a test says it. */
type Action = Pick<TestStep, 'user' | 'press' | 'wait'>;

interface RecordedStep {
  readonly action: Action | null;
  readonly bot: BotMessage[];
  /** The user as the step left it: updated while it is the latest step. */
  after: UserState;
}

export interface UserState {
  readonly position: UserRecord['position'];
  readonly variables: Values;
  readonly userData: Values;
}

/** Most steps a recorded conversation keeps: a test's own bound. */
const MAX_STEPS = 500;

const visible = (variables: Values): Record<string, unknown> =>
  Object.fromEntries(Object.entries(variables).filter(([key]) => !key.startsWith('$')));

/** The fields whose value differs after the step, with the value after (null when it went away). */
function changes(before: Values, after: Values): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) out[key] = after[key] ?? null;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

function actionOf(message: Readonly<Record<string, unknown>>): Action | null {
  const sent = message as unknown as UserMessage;
  if (sent.type === 'text') return { user: sent.text };
  if (sent.type === 'postback' || sent.type === 'dialog') return { press: sent.label };
  return null;
}

/** A duration as a test writes it ("10m"), in the largest unit that divides it. */
export function durationText(ms: number): string {
  const units: ReadonlyArray<[string, number]> = [
    ['d', 86_400_000],
    ['h', 3_600_000],
    ['m', 60_000],
    ['s', 1000],
  ];
  for (const [unit, size] of units) if (ms > 0 && ms % size === 0 && ms / size < 1e9) return `${ms / size}${unit}`;
  return `${Math.max(0, Math.min(ms, 999_999_999))}ms`;
}

/**
 * The conversation of one preview as it happens, step by step, so that it can be saved as a
 * test in the format `chatbot test` runs: each user action with what the bot said after it,
 * the user-data fields and variables it changed, where the conversation rested, and what each
 * integration step gave the conversation (the test's stubs).
 */
export class ConversationRecorder {
  private readonly steps: RecordedStep[] = [];
  private readonly stubs = new Map<string, Stub>();
  private readonly opening: UserState;
  private tooLong = false;

  constructor(
    private readonly start: {
      readonly dialogId: string;
      readonly stepId: string | null;
      readonly startDialog: string;
      readonly variables: Values;
      readonly userData: Values;
    },
    private readonly secrets: () => readonly NamedSecret[],
  ) {
    this.opening = { position: null, variables: start.variables, userData: start.userData };
    this.steps.push({ action: null, bot: [], after: this.opening });
  }

  /** Where the conversation is now, and with which values. */
  get now(): UserState {
    return this.steps.at(-1)!.after;
  }

  /** A turn was stored: a user message starts a step of its own; the bot's messages go to the current step. */
  committed(commit: TurnCommit, user: UserRecord): void {
    const action = commit.userEntry ? actionOf(commit.userEntry.message) : null;
    if (action) this.begin(action);
    const current = this.steps.at(-1)!;
    for (const entry of commit.botEntries) current.bot.push(entry.message as unknown as BotMessage);
    this.changed(user);
  }

  changed(user: UserRecord): void {
    this.steps.at(-1)!.after = { position: user.position, variables: user.variables, userData: user.userData };
  }

  /** A wait step's timer ran: in a test, time passing. */
  waited(ms: number): void {
    this.begin({ wait: durationText(ms) });
  }

  /** What an integration step gave the conversation: the test answers it the same way. */
  answered(step: { readonly dialogId: string; readonly stepId: string }, result: IntegrationCallResult): void {
    const secrets = this.secrets();
    // What an API echoed back may hold a credential: a test file keeps none.
    const stub: Stub = result.ok
      ? { output: JSON.parse(maskText(JSON.stringify(maskFields(result.output) ?? null), secrets)) as unknown }
      : {
          error: {
            kind: result.error.kind,
            message: maskText(result.error.message, secrets).slice(0, 500),
            ...(result.error.status === undefined ? {} : { status: result.error.status }),
          },
        };
    this.stubs.set(`${step.dialogId}.${step.stepId}`, stub);
  }

  private begin(action: Action): void {
    if (this.steps.length >= MAX_STEPS) {
      this.tooLong = true;
      return;
    }
    this.steps.push({ action, bot: [], after: this.now });
  }

  /** The conversation so far as a test named `name`; throws when a test cannot say it. */
  toTest(name: string): BotTest {
    if (this.tooLong) throw new Error(`The conversation is longer than ${MAX_STEPS} steps, more than a test holds.`);
    const pageData = { ...visible(this.start.variables), ...this.start.userData };
    const fromElsewhere = this.start.stepId !== null || this.start.dialogId !== this.start.startDialog;
    let previous = this.opening;
    const steps: TestStep[] = this.steps.map((step) => {
      const { after } = step;
      const latest = step.bot.at(-1);
      const buttons = latest ? labelsOf(latest) : [];
      const userData = changes(previous.userData, after.userData);
      const variables = changes(visible(previous.variables), visible(after.variables));
      previous = after;
      return {
        ...(step.action ?? {}),
        bot: step.bot.map(lineOf),
        ...(buttons.length > 0 ? { buttons } : {}),
        ...(userData ? { userData } : {}),
        ...(variables ? { variables } : {}),
        at: after.position ? `${after.position.dialogId}.${after.position.stepId}` : null,
      };
    });
    const stubs = Object.fromEntries(this.stubs);
    return {
      name,
      ...(Object.keys(pageData).length > 0 ? { pageData } : {}),
      ...(fromElsewhere
        ? { startAt: this.start.stepId === null ? this.start.dialogId : `${this.start.dialogId}.${this.start.stepId}` }
        : {}),
      ...(Object.keys(stubs).length > 0 ? { stubs } : {}),
      steps,
    };
  }
}
