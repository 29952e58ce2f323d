import type { BotEvent, BotMessage } from '../../../shared/protocol.ts';
import type { AppDeps } from '../../app/deps.ts';
import { fireTimer } from '../../app/fire-timer.ts';
import { KeyedQueue } from '../../app/keyed-queue.ts';
import type { BotDefinition } from '../../definition/schema.ts';
import { BUILT_IN_STEP_TYPES } from '../../integrations/step-types/registry.ts';
import type { StepType } from '../../integrations/step-contract/step-type.ts';
import { createFaqMatcher } from '../../nlp/faq-matcher.ts';
import type { IntentClassifier } from '../../ports/understanding.ts';
import type { IntegrationCallResult, IntegrationCaller } from '../../ports/integrations.ts';
import type { Store } from '../../ports/store.ts';
import type { Stub } from './test-file.ts';

/** What the bot did for one user, as a person at the widget would see it. */
export interface Seen {
  readonly messages: BotMessage[];
  readonly events: BotEvent[];
  /** Warnings the bot logged for this user (a template's missing variable, a stranded position). */
  readonly warnings: string[];
  /** Integration steps reached that no stub answers. */
  readonly unstubbed: string[];
}

export interface TestBot {
  readonly deps: AppDeps;
  seen(userId: string): Seen;
  /** Stubs in force for a user (the file's, then the test's over them). */
  stub(userId: string, stubs: Readonly<Record<string, Stub>>): void;
  /** Moves the fake clock on and fires the wait-step timers that fall due, in order. */
  advance(ms: number): Promise<void>;
  close(): Promise<void>;
}

/** A fixed start, so a test's times read the same on every run. */
const EPOCH = Date.UTC(2030, 0, 1, 9, 0, 0);

/**
 * The bot as the server runs it (engine, use cases, a throw-away store it closes, the trained
 * intent classifier and FAQ matcher), with what cannot exist in a test replaced: the clock is
 * moved by the test, integration steps are answered by the file's stubs, email and SMS are
 * accepted and dropped, and what would reach the widget is recorded.
 */
export function createTestBot(
  definition: BotDefinition,
  classifier: IntentClassifier | undefined,
  ownTypes: readonly StepType[],
  store: Store,
): TestBot {
  let now = EPOCH;
  const seenBy = new Map<string, Seen>();
  const seen = (userId: string): Seen => {
    let found = seenBy.get(userId);
    if (!found) seenBy.set(userId, (found = { messages: [], events: [], warnings: [], unstubbed: [] }));
    return found;
  };
  const stubsBy = new Map<string, Readonly<Record<string, Stub>>>();
  resolveTimings(definition, ownTypes);
  const note = warningsOf(seen);
  const deps: AppDeps = {
    definition,
    store,
    clock: { now: () => now },
    delivery: {
      deliver(userId, entries) {
        for (const entry of entries) if (entry.from === 'bot') seen(userId).messages.push(entry.message as BotMessage);
      },
      typing() {},
      event(userId, event) {
        seen(userId).events.push(event);
      },
      reach: () => 'live',
    },
    logger: { info() {}, warn: note, error: note },
    // Jobs live in the test's own store, as on the server: a turn's timers are written with the turn (its outbox).
    scheduler: {
      async schedule(job) {
        await store.scheduleJob(job);
      },
      cancel: (id) => store.cancelJob(id),
    },
    turns: new KeyedQueue(),
    classifier,
    faq:
      definition.faq.length > 0
        ? createFaqMatcher(definition.faq, {
            locale: definition.settings.locale,
            synonyms: definition.settings.synonyms,
          })
        : undefined,
    mailer: { from: 'bot@test.invalid', send: async () => ({ messageId: 'test' }) },
    sms: { provider: 'test', send: async () => undefined },
    integrations: stubbedIntegrations(definition, (userId) => stubsBy.get(userId), seen),
    // A test talks as fast as it can; the per-user limit is the server's business, not the bot's.
    integrationCallsPerMinute: 1_000_000,
  };
  return {
    deps,
    seen,
    stub(userId, stubs) {
      stubsBy.set(userId, stubs);
    },
    async advance(ms) {
      const until = now + ms;
      for (;;) {
        // One at a time, earliest first: a timer that fires may start or stop the next.
        const [due] = await store.claimJobs({ workerId: 'bot-test', now: until, leaseMs: 60_000, limit: 1 });
        if (!due) break;
        await store.completeJob(due.id, 'bot-test');
        now = Math.max(now, due.runAt);
        // Only wait-step timers move a conversation; async integration jobs were answered by their stub.
        if (due.kind !== 'timer') continue;
        const payload = due.payload as { userId: string; timerId: string };
        await fireTimer(deps, payload);
        await deps.turns.idle(payload.userId);
      }
      now = until;
    },
    close: () => store.close(),
  };
}

/** The engine reads a step's resolved timing, as the server's integration layer fills it at start-up. */
function resolveTimings(definition: BotDefinition, ownTypes: readonly StepType[]): void {
  const defaultTiming = new Map([...BUILT_IN_STEP_TYPES, ...ownTypes].map((type) => [type.name, type.defaultTiming]));
  for (const dialog of definition.dialogs) {
    for (const step of dialog.steps)
      if (step.type === 'integration' && step.timing === undefined)
        step.timing = defaultTiming.get(step.integration) ?? 'sync';
  }
}

/** The logger's warnings and errors about a user, written into what that user saw (one line each). */
function warningsOf(seen: (userId: string) => Seen): (fields: Record<string, unknown>, message: string) => void {
  return (fields, message) => {
    const userId = typeof fields.userId === 'string' ? fields.userId : undefined;
    if (!userId) return;
    const { userId: _, err, ...rest } = fields;
    const detail = Object.entries(rest)
      .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
      .join(' ');
    seen(userId).warnings.push(
      `${message} (${detail}${err instanceof Error ? ` error=${JSON.stringify(err.message)}` : ''})`,
    );
  };
}

/** Integration steps answered by the stubs in force for the user; a synchronous step with none is noted as unstubbed. */
function stubbedIntegrations(
  definition: BotDefinition,
  stubsOf: (userId: string) => Readonly<Record<string, Stub>> | undefined,
  seen: (userId: string) => Seen,
): IntegrationCaller {
  return {
    async run(step, context): Promise<IntegrationCallResult> {
      const key = `${step.dialogId}.${step.stepId}`;
      const stub = stubsOf(context.userId)?.[key];
      if (!stub) {
        // An asynchronous step's result never reaches the conversation: it needs no stub.
        const called = definition.dialogs.find((d) => d.id === step.dialogId)?.steps.find((s) => s.id === step.stepId);
        if (called?.type === 'integration' && called.timing === 'async')
          return { ok: true, output: null, scheduled: `test:${key}` };
        seen(context.userId).unstubbed.push(key);
        return { ok: false, error: { kind: 'unstubbed', message: `no stub for ${key}` } };
      }
      return 'output' in stub ? { ok: true, output: stub.output } : { ok: false, error: stub.error };
    },
    // An asynchronous step's call never runs in a bot test: its job is stored with the turn and left there.
    asyncJob(step, context) {
      return {
        ok: true,
        job: {
          id: `test:${step.dialogId}.${step.stepId}:${context.userId}`,
          kind: 'integration-test',
          payload: {},
          runAt: Number.MAX_SAFE_INTEGER,
        },
      };
    },
  };
}
