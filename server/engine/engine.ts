import type { BotDefinition, Dialog, Step } from '../definition/schema.ts';
import { intentThreshold, routeIntent } from './turn/intents.ts';
import { toNext } from './turn/jump.ts';
import { takeBudget, keepBudget, reachesOut, type RunBudget } from './run-budget.ts';
import { handlerFor } from './steps/index.ts';
import { integrationOutcome } from './steps/integration.ts';
import { recoveryFor, type PublishMove } from './recovery.ts';
import { escapeMarkdown, renderTemplate } from './turn/template.ts';
import { activeTimers, cancelTimers, takeTimer } from './turn/timers.ts';
import { dialogById, stepAfter, stepById } from './step-index.ts';
import type {
  ConversationState,
  EngineInput,
  Next,
  Position,
  Received,
  StepRef,
  TrailMark,
  TurnContext,
  TurnResult,
  Understanding,
} from './turn/types.ts';

/** The run budget of this turn and the bot's limits on it (`settings.maxStepsWithoutInput`, `maxCallsWithoutInput`). */
interface Run {
  readonly spent: RunBudget;
  readonly maxSteps: number;
  readonly maxCalls: number;
}

export interface TurnOptions {
  /** Where users resting on steps the published version removed go, as chosen at publish (recovery.ts). */
  readonly moves?: readonly PublishMove[];
  /** The one-time code a link-channels step shows if the turn reaches one, drawn by the caller. */
  readonly linkCode?: string;
}

/**
 * The dialog engine: definition + state + input → new state + outputs + effects.
 * Pure: no I/O, no clock, no randomness. Models (intent classifier, FAQ matcher)
 * run before the turn; their results come in the input (see `understandingNeeded`).
 */
export function runTurn(
  definition: BotDefinition,
  state: ConversationState,
  input: EngineInput,
  options: TurnOptions = {},
): TurnResult {
  const { ctx, moves } = turnContext(definition, state, options);
  const timerStep = input.kind === 'timer' ? timerStepOf(definition, ctx, input.timerId) : undefined;
  const run: Run = {
    spent: takeBudget(ctx, input, timerStep),
    maxSteps: definition.settings.maxStepsWithoutInput,
    maxCalls: definition.settings.maxCallsWithoutInput,
  };
  const position = positionAfter(ctx, state, input, run, options);
  keepBudget(ctx, run.spent);
  return {
    state: { position, variables: ctx.variables, userData: ctx.userData },
    outputs: ctx.outputs,
    origins: originsOf(ctx.outputs.length, moves),
    effects: ctx.effects,
    trail: ctx.trail ?? [],
    visits: visitsOf(moves),
  };
}

/** The turn's context over a copy of the state, and the steps it moves to (each with the outputs said before it). */
function turnContext(
  definition: BotDefinition,
  state: ConversationState,
  options: TurnOptions,
): { ctx: TurnContext; moves: Array<{ readonly from: number; readonly at: StepRef }> } {
  const missing = new Set<string>();
  // Each time the turn moves to a step, how many outputs were said before: the outputs after it are that step's.
  const moves: Array<{ readonly from: number; readonly at: StepRef }> = [];
  let at: StepRef | undefined;
  const outputs: TurnContext['outputs'] = [];
  const onMissing = (name: string) => {
    if (missing.has(name)) return;
    missing.add(name);
    ctx.effects.push({ type: 'warn', code: 'missing_variable', detail: { name, ...ctx.at } });
  };
  const ctx: TurnContext = {
    definition,
    variables: { ...state.variables },
    userData: { ...state.userData },
    outputs,
    effects: [],
    get at() {
      return at;
    },
    set at(step: StepRef | undefined) {
      at = step;
      if (step) moves.push({ from: outputs.length, at: step });
    },
    trail: [],
    ...(options.linkCode !== undefined ? { linkCode: options.linkCode } : {}),
    render(template, renderOptions) {
      return renderTemplate(
        template,
        [ctx.variables, ctx.userData],
        onMissing,
        renderOptions?.markdown ? escapeMarkdown : undefined,
      );
    },
  };

  return { ctx, moves };
}

/** Where the conversation rests after the input: each kind of input moves it its own way. */
function positionAfter(
  ctx: TurnContext,
  state: ConversationState,
  input: EngineInput,
  run: Run,
  options: TurnOptions,
): Position | null {
  const { definition } = ctx;
  switch (input.kind) {
    case 'start':
      return startDialog(ctx, input.dialogId, input.stepId, run);
    case 'text':
    case 'postback': {
      cancelTimers(ctx, (timer) => timer.userInput);
      return recoverOrReceive(ctx, state.position, input, run, options);
    }
    case 'timer': {
      const timer = takeTimer(ctx, input.timerId);
      if (!timer) return state.position; // cancelled meanwhile: nothing happens
      const step = findStep(definition, timer.dialogId, timer.stepId);
      if (step?.type !== 'wait') return state.position;
      return go(ctx, timer.dialogId, step, toNext(step.then), run);
    }
    case 'pageEvent': {
      cancelTimers(ctx, (timer) => timer.pageEvents.includes(input.name));
      const route = definition.pageEvents.find((e) => e.name === input.name);
      if (route) return startDialog(ctx, route.dialog, undefined, run);
      return state.position;
    }
    case 'failed': {
      const step = findStep(definition, input.dialogId, input.stepId);
      ctx.at = { dialogId: input.dialogId, stepId: input.stepId };
      if ((step?.type === 'email' || step?.type === 'sms') && step.onError !== undefined) {
        // A way out after a failure: leaving the dialog by it completes nothing.
        return go(ctx, input.dialogId, step, toNext(step.onError), run, false);
      }
      return state.position;
    }
    case 'integrationResult': {
      // Only while the conversation still rests on that step: a result that comes back after
      // the user moved on (or twice) changes nothing.
      const step = restingOn(definition, state.position, input, 'integration');
      if (!step) return state.position;
      ctx.at = { dialogId: input.dialogId, stepId: input.stepId };
      return go(ctx, input.dialogId, step, integrationOutcome(step, ctx, input, input.dialogId), run, input.ok);
    }
    case 'linked': {
      // Linked after the user moved on (they wrote something else meanwhile): the link stands, the dialog stays.
      const step = restingOn(definition, state.position, input, 'linkChannels');
      if (!step) return state.position;
      ctx.at = { dialogId: input.dialogId, stepId: input.stepId };
      return go(ctx, input.dialogId, step, { kind: 'advance', to: step.next }, run);
    }
  }
}

/** The user's words: heard where they rest, unless that step is gone from the definition (then they recover). */
function recoverOrReceive(
  ctx: TurnContext,
  resting: Position | null,
  input: Extract<EngineInput, { kind: 'text' | 'postback' }>,
  run: Run,
  options: TurnOptions,
): Position | null {
  const recovery = recoveryFor(ctx.definition, resting, options.moves);
  if (recovery) {
    // The user rests where the definition no longer goes: their words were meant for a step
    // that is gone, so they restart at the recovery step (its prompt) instead of hearing the fallback.
    ctx.effects.push({
      type: 'warn',
      code: 'stale_position',
      detail: {
        fromDialogId: recovery.from.dialogId,
        fromStepId: recovery.from.stepId,
        toDialogId: recovery.to?.dialogId ?? null,
        toStepId: recovery.to?.stepId ?? null,
        chosenAtPublish: recovery.chosen,
      },
    });
    return recovery.to && runFrom(ctx, recovery.to, run);
  }
  const text = input.kind === 'text' ? input.text : input.payload;
  return receiveText(ctx, resting, text, input.understanding, run);
}

/** The step of the given kind the conversation awaits on, when it is the one named; else undefined. */
function restingOn<T extends Step['type']>(
  definition: BotDefinition,
  at: Position | null,
  named: StepRef,
  type: T,
): Extract<Step, { type: T }> | undefined {
  if (!at?.awaiting || at.dialogId !== named.dialogId || at.stepId !== named.stepId) return undefined;
  const step = findStep(definition, named.dialogId, named.stepId);
  return step?.type === type ? (step as Extract<Step, { type: T }>) : undefined;
}

/** The steps moved to, without a step repeated straight after itself (a retry, a result coming back). */
function visitsOf(moves: ReadonlyArray<{ readonly at: StepRef }>): StepRef[] {
  const visits: StepRef[] = [];
  for (const { at } of moves) {
    const last = visits.at(-1);
    if (!last || last.dialogId !== at.dialogId || last.stepId !== at.stepId) visits.push(at);
  }
  return visits;
}

/** The step of each output: the last move made before it was said. */
function originsOf(
  count: number,
  moves: ReadonlyArray<{ readonly from: number; readonly at: StepRef }>,
): (StepRef | undefined)[] {
  const origins = new Array<StepRef | undefined>(count);
  let move = -1;
  for (let i = 0; i < count; i++) {
    while (move + 1 < moves.length && moves[move + 1]!.from <= i) move++;
    origins[i] = move === -1 ? undefined : moves[move]!.at;
  }
  return origins;
}

/**
 * Which models the caller should run on this input before the turn: the
 * classifier only when the text would otherwise be unprocessed (or an nlp step
 * awaits it), the FAQ matcher only when a faq step awaits it. Pure, cheap.
 */
export function understandingNeeded(
  definition: BotDefinition,
  state: ConversationState,
  input: EngineInput,
): { nlp: boolean; faq: boolean } {
  if (input.kind !== 'text' && input.kind !== 'postback') return { nlp: false, faq: false };
  const text = input.kind === 'text' ? input.text : input.payload;
  const step = state.position?.awaiting
    ? findStep(definition, state.position.dialogId, state.position.stepId)
    : undefined;
  const handler = step && handlerFor(step);
  const wants =
    step && handler?.receive && handler.needs
      ? handler.needs(step, text)
      : handler?.receive
        ? { nlp: false, faq: false }
        : { nlp: true, faq: false };
  return { nlp: wants.nlp && definition.intents.length > 0, faq: wants.faq && definition.faq.length > 0 };
}

function startDialog(ctx: TurnContext, dialogId: string, stepId: string | undefined, run: Run): Position | null {
  cancelTimers(ctx, (timer) => timer.dialogStart);
  const position = enterAt(ctx, dialogId, stepId);
  return position && runFrom(ctx, position, run);
}

function receiveText(
  ctx: TurnContext,
  position: Position | null,
  text: string,
  understanding: Understanding | undefined,
  run: Run,
): Position | null {
  const step = position?.awaiting ? findStep(ctx.definition, position.dialogId, position.stepId) : undefined;
  const handler = step && handlerFor(step);
  let received: Received = { kind: 'unusable', retry: false };
  if (position && step && handler?.receive) {
    ctx.at = { dialogId: position.dialogId, stepId: step.id };
    received = handler.receive(step, ctx, text, position.retries, { understanding, dialogId: position.dialogId });
  }
  if (received.kind === 'unusable') {
    // Free text the step cannot use: NLP may route it; else the fallback (or the step's retry).
    const where = {
      dialogId: position?.dialogId ?? null,
      stepId: position?.stepId ?? null,
      stepType: step?.type ?? null,
    };
    const routed = routeIntent(ctx, text, understanding?.nlp, intentThreshold(ctx, understanding?.nlp), where);
    if (routed && position && step) return go(ctx, position.dialogId, step, routed, run, false);
    if (routed && routed.kind === 'goto') return startAt(ctx, routed.dialogId, run);
    mark(ctx, { kind: 'notUnderstood', dialogId: where.dialogId, stepId: where.stepId, text });
    if (received.retry && position && step && handler?.retry) received = handler.retry(step, ctx, position.retries);
    else {
      ctx.outputs.push({ type: 'text', text: ctx.definition.settings.fallbackText });
      return position;
    }
  }
  if (!position || !step) return position;
  if (received.kind === 'retry') return { ...position, awaiting: true, retries: position.retries + 1 };
  return go(ctx, position.dialogId, step, received as Next, run);
}

function startAt(ctx: TurnContext, dialogId: string, run: Run): Position | null {
  const position = enterAt(ctx, dialogId);
  return position && runFrom(ctx, position, run);
}

/** `byStep`: the step itself chose `next` (not an intent switch, not a way out after a failure), so leaving the dialog for another completes it. */
function go(ctx: TurnContext, dialogId: string, step: Step, next: Next, run: Run, byStep = true): Position | null {
  const after = follow(ctx, dialogId, step, next, byStep);
  if (after?.awaiting) return after;
  return after && runFrom(ctx, after, run);
}

/**
 * Runs steps from `position` until one awaits input or the conversation ends, within
 * the run's budget: past it the run stops where it is, the user hears the fallback
 * and the operator reads which dialog and step it stopped at.
 */
function runFrom(ctx: TurnContext, start: Position, run: Run): Position | null {
  let position: Position | null = start;
  while (position) {
    const step = findStep(ctx.definition, position.dialogId, position.stepId);
    if (!step) return null;
    // Before the budget check: a fallback said because the run stops here is this step's.
    ctx.at = { dialogId: position.dialogId, stepId: step.id };
    const calls = reachesOut(step);
    const over =
      run.spent.steps >= run.maxSteps
        ? ('step_limit' as const)
        : calls && run.spent.calls >= run.maxCalls
          ? ('call_limit' as const)
          : null;
    if (over) {
      const limit = over === 'step_limit' ? run.maxSteps : run.maxCalls;
      ctx.effects.push({
        type: 'warn',
        code: over,
        detail: { dialogId: position.dialogId, stepId: position.stepId, limit },
      });
      ctx.outputs.push({ type: 'text', text: ctx.definition.settings.fallbackText });
      run.spent.steps = 0;
      run.spent.calls = 0;
      return null;
    }
    run.spent.steps += 1;
    if (calls) run.spent.calls += 1;
    const next = handlerFor(step).enter(step, ctx, position.dialogId);
    if (next.kind === 'await') return { ...position, awaiting: true, retries: 0 };
    position = follow(ctx, position.dialogId, step, next, true);
  }
  return null;
}

/**
 * Where `next` leads. A dialog completes (one definition, for insights and the `dialog.completed` event):
 * at an end step, when its last step runs out, or when one of its own steps (`byStep`: not an intent
 * switch, not an onError way out) jumps to another dialog. A fatal error, an input that gives up or a run stopped by its budget
 * only stops it.
 */
function follow(ctx: TurnContext, dialogId: string, step: Step, next: Next, byStep: boolean): Position | null {
  switch (next.kind) {
    case 'end':
      if (step.type === 'end') mark(ctx, { kind: 'dialogCompleted', dialogId });
      return null;
    case 'goto':
      if (byStep && next.dialogId !== dialogId) mark(ctx, { kind: 'dialogCompleted', dialogId });
      return enterAt(ctx, next.dialogId, next.stepId);
    case 'await':
      return { dialogId, stepId: step.id, awaiting: true, retries: 0 };
    case 'advance': {
      if (!findDialog(ctx.definition, dialogId)) return null;
      if (next.to !== undefined) return { dialogId, stepId: next.to, awaiting: false, retries: 0 };
      const following = stepAfter(ctx.definition, dialogId, step.id);
      if (!following) mark(ctx, { kind: 'dialogCompleted', dialogId });
      return following ? { dialogId, stepId: following.id, awaiting: false, retries: 0 } : null;
    }
  }
}

/** Enters a dialog (at its first step, or the one named): every way into a dialog comes through here. */
function enterAt(ctx: TurnContext, dialogId: string, stepId?: string): Position | null {
  const dialog = findDialog(ctx.definition, dialogId);
  const first = stepId ?? dialog?.steps[0]?.id;
  if (!dialog || first === undefined) return null;
  mark(ctx, { kind: 'dialogStarted', dialogId });
  return { dialogId, stepId: first, awaiting: false, retries: 0 };
}

function mark(ctx: TurnContext, milestone: TrailMark): void {
  ctx.trail?.push(milestone);
}

function findDialog(definition: BotDefinition, dialogId: string): Dialog | undefined {
  return dialogById(definition, dialogId);
}

/** The wait step behind a due timer, read before the turn takes the timer out of the record. */
function timerStepOf(definition: BotDefinition, ctx: TurnContext, timerId: string): Step | undefined {
  const timer = activeTimers(ctx)[timerId];
  return timer && findStep(definition, timer.dialogId, timer.stepId);
}

function findStep(definition: BotDefinition, dialogId: string, stepId: string): Step | undefined {
  return stepById(definition, dialogId, stepId);
}
