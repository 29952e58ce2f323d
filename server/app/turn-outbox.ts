import type { Effect } from '../engine/turn/types.ts';
import type { LogKind, NewJob, NewLogEntry, TurnCommit } from '../ports/store.ts';
import type { AppDeps } from './deps.ts';
import { asyncIntegrationJob } from './run-integrations.ts';

/** The durable job id of a user's wait-step timer. */
export function timerJobId(userId: string, timerId: string): string {
  return `timer:${userId}:${timerId}`;
}

export type TurnOutbox = Required<Pick<TurnCommit, 'jobs' | 'cancelJobs' | 'logs'>>;

/**
 * What of a turn's effects is durable besides its state and messages, as the
 * outbox of its commit (TurnCommit): timers started and stopped, asynchronous
 * integration calls, nlpLog and FAQ log rows. The store writes them in the same
 * commit as the turn, so a process killed right after the commit loses none of
 * them, and a turn that did not commit leaves none. (They used to be written
 * after the commit, one write each; a SIGKILL in between lost a user's timer.)
 *
 * A timer started and stopped in one turn nets out: only the last word on an id counts.
 */
export function turnOutbox(deps: AppDeps, userId: string, effects: readonly Effect[], now: number): TurnOutbox {
  const timers = new Map<string, NewJob | 'cancel'>();
  const jobs: NewJob[] = [];
  const logs: { kind: LogKind; entry: NewLogEntry }[] = [];
  for (const effect of effects) {
    switch (effect.type) {
      case 'nlpLog':
        logs.push({ kind: 'nlpLog', entry: { userId, timestamp: now, data: effect.fields } });
        break;
      case 'faqLog':
        logs.push({ kind: 'fuzzyQuestionAnswerLog', entry: { userId, timestamp: now, data: effect.fields } });
        break;
      case 'cancelTimer':
        timers.set(timerJobId(userId, effect.timerId), 'cancel');
        break;
      case 'scheduleTimer': {
        const id = timerJobId(userId, effect.timerId);
        // A timer that fails (store down) is tried again: the user must hear from it.
        timers.set(id, {
          id,
          kind: 'timer',
          payload: { userId, timerId: effect.timerId },
          runAt: now + effect.delayMs,
          maxAttempts: 5,
        });
        break;
      }
      case 'integration':
        // Synchronous calls run after the messages (runSyncIntegrations); async ones are jobs of the turn.
        if (effect.timing === 'async') {
          const job = asyncIntegrationJob(deps, userId, effect);
          if (job) jobs.push(job);
        }
        break;
      default:
        break; // snapshots ride in the commit of their own; events, email and SMS come after the messages
    }
  }
  const cancelJobs: string[] = [];
  for (const [id, timer] of timers) {
    if (timer === 'cancel') cancelJobs.push(id);
    else jobs.push(timer);
  }
  return { jobs, cancelJobs, logs };
}
