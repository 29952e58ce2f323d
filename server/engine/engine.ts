import type { BotDefinition, Dialog, Step } from '../definition/schema.ts';
import { handlerFor } from './steps/index.ts';
import { renderTemplate } from './template.ts';
import type { ConversationState, EngineInput, Next, Position, TurnContext, TurnResult } from './types.ts';

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
 * Pure: no I/O, no clock, no randomness.
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
    render(template) {
      return renderTemplate(template, [ctx.variables, ctx.userData], (name) => {
        if (missing.has(name)) return;
        missing.add(name);
        ctx.effects.push({ type: 'warn', code: 'missing_variable', detail: { name } });
      });
    },
  };

  let position: Position | null;
  if (input.kind === 'start') {
    position = enterAt(definition, input.dialogId, input.stepId);
    position = position && runFrom(ctx, position, options);
  } else {
    // Until steps tell postbacks apart, a pressed button answers like its payload typed.
    const text = input.kind === 'text' ? input.text : input.payload;
    position = receiveText(ctx, state.position, text, options);
  }

  return {
    state: { position, variables: ctx.variables, userData: ctx.userData },
    outputs: ctx.outputs,
    effects: ctx.effects,
  };
}

function receiveText(ctx: TurnContext, position: Position | null, text: string, options: EngineOptions): Position | null {
  const step = position?.awaiting ? findStep(ctx.definition, position.dialogId, position.stepId) : undefined;
  const handler = step && handlerFor(step);
  if (!position || !step || !handler?.receive) {
    ctx.outputs.push({ type: 'text', text: ctx.definition.settings.fallbackText });
    ctx.effects.push({
      type: 'unprocessed',
      detail: { text, dialogId: position?.dialogId ?? null, stepId: position?.stepId ?? null, stepType: step?.type ?? null },
    });
    return position;
  }
  const next = handler.receive(step, ctx, text, position.retries);
  if (next.kind === 'retry') return { ...position, retries: position.retries + 1 };
  const after = follow(ctx.definition, position.dialogId, step, next);
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
    const next = handlerFor(step).enter(step, ctx);
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
