import type { StepOf } from '../../definition/schema.ts';
import { toNext } from '../turn/jump.ts';
import type { Next, StepHandler, TurnContext } from '../turn/types.ts';
import { renderQuickReplies } from './message.ts';

type InputStep = StepOf<'input'>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+?[0-9][0-9 ()./-]{5,20}$/;

/** Asks, validates the answer by type, saves it, and retries with the retry prompt up to maxRetries. */
export const inputStep: StepHandler<InputStep> = {
  enter(step, ctx) {
    ask(step, ctx, step.prompt);
    return { kind: 'await' };
  },
  needs(step, text) {
    // Only a choice can leave text unused; other types answer with their retry prompt.
    return { nlp: step.inputType === 'choice' && findChoice(step, text) === undefined, faq: false };
  },
  receive(step, ctx, text, retries) {
    const answer = text.trim();
    if (step.inputType === 'choice') {
      const choice = findChoice(step, answer);
      if (!choice) return { kind: 'unusable', retry: true };
      save(step, ctx, choice.value ?? choice.label);
      return choice.then !== undefined ? toNext(choice.then) : { kind: 'advance', to: step.next };
    }
    const value = validate(step, answer);
    if (value === undefined) return retry(step, ctx, retries);
    save(step, ctx, value);
    return { kind: 'advance', to: step.next };
  },
  retry,
};

function retry(step: InputStep, ctx: TurnContext, retries: number): Next | { kind: 'retry' } {
  if (retries + 1 > step.maxRetries) {
    if (step.onMaxRetries !== undefined) return toNext(step.onMaxRetries);
    ctx.outputs.push({ type: 'text', text: ctx.definition.settings.fallbackText });
    return { kind: 'end' };
  }
  ask(step, ctx, step.retryPrompt ?? step.prompt);
  return { kind: 'retry' };
}

function ask(step: InputStep, ctx: TurnContext, text: string): void {
  const quickReplies = step.choices
    ? step.choices.map((c) => ({ label: c.label, payload: c.value ?? c.label }))
    : step.quickReplies && renderQuickReplies(step.quickReplies);
  ctx.outputs.push({
    type: 'text',
    text: ctx.render(text, { markdown: true }),
    ...(quickReplies ? { quickReplies } : {}),
  });
}

function findChoice(step: InputStep, text: string) {
  const wanted = text.trim().toLowerCase();
  return step.choices?.find((c) => c.label.toLowerCase() === wanted || (c.value ?? '').toLowerCase() === wanted);
}

/** The value to save, or undefined when the answer does not pass. */
function validate(step: InputStep, answer: string): string | number | undefined {
  if (answer === '') return undefined;
  switch (step.inputType) {
    case 'text':
    case 'choice':
      return answer;
    case 'number': {
      const n = Number(answer.replace(',', '.'));
      if (!Number.isFinite(n)) return undefined;
      if ((step.min !== undefined && n < step.min) || (step.max !== undefined && n > step.max)) return undefined;
      return n;
    }
    case 'email':
      return EMAIL.test(answer) ? answer : undefined;
    case 'phone':
      return PHONE.test(answer) ? answer.replace(/[ ()./-]/g, '') : undefined;
    case 'regex':
      return new RegExp(`^(?:${step.pattern ?? ''})$`, 'u').test(answer) ? answer : undefined;
  }
}

function save(step: InputStep, ctx: TurnContext, value: unknown): void {
  if (!step.saveTo) return;
  if ('userData' in step.saveTo) ctx.userData[step.saveTo.userData] = value;
  else ctx.variables[step.saveTo.variable] = value;
}
