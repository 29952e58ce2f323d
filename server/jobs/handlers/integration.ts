import { z } from 'zod';
import type { JobHandler } from '../job-runner.ts';

const payloadSchema = z.object({
  step: z.record(z.string(), z.unknown()),
  context: z.object({
    userId: z.string(),
    variables: z.record(z.string(), z.unknown()),
    userData: z.record(z.string(), z.unknown()),
  }),
});

/** What this handler needs from the integration layer (IntegrationRuntime fits); main.ts wires it. */
export interface AsyncIntegrationRunner {
  /** Makes the call; throws when the failure is worth another attempt. */
  runJob(payload: Readonly<Record<string, unknown>>, attempt: { attempt: number; maxAttempts: number }): Promise<void>;
}

/**
 * Runs an asynchronous integration call (timing mode "async"). The job is
 * stored before the conversation moves on, so it survives a restart; the job
 * runner retries transient failures with exponential backoff.
 */
export function integrationJobHandler(runner: AsyncIntegrationRunner): JobHandler {
  return async (job) => {
    const payload = payloadSchema.parse(job.payload);
    await runner.runJob(payload, { attempt: job.attempts, maxAttempts: job.maxAttempts });
  };
}
