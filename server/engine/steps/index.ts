import type { Step } from '../../definition/schema.ts';
import type { StepHandler } from '../turn/types.ts';
import { clearUserDataStep } from './clear-user-data.ts';
import { conditionStep } from './condition.ts';
import { emailStep } from './email.ts';
import { endStep } from './end.ts';
import { eventStep } from './event.ts';
import { faqStep } from './faq.ts';
import { gotoStep } from './goto.ts';
import { inputStep } from './input.ts';
import { integrationStep } from './integration.ts';
import { linkChannelsStep } from './link-channels.ts';
import { messageStep } from './message.ts';
import { nlpStep } from './nlp.ts';
import { setStep } from './set.ts';
import { smsStep } from './sms.ts';
import { waitStep } from './wait.ts';

/** One handler per step kind; the mapped type makes a missing kind a compile error. */
export const stepHandlers: { readonly [K in Step['type']]: StepHandler<Extract<Step, { type: K }>> } = {
  message: messageStep,
  input: inputStep,
  condition: conditionStep,
  set: setStep,
  goto: gotoStep,
  wait: waitStep,
  event: eventStep,
  clearUserData: clearUserDataStep,
  email: emailStep,
  sms: smsStep,
  nlp: nlpStep,
  faq: faqStep,
  integration: integrationStep,
  linkChannels: linkChannelsStep,
  end: endStep,
};

export function handlerFor<S extends Step>(step: S): StepHandler<S> {
  return stepHandlers[step.type] as unknown as StepHandler<S>;
}
