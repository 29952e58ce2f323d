import { z } from 'zod';
import type { AppDeps } from '../../app/deps.ts';
import { fireTimer } from '../../app/fire-timer.ts';
import type { JobHandler } from '../job-runner.ts';

/** The job kind wait steps schedule (see app/carry-out-effects.ts). */
export const TIMER_JOB_KIND = 'timer';

const payloadSchema = z.object({ userId: z.string().min(1), timerId: z.string().min(1) });

/** A wait step's timer is due; the engine decides whether it still counts. */
export function timerJobHandler(deps: AppDeps): JobHandler {
  return async (job) => {
    await fireTimer(deps, payloadSchema.parse(job.payload));
  };
}
