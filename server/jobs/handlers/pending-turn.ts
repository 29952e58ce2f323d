import { z } from 'zod';
import { answerPendingOf } from '../../app/answer-pending.ts';
import type { AppDeps } from '../../app/deps.ts';
import type { JobHandler } from '../job-runner.ts';

const payloadSchema = z.object({ userId: z.string().min(1) });

/** A stored message's turn failed: run it again once, unless the user's reconnect or resend did already. */
export function pendingTurnJobHandler(deps: AppDeps): JobHandler {
  return async (job) => {
    await answerPendingOf(deps, payloadSchema.parse(job.payload).userId);
  };
}
