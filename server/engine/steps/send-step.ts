import type { StepOf } from '../../definition/schema.ts';
import type { EmailEffect, SmsEffect, StepHandler, TurnContext } from '../turn/types.ts';

type Sent = EmailEffect | SmsEffect;

/**
 * A step that asks the caller to send something (an email, an SMS) and goes on at once: a failure
 * comes back later as a `failed` input that follows onError. `content` renders what is sent.
 */
export function sendStep<E extends Sent>(
  type: E['type'],
  content: (step: StepOf<E['type']>, render: TurnContext['render']) => Omit<E, 'type' | 'dialogId' | 'stepId'>,
): StepHandler<StepOf<E['type']>> {
  return {
    enter(step, ctx, dialogId) {
      const { id, next } = step as StepOf<Sent['type']>;
      ctx.effects.push({ type, dialogId, stepId: id, ...content(step, (text) => ctx.render(text)) } as E);
      return { kind: 'advance', to: next };
    },
  };
}
