import type { SmsEffect } from '../turn/types.ts';
import { sendStep } from './send-step.ts';
import { splitList } from './split-list.ts';

/** Asks the caller to send an SMS; a failure comes back as a `failed` input that follows onError. */
export const smsStep = sendStep<SmsEffect>('sms', (step, render) => ({
  to: splitList(render(step.to)),
  message: render(step.message),
  link: step.link !== undefined ? render(step.link) || null : null,
}));
