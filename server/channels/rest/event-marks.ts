import type { UserRecord } from '../../ports/store.ts';

/**
 * The user variable where a REST channel records the events it has run, by clientId.
 * Events leave no transcript entry to deduplicate against, so the record is written in
 * the same store write as the event's own change (the turn it starts, or the saved
 * data): an event is either run and recorded, or neither. `$`-named variables are the
 * product's own, never exported.
 */
export const EVENT_MARKS = '$channelEvents';

/**
 * The user variable naming the clientId of the request that opened the user's
 * conversation: its first answer held the start dialog's greeting too, so a resend
 * of that request is answered with the greeting as well (a channel that lost the
 * first answer would otherwise never see it). Written with the start dialog's turn.
 */
export const OPENED_BY = '$channelOpenedBy';

/** The change that records `clientId` as the request that opened the conversation (see OPENED_BY). */
export function markOpening(clientId: string): (user: UserRecord) => UserRecord {
  return (user) => ({ ...user, variables: { ...user.variables, [OPENED_BY]: clientId } });
}

/** Events remembered per user: a channel resends within seconds, never a hundred events later. */
export const MAX_EVENT_MARKS = 100;

/** One event run: its clientId, and the user's last seq before it (its replies follow). */
export interface EventMark {
  readonly id: string;
  readonly after: number;
}

/** The event was run before: nothing is written, and `mark` says where its replies are. */
export class EventAlreadyRun extends Error {
  override readonly name = 'EventAlreadyRun';
  constructor(
    readonly mark: EventMark,
    /** The seq of the event recorded right after this one, if any: its replies end there. */
    readonly nextAfter: number | undefined,
  ) {
    super(`event ${mark.id} was run already`);
  }
}

export function readMarks(user: UserRecord): EventMark[] {
  const value = user.variables[EVENT_MARKS];
  if (!Array.isArray(value)) return [];
  return value.filter(
    (mark): mark is EventMark =>
      typeof mark === 'object' && mark !== null && typeof mark.id === 'string' && typeof mark.after === 'number',
  );
}

/**
 * The change that records event `clientId` on a user, for the use cases' `adjust`; it
 * throws EventAlreadyRun when the user, as freshly read, has it recorded already.
 */
export function markEvent(clientId: string): (user: UserRecord) => UserRecord {
  return (user) => {
    const marks = readMarks(user);
    const index = marks.findIndex((mark) => mark.id === clientId);
    if (index !== -1) throw new EventAlreadyRun(marks[index]!, marks[index + 1]?.after);
    const kept = marks.slice(-(MAX_EVENT_MARKS - 1));
    return {
      ...user,
      variables: { ...user.variables, [EVENT_MARKS]: [...kept, { id: clientId, after: user.lastSeq }] },
    };
  };
}
