import { z } from 'zod';
import type { BotEventSink } from '../../ports/bot-events.ts';
import type { Clock } from '../../ports/clock.ts';
import type { Store } from '../../ports/store.ts';
import type { JobHandler } from '../job-runner.ts';

const payloadSchema = z.object({
  step: z.record(z.string(), z.unknown()),
  context: z.object({
    userId: z.string(),
    variables: z.record(z.string(), z.unknown()),
    userData: z.record(z.string(), z.unknown()),
  }),
  /** The definition's dialog and step, for the integration.failed event. */
  origin: z.object({ dialogId: z.string(), stepId: z.string() }).optional(),
});

/** A failed call as the integration layer classifies it. */
interface Failure {
  readonly kind: string;
  readonly message: string;
  readonly status?: number;
}

/** What this handler needs from the integration layer (IntegrationRuntime fits); server/start/job-handlers.ts wires it. */
export interface AsyncIntegrationRunner {
  /** Makes the call; throws when the failure is worth another attempt; answers the failure when it failed for good. */
  runJob(
    payload: Readonly<Record<string, unknown>>,
    attempt: { attempt: number; maxAttempts: number },
  ): Promise<Failure | undefined | void>;
}

/** Where a call given up on is told, as an integration.failed event; none when absent. */
export interface FailureEvents {
  readonly events: BotEventSink;
  readonly store: Store;
  readonly clock: Clock;
}

/**
 * Runs an asynchronous integration call (timing mode "async"). The job is
 * stored before the conversation moves on, so it survives a restart; the job
 * runner retries transient failures with exponential backoff. A call given up on
 * (a failure not worth retrying, or the last attempt) becomes an integration.failed event.
 */
export function integrationJobHandler(runner: AsyncIntegrationRunner, failures?: FailureEvents): JobHandler {
  return async (job) => {
    const payload = payloadSchema.parse(job.payload);
    let failed: Failure | undefined | void;
    try {
      failed = await runner.runJob(payload, { attempt: job.attempts, maxAttempts: job.maxAttempts });
    } catch (error) {
      if (job.attempts >= job.maxAttempts)
        await report(failures, payload, {
          kind: (error as { kind?: string }).kind ?? 'network',
          message: (error as Error).message,
          status: (error as { status?: number }).status,
        });
      throw error;
    }
    if (failed) await report(failures, payload, failed);
  };
}

async function report(
  failures: FailureEvents | undefined,
  payload: z.infer<typeof payloadSchema>,
  failure: Failure,
): Promise<void> {
  if (!failures || !failures.events.wanted().has('integration.failed')) return;
  const user = await failures.store.getUser(payload.context.userId);
  if (!user) return;
  await failures.events.emit(
    user,
    [
      {
        kind: 'integration.failed',
        data: {
          dialogId: payload.origin?.dialogId ?? null,
          stepId: payload.origin?.stepId ?? null,
          integration: typeof payload.step.type === 'string' ? payload.step.type : null,
          errorKind: failure.kind,
          status: failure.status ?? null,
          message: failure.message,
          async: true,
        },
      },
    ],
    failures.clock.now(),
  );
}
