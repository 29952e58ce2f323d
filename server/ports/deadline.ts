import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The time by which a person waiting on the work in hand must hear back (a visitor's message
 * waiting for its acknowledgement), carried with the work's async context so that a store's
 * retries deep below can see it without every port taking a parameter for it. Work that no
 * person waits on (a timer, a job) runs without one.
 */
export interface Deadline {
  /**
   * performance.now() time. Until the work starts (startDeadline): Infinity, or, for a deadline
   * that must run from a given time at the latest (newDeadline's startBy), that time plus `ms`.
   */
  at: number;
  /** Made to wait for the work's start, which has not come yet. */
  waiting: boolean;
  /** Its length, for the log line. */
  readonly ms: number;
  /** What the person waits for is in hand (the message is stored): what follows is no longer bound by it. */
  met: boolean;
}

/** The work could not be done before its deadline; nothing of it was written after it passed. */
export class DeadlinePassed extends Error {
  override readonly name = 'DeadlinePassed';
  constructor(readonly ms: number) {
    super(`the work did not finish within its deadline of ${ms} ms`);
  }
}

const current = new AsyncLocalStorage<Deadline>();

/**
 * A deadline `ms` from now, or, with `waiting`, from when the work starts (startDeadline), and
 * then from `startBy` (performance.now() time) at the latest: a caller that promised someone an
 * answer by a time bounds how long the work may wait to start, too.
 */
export function newDeadline(ms: number, waiting = false, startBy = Infinity): Deadline {
  return { at: waiting ? startBy + ms : performance.now() + ms, ms, met: false, waiting };
}

/** The work in hand starts now: a deadline made `waiting` runs from here, or from its startBy if that came first. */
export function startDeadline(): void {
  const deadline = current.getStore();
  if (deadline === undefined || !deadline.waiting) return;
  deadline.waiting = false;
  deadline.at = Math.min(deadline.at, performance.now() + deadline.ms);
}

/** Runs `work` (and whatever it starts) under `deadline`. */
export function runWithDeadline<T>(deadline: Deadline, work: () => Promise<T>): Promise<T> {
  return current.run(deadline, work);
}

/** Milliseconds before the deadline of the work in hand (0 or less once passed); Infinity when none binds it. */
export function timeLeft(): number {
  const deadline = current.getStore();
  return deadline === undefined || deadline.met ? Infinity : deadline.at - performance.now();
}

/** Throws DeadlinePassed when the deadline of the work in hand has passed: no new write should start for it. */
export function checkDeadline(): void {
  const deadline = current.getStore();
  if (deadline !== undefined && !deadline.met && deadline.at <= performance.now())
    throw new DeadlinePassed(deadline.ms);
}

/** What the person waits for is in hand: the rest of the work runs unbound. */
export function meetDeadline(): void {
  const deadline = current.getStore();
  if (deadline !== undefined) deadline.met = true;
}
