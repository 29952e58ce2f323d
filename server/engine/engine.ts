import type { BotDefinition, Dialog, Step } from '../definition/schema.ts';
import { routeIntent } from './intents.ts';
import { toNext } from './jump.ts';
import { handlerFor } from './steps/index.ts';
import { integrationOutcome } from './steps/integration.ts';
import { escapeMarkdown, renderTemplate } from './template.ts';
import { cancelTimers, takeTimer } from './timers.ts';
import type { ConversationState, EngineInput, Next, Position, Received, TurnContext, TurnResult, Understanding } from './types.ts';

export interface EngineOptions {
  /**
   * Most steps one turn may run without input. A goto cycle would otherwise
   * keep a user's turn busy forever; past the bound the turn stops and says so.
   */
  readonly maxStepsPerTurn: number;
}

export const DEFAULT_ENGINE_OPTIONS: EngineOptions = { maxStepsPerTurn: 100 };

/**
 * The dialog engine: definition + state + input → new state + outputs + effects.
 * Pure: no I/O, no clock, no randomness. Models (intent classifier, FAQ matcher)
 * run before the turn; their results come in the input (see `understandingNeeded`).
 */
export function runTurn(
  definition: BotDefinition,
  state: ConversationState,
  input: EngineInput,
  options: EngineOptions = DEFAULT_ENGINE_OPTIONS,
): TurnResult {
  const missing = new Set<string>();
  const ctx: TurnContext = {
    definition,
    variables: { ...state.variables },
    userData: { ...state.userData },
    outputs: [],
    effects: [],
    render(template, renderOptions) {
      const onMissing = (name: string) => {
        if (missing.has(name)) return;
        missing.add(name);
        ctx.effects.push({ type: 'warn', code: 'missing_variable', detail: { name } });
      };
      return renderTemplate(template, [ctx.variables, ctx.userData], onMissing, renderOptions?.markdown ? escapeMarkdown : undefined);
    },
  };

  let position: Position | null = state.position;
  switch (input.kind) {
    case 'start':
      position = startDialog(ctx, input.dialogId, input.stepId, options);
      break;
    case 'text':
    case 'postback': {
      cancelTimers(ctx, (timer) => timer.userInput);
      const text = input.kind === 'text' ? input.text : input.payload;
      position = receiveText(ctx, state.position, text, input.understanding, options);
      break;
    }
    case 'timer': {
      const timer = takeTimer(ctx, input.timerId);
      if (!timer) break; // cancelled meanwhile: nothing happens
      const step = findStep(definition, timer.dialogId, timer.stepId);
      if (step?.type !== 'wait') break;
      position = go(ctx, timer.dialogId, step, toNext(step.then), options);
      break;
    }
    case 'pageEvent': {
      cancelTimers(ctx, (timer) => timer.pageEvents.includes(input.name));
      const route = definition.pageEvents.find((e) => e.name === input.name);
      if (route) position = startDialog(ctx, route.dialog, undefined, options);
      break;
    }
    case 'failed': {
      const step = findStep(definition, input.dialogId, input.stepId);
      if ((step?.type === 'email' || step?.type === 'sms') && step.onError !== undefined) {
        position = go(ctx, input.dialogId, step, toNext(step.onError), options);
      }
      break;
    }
    case 'integrationResult': {
      // Only while the conversation still rests on that step: a result that comes back after
      // the user moved on (or twice) changes nothing.
      const at = state.position;
      if (!at?.awaiting || at.dialogId !== input.dialogId || at.stepId !== input.stepId) break;
      const step = findStep(definition, input.dialogId, input.stepId);
      if (step?.type !== 'integration') break;
      position = go(ctx, input.dialogId, step, integrationOutcome(step, ctx, input, input.dialogId), options);
      break;
    }
  }

  return {
    state: { position, variables: ctx.variables, userData: ctx.userData },
    outputs: ctx.outputs,
    effects: ctx.effects,
  };
}

/**
 * Which models the caller should run on this input before the turn: the
 * classifier only when the text would otherwise be unprocessed (or an nlp step
 * awaits it), the FAQ matcher only when a faq step awaits it. Pure, cheap.
 */
export function understandingNeeded(definition: BotDefinition, state: ConversationState, input: EngineInput): { nlp: boolean; faq: boolean } {
  if (input.kind !== 'text' && input.kind !== 'postback') return { nlp: false, faq: false };
  const text = input.kind === 'text' ? input.text : input.payload;
  const step = state.position?.awaiting ? findStep(definition, state.position.dialogId, state.position.stepId) : undefined;
  const handler = step && handlerFor(step);
  const wants = step && handler?.receive && handler.needs ? handler.needs(step, text) : handler?.receive ? { nlp: false, faq: false } : { nlp: true, faq: false };
  return { nlp: wants.nlp && definition.intents.length > 0, faq: wants.faq && definition.faq.length > 0 };
}

function startDialog(ctx: TurnContext, dialogId: string, stepId: string | undefined, options: EngineOptions): Position | null {
  cancelTimers(ctx, (timer) => timer.dialogStart);
  const position = enterAt(ctx.definition, dialogId, stepId);
  return position && runFrom(ctx, position, options);
}

function receiveText(
  ctx: TurnContext,
  position: Position | null,
  text: string,
  understanding: Understanding | undefined,
  options: EngineOptions,
): Position | null {
  const step = position?.awaiting ? findStep(ctx.definition, position.dialogId, position.stepId) : undefined;
  const handler = step && handlerFor(step);
  let received: Received = { kind: 'unusable', retry: false };
  if (position && step && handler?.receive) {
    received = handler.receive(step, ctx, text, position.retries, { understanding, dialogId: position.dialogId });
  }
  if (received.kind === 'unusable') {
    // Free text the step cannot use: NLP may route it; else the fallback (or the step's retry).
    const where = { dialogId: position?.dialogId ?? null, stepId: position?.stepId ?? null, stepType: step?.type ?? null };
    const routed = routeIntent(ctx, text, understanding?.nlp, ctx.definition.settings.nlpThreshold, where);
    if (routed && position && step) return go(ctx, position.dialogId, step, routed, options);
    if (routed && routed.kind === 'goto') return startAt(ctx, routed.dialogId, options);
    if (received.retry && position && step && handler?.retry) received = handler.retry(step, ctx, position.retries);
    else {
      ctx.outputs.push({ type: 'text', text: ctx.definition.settings.fallbackText });
      return position;
    }
  }
  if (!position || !step) return position;
  if (received.kind === 'retry') return { ...position, awaiting: true, retries: position.retries + 1 };
  return go(ctx, position.dialogId, step, received as Next, options);
}

function startAt(ctx: TurnContext, dialogId: string, options: EngineOptions): Position | null {
  const position = enterAt(ctx.definition, dialogId);
  return position && runFrom(ctx, position, options);
}

function go(ctx: TurnContext, dialogId: string, step: Step, next: Next, options: EngineOptions): Position | null {
  const after = follow(ctx.definition, dialogId, step, next);
  if (after?.awaiting) return after;
  return after && runFrom(ctx, after, options);
}

/** Runs steps from `position` until one awaits input or the conversation ends. */
function runFrom(ctx: TurnContext, start: Position, options: EngineOptions): Position | null {
  let position: Position | null = start;
  for (let count = 0; position; count++) {
    if (count >= options.maxStepsPerTurn) {
      ctx.effects.push({
        type: 'warn',
        code: 'step_limit',
        detail: { dialogId: position.dialogId, stepId: position.stepId, limit: options.maxStepsPerTurn },
      });
      return null;
    }
    const step = findStep(ctx.definition, position.dialogId, position.stepId);
    if (!step) return null;
    const next = handlerFor(step).enter(step, ctx, position.dialogId);
    if (next.kind === 'await') return { ...position, awaiting: true, retries: 0 };
    position = follow(ctx.definition, position.dialogId, step, next);
  }
  return null;
}

function follow(definition: BotDefinition, dialogId: string, step: Step, next: Next): Position | null {
  switch (next.kind) {
    case 'end':
      return null;
    case 'goto':
      return enterAt(definition, next.dialogId, next.stepId);
    case 'await':
      return { dialogId, stepId: step.id, awaiting: true, retries: 0 };
    case 'advance': {
      const dialog = findDialog(definition, dialogId);
      if (!dialog) return null;
      if (next.to !== undefined) return { dialogId, stepId: next.to, awaiting: false, retries: 0 };
      const following = dialog.steps[dialog.steps.findIndex((s) => s.id === step.id) + 1];
      return following ? { dialogId, stepId: following.id, awaiting: false, retries: 0 } : null;
    }
  }
}

function enterAt(definition: BotDefinition, dialogId: string, stepId?: string): Position | null {
  const dialog = findDialog(definition, dialogId);
  const first = stepId ?? dialog?.steps[0]?.id;
  return dialog && first !== undefined ? { dialogId, stepId: first, awaiting: false, retries: 0 } : null;
}

function findDialog(definition: BotDefinition, dialogId: string): Dialog | undefined {
  return definition.dialogs.find((d) => d.id === dialogId);
}

function findStep(definition: BotDefinition, dialogId: string, stepId: string): Step | undefined {
  return findDialog(definition, dialogId)?.steps.find((s) => s.id === stepId);
}
