import { randomUUID } from 'node:crypto';

let arrivals = 0;
let lastStamp = 0;

/**
 * A job id that sorts by acceptance (time, then arrival in this process): a job group runs in id
 * order (Store.firstUnfinishedJob), so one user's turns and sends keep the order they came in.
 */
export function orderedJobId(kind: string, now: number): string {
  lastStamp = Math.max(lastStamp, now);
  return `${kind}:${lastStamp.toString(36).padStart(10, '0')}:${(arrivals++).toString(36).padStart(8, '0')}:${randomUUID()}`;
}
