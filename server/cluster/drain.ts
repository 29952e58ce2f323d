import type { Logger } from '../ports/logger.ts';

export interface DrainParts {
  /** SHUTDOWN_GRACE: how long the work in hand may take before the server stops anyway. */
  readonly graceMs: number;
  readonly logger: Logger;
  /** The job runner: stops claiming, resolves once the jobs in hand are done. */
  readonly jobs: { stop(): Promise<void> };
  /** The per-user turn queue: its size is the number of users with a turn queued or running. */
  readonly turns: { readonly size: number };
  /** The socket.io server: closing it ends every socket without a goodbye packet, which the widget answers by reconnecting (through the balancer, to another node). */
  readonly io: { close(): Promise<void> };
}

/**
 * The graceful part of a shutdown, once /readyz already says 503 and client events are no
 * longer taken: the turns and jobs in hand finish (a turn's sync integration call included,
 * and its answer reaches the widget over the still-open socket), bounded by the grace; then
 * the sockets close. What is still running past the grace is cut short: the store holds the
 * user's message, so the turn runs again (a job after its lease, a widget on reconnect).
 */
export async function drain(parts: DrainParts): Promise<void> {
  const started = Date.now();
  const deadline = started + parts.graceMs;
  parts.logger.info(
    { event: 'shutting_down', graceMs: parts.graceMs, turns: parts.turns.size },
    'shutting down: finishing the turns and jobs in hand',
  );
  const jobsDone = await within(
    parts.jobs.stop().then(() => true),
    deadline,
  );
  await turnsEnded(parts.turns, deadline);
  const unfinished = parts.turns.size;
  if (!jobsDone || unfinished > 0) {
    parts.logger.warn(
      { event: 'shutdown_grace_passed', graceMs: parts.graceMs, turns: unfinished, jobsDone },
      'SHUTDOWN_GRACE passed with work still running; it is cut short and runs again elsewhere',
    );
  }
  await parts.io.close();
  parts.logger.info(
    { event: 'drained', ms: Date.now() - started },
    'turns in hand finished; widgets sent to reconnect elsewhere',
  );
}

/** How long the turns whose calls were cut short may take to end (log, release the user) before the store closes. */
export const CUT_SHORT_MS = 2000;

/** Resolves once no turn is queued or running, or at the deadline. */
export async function turnsEnded(turns: { readonly size: number }, deadline: number): Promise<void> {
  while (turns.size > 0 && Date.now() < deadline) await sleep(Math.min(25, deadline - Date.now()));
}

function within(work: Promise<boolean>, deadline: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), Math.max(0, deadline - Date.now()));
  });
  return Promise.race([work.catch(() => true), late]).finally(() => clearTimeout(timer));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(1, ms)));
