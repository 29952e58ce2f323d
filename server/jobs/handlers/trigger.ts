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
});

/**
 * Runs a stored trigger. A payload that does not parse was not written by
 * acceptTrigger; throwing marks the attempt failed with a reason in the job.
 */
export function triggerJobHandler(deps: AppDeps): JobHandler {
  return async (job) => {
    await runTrigger(deps, payloadSchema.parse(job.payload));
  };
}
