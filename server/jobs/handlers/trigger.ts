import { z } from 'zod';
import type { AppDeps } from '../../app/deps.ts';
import { runTrigger } from '../../app/trigger-dialog.ts';
import type { JobHandler } from '../job-runner.ts';

const payloadSchema = z.object({
  userId: z.string().min(1),
  channelId: z.string().min(1),
  dialogId: z.string().min(1),
  mode: z.literal('clear').nullable(),
  data: z.record(z.string(), z.unknown()),
  conversation: z.string().optional(),
  via: z.string().min(1).optional(),
});

/**
 * Runs a stored trigger. A payload that does not parse was not written by
 * acceptTrigger; throwing marks the attempt failed with a reason in the job.
 * A trigger that waits for an earlier one of its user is deferred, its attempt kept.
 */
export function triggerJobHandler(deps: AppDeps): JobHandler {
  return async (job) => {
    const outcome = await runTrigger(deps, payloadSchema.parse(job.payload), { jobId: job.id, attempt: job.attempts });
    return outcome.status === 'waiting' ? { deferUntil: outcome.retryAt } : undefined;
  };
}
