import type { EmailEffect } from '../turn/types.ts';
import { sendStep } from './send-step.ts';
import { splitList } from './split-list.ts';

/** Asks the caller to send an email; a failure comes back as a `failed` input that follows onError. */
export const emailStep = sendStep<EmailEffect>('email', (step, render) => ({
  to: splitList(render(step.to)),
  cc: step.cc !== undefined ? splitList(render(step.cc)) : [],
  replyTo: step.replyTo !== undefined ? render(step.replyTo) || null : null,
  subject: render(step.subject),
  body: render(step.body),
}));
