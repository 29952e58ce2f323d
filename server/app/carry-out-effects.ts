import type { Effect, EmailEffect, SmsEffect } from '../engine/turn/types.ts';
import type { AppDeps } from './deps.ts';

/**
 * Logs the warnings a committed turn raised. Everything durable a turn asks for
 * (timers, async calls, log rows) is in its commit's outbox (turn-outbox.ts).
 */
export function logWarnings(deps: AppDeps, userId: string, effects: readonly Effect[]): void {
  for (const effect of effects) {
    if (effect.type !== 'warn') continue;
    if (effect.code === 'missing_variable' && !firstTime(deps, effect.detail.name)) continue;
    deps.logger.warn({ userId, code: effect.code, ...effect.detail }, warnings[effect.code]);
  }
}

/** Sends the turn's email and SMS. Returns the steps whose sending failed, so their onError can run. */
export async function sendMessages(
  deps: AppDeps,
  userId: string,
  effects: readonly Effect[],
  now: number,
): Promise<{ dialogId: string; stepId: string }[]> {
  const failed: { dialogId: string; stepId: string }[] = [];
  for (const effect of effects) {
    if (effect.type !== 'email' && effect.type !== 'sms') continue;
    try {
      if (effect.type === 'email') await sendEmail(deps, userId, effect, now);
      else await sendSms(deps, userId, effect, now);
    } catch (error) {
      deps.logger.error(
        {
          userId,
          dialogId: effect.dialogId,
          stepId: effect.stepId,
          code: `${effect.type}_failed`,
          reason: (error as Error).message,
        },
        `the ${effect.type === 'email' ? 'email' : 'SMS'} step could not send; its onError (if any) runs next`,
      );
      failed.push({ dialogId: effect.dialogId, stepId: effect.stepId });
    }
  }
  return failed;
}

async function sendEmail(deps: AppDeps, userId: string, effect: EmailEffect, now: number): Promise<void> {
  if (!deps.mailer) throw new Error('email is not configured: set SMTP_URL');
  if (effect.to.length === 0) throw new Error('the email step has no recipient (its "to" rendered empty)');
  await deps.mailer.send({
    to: effect.to,
    cc: effect.cc,
    replyTo: effect.replyTo,
    subject: effect.subject,
    text: effect.body,
  });
  await deps.store.appendLog('outgoingEmail', {
    userId,
    timestamp: now,
    data: {
      body: effect.body,
      from: deps.mailer.from,
      recipients: [...effect.to, ...effect.cc],
      replyTo: effect.replyTo,
      stepId: effect.stepId,
      subject: effect.subject,
    },
  });
}

async function sendSms(deps: AppDeps, userId: string, effect: SmsEffect, now: number): Promise<void> {
  if (!deps.sms) throw new Error('SMS is not configured: set SMS_URL');
  if (effect.to.length === 0) throw new Error('the sms step has no recipient (its "to" rendered empty)');
  const link = effect.link && deps.links ? deps.links.link(userId, effect.link) : effect.link;
  const text = link ? `${effect.message} ${link}` : effect.message;
  for (const to of effect.to) await deps.sms.send({ to, text });
  await deps.store.appendLog('outgoingSms', {
    userId,
    timestamp: now,
    data: { channel: 'sms', link, message: text, provider: deps.sms.provider, recipients: effect.to },
  });
}

/** A missing template variable is logged once per name and server, not on every turn that renders it. */
const missingLogged = new WeakMap<AppDeps, Set<string>>();
function firstTime(deps: AppDeps, name: string): boolean {
  let seen = missingLogged.get(deps);
  if (!seen) missingLogged.set(deps, (seen = new Set()));
  if (seen.has(name) || seen.size >= 1000) return false;
  seen.add(name);
  return true;
}

const warnings = {
  missing_variable: 'a template names a variable that has no value; it rendered empty (logged once per name)',
  step_limit:
    'a run without input took more steps than settings.maxStepsWithoutInput allows (a goto cycle?); the conversation was stopped and the user got the fallback',
  call_limit:
    'a run without input made more integration calls, email, SMS or short waits than settings.maxCallsWithoutInput allows (a goto back to an integration step?); the conversation was stopped and the user got the fallback',
  integration_error_policy: "an integration step failed; the conversation followed the step's onError",
  stale_position:
    'the user rested on a dialog or step the bot definition no longer has (renamed or removed); they were moved to the target chosen at publish (chosenAtPublish), else per settings.recovery',
} as const;
