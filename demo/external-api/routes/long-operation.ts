import { Router } from 'express';
import { randomUUID } from 'node:crypto';
import type { ExternalApiOptions } from '../app.ts';

type Outcome = 'success' | 'failure' | 'never';

/**
 * POST /operations {"userId", "outcome"?}: starts an operation that takes
 * `operationMs`, answers 202 at once, and when done calls the bot's short
 * trigger form for the success or the failure dialog, with the details as
 * JSON body. outcome "never" reports nothing, so the bot's timeout speaks.
 */
export function longOperationRouter(options: ExternalApiOptions): { router: Router; pending(): Promise<void> } {
  const router = Router();
  const inFlight = new Set<Promise<void>>();
  const log = options.log ?? ((message: string) => console.error(message));

  async function report(userId: string, operationId: string, outcome: Outcome): Promise<void> {
    if (outcome === 'never') return;
    const dialog = outcome === 'success' ? options.successDialog : options.failureDialog;
    const body =
      outcome === 'success'
        ? {
            operationId,
            transactionId: `TX-${operationId.slice(0, 8).toUpperCase()}`,
            completedAt: new Date().toISOString(),
          }
        : { operationId, reason: 'The payment provider declined the request.' };
    const url = `${options.botUrl}/api/trigger/${encodeURIComponent(options.botId)}/${encodeURIComponent(dialog)}?userId=${encodeURIComponent(userId)}`;
    // The key goes in the header, not the query string, so no proxy log on the way sees it.
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-functions-key': options.functionKey },
      body: JSON.stringify(body),
    });
    if (res.status !== 202)
      log(
        `demo external API: the bot answered ${res.status} to the ${outcome} trigger of ${operationId}: ${await res.text()}`,
      );
  }

  router.post('/operations', (req, res) => {
    const { userId, outcome = 'success' } = (req.body ?? {}) as { userId?: unknown; outcome?: unknown };
    if (typeof userId !== 'string' || userId === '' || !['success', 'failure', 'never'].includes(String(outcome))) {
      res.status(400).json({
        error: {
          code: 'invalid_body',
          message: 'Send {"userId": "...", "outcome": "success" | "failure" | "never"}.',
        },
      });
      return;
    }
    const operationId = randomUUID();
    const work = new Promise<void>((resolve) => setTimeout(resolve, options.operationMs))
      .then(() => report(userId, operationId, outcome as Outcome))
      .catch((error: unknown) => log(`demo external API: could not reach the bot: ${(error as Error).message}`))
      .finally(() => inFlight.delete(work));
    inFlight.add(work);
    res.status(202).json({ operationId, status: 'started', expectedMs: options.operationMs });
  });

  return { router, pending: async () => void (await Promise.allSettled([...inFlight])) };
}
