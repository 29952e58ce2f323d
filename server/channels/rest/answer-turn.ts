import type { AppDeps } from '../../app/deps.ts';
import { handlePageEvent } from '../../app/handle-page-event.ts';
import { handleUserMessage, type UserInput } from '../../app/handle-user-message.ts';
import { DEFAULT_TURN_DEADLINE_MS } from '../../app/turn-deadline.ts';
import { DeadlinePassed } from '../../ports/deadline.ts';
import { openConversation, readMissed } from '../../app/open-conversation.ts';
import { setUserData } from '../../app/set-user-data.ts';
import { startDialog } from '../../app/start-dialog.ts';
import { toItem } from '../../app/to-item.ts';
import type { RestChannel } from '../../settings/rest-channels.ts';
import { EventAlreadyRun, OPENED_BY, markEvent, markOpening, readMarks } from './event-marks.ts';
import type { Inbound } from './request-schema.ts';
import type { Collected, RestDelivery } from './rest-delivery.ts';

/** Where a request goes: its channel, that channel's delivery, the user. */
export interface Located {
  readonly channel: RestChannel;
  readonly delivery: RestDelivery;
  readonly userId: string;
}

/** What a turn's input came to: a message's stored seq, or an event run now or before. */
export type Ran =
  { readonly seq: number; readonly duplicate: boolean } | { readonly event: true; readonly duplicate: boolean };

/** The answer's body (README and the OpenAPI document list its fields). */
export interface TurnAnswer extends Collected {
  /** The stored message's seq: for a text or button, once it is stored. */
  readonly seq?: number;
  /** Whether the clientId had been sent before; absent while the input waits behind the user's earlier turn. */
  readonly duplicate?: boolean;
  readonly complete: boolean;
}

/**
 * A request's input on its way: what `runInput` came to once known (for a message, the moment
 * it is stored), and when all its work (sync integration steps included) is done. A resend of
 * the same clientId arriving meanwhile waits on it instead of queueing behind it (see answerResend).
 */
export class Flight {
  ran: Ran | undefined;
  /** All the work is done (set before `done` settles). */
  finished = false;
  readonly done: Promise<void>;
  /** Resolves once `ran` is known. */
  readonly known: Promise<void>;
  settle!: (error?: unknown) => void;
  private tell!: () => void;

  constructor() {
    this.done = new Promise<void>((resolve, reject) => {
      let settled = false;
      this.settle = (error) => {
        // The first word counts: a request refused at its cap stays refused, whatever its work comes to later.
        if (settled) return;
        settled = true;
        if (error !== undefined) return reject(error as Error);
        this.finished = true;
        resolve();
      };
    });
    this.known = new Promise<void>((resolve) => (this.tell = resolve));
    // Nobody may be waiting: a failure is answered to the request that ran it.
    this.done.catch(() => undefined);
  }

  /** The input ran (a message: is stored); the first word counts. */
  learn(ran: Ran): void {
    this.ran ??= ran;
    this.tell();
  }
}

/** When a request is answered at the latest, and when its message's turn deadline starts at the latest (performance.now() times). */
export interface Bounds {
  /** REST_CHANNEL_ANSWER_WAIT after arrival: answered then with what is there, once the message is stored. */
  readonly wait: number;
  /** The wait plus TURN_DEADLINE: a message not stored by then is refused (503 store_timeout), and not stored after. */
  readonly cap: number;
}

/**
 * Past the answer wait, a message that is not stored yet is not answered `complete: false` (that
 * promises it is stored and answered later): the request waits on until it is stored, its turn
 * fails, or the cap passes (the turn's deadline has then passed too, so nothing of it is stored
 * after). True when all the work is done.
 */
async function settleFor(
  flight: Flight,
  work: Promise<unknown>,
  bounds: Bounds,
  turnDeadlineMs: number,
): Promise<boolean> {
  if (await within(work, bounds.wait)) return true;
  if (flight.ran !== undefined) return false;
  if (!(await within(Promise.race([flight.known, work]), bounds.cap))) throw new DeadlinePassed(turnDeadlineMs);
  return flight.finished;
}

/** Waits for `work` until `deadline` (performance.now() time); true when it finished in time. */
async function within(work: Promise<unknown>, deadline: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work.then(() => true),
      new Promise<boolean>(
        (resolve) => (timer = setTimeout(() => resolve(false), Math.max(0, deadline - performance.now()))),
      ),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Runs the turn while holding what the bot says, and answers with it once the turn is
 * done, or at the answer wait (REST_CHANNEL_ANSWER_WAIT after the request arrived, however
 * long it waited behind the user's earlier request) with what is there once the message is
 * stored; the rest is then called back or polled. A message not stored by then is waited for
 * until the cap (settleFor). Callers run one at a time per user.
 */
export async function answerTurn(
  deps: AppDeps,
  located: Located,
  input: Inbound,
  opened: boolean,
  bounds: Bounds,
  flight: Flight,
): Promise<TurnAnswer> {
  const { userId, delivery, channel } = located;
  const turnDeadlineMs = deps.turnDeadlineMs ?? DEFAULT_TURN_DEADLINE_MS;
  // Its turn's deadline passed while it waited behind the same user's earlier request: nothing runs.
  if (performance.now() >= bounds.cap) throw new DeadlinePassed(turnDeadlineMs);
  const release = delivery.collect(userId);
  let held: Collected | undefined;
  const work = (async () => {
    if (!opened) await openConversation(deps, { userId, channelId: channel.name, adjust: markOpening(input.clientId) });
    flight.learn(await runInput(deps, userId, input, { startBy: bounds.wait, stored: (ran) => flight.learn(ran) }));
    // Sync integration steps run as the user's next tasks: their answers belong to this turn too.
    await deps.turns.idle(userId);
  })();
  work.then(
    () => flight.settle(),
    (error: unknown) => flight.settle(error ?? new Error('the turn failed')),
  );
  // Whatever the turn comes to after the request is answered is logged here (a deadline that passed
  // was logged where the turn ran, app/turn-deadline.ts: one line for it).
  let answered = false;
  work.catch((error: unknown) => {
    if (answered && !(error instanceof DeadlinePassed))
      deps.logger.error(
        { event: 'rest_turn_failed', channel: channel.name, userId, err: error },
        'a REST channel turn failed after its answer',
      );
  });
  try {
    // (A failure before the answer made this throw: the request's own error answer.)
    const done = await settleFor(flight, work, bounds, turnDeadlineMs).finally(() => (answered = true));
    // Taken at once, so nothing said from here on is both answered and called back.
    held = release();
    const ran = flight.ran;
    if (ran === undefined) return { messages: held.messages, events: held.events, complete: false };
    // Sent before: nothing ran now, and the answer is what the first one was.
    if (ran.duplicate)
      return { ...stamp(ran), ...(await resendReplies(deps, userId, input.clientId, ran)), complete: done };
    return { ...stamp(ran), messages: held.messages, events: held.events, complete: done };
  } finally {
    if (!held) release();
  }
}

/**
 * A resend of a clientId whose first request is still on its way in this process: it
 * waits for that one's work, not behind it, and within its own bounds (settleFor).
 */
export async function answerResend(
  deps: AppDeps,
  userId: string,
  clientId: string,
  bounds: Bounds,
  flight: Flight,
): Promise<TurnAnswer> {
  const done = await settleFor(flight, flight.done, bounds, deps.turnDeadlineMs ?? DEFAULT_TURN_DEADLINE_MS);
  const ran = flight.ran;
  if (ran === undefined) return { messages: [], events: [], complete: false };
  return { ...stamp(ran), duplicate: true, ...(await resendReplies(deps, userId, clientId, ran)), complete: done };
}

/** The REST protocol's message input as the user's message. */
function userMessageOf(input: Extract<Inbound, { type: 'text' | 'button' | 'dialog' }>): UserInput['message'] {
  switch (input.type) {
    case 'text':
      return { type: 'text', text: input.text };
    case 'button':
      return { type: 'postback', label: input.label, payload: input.payload };
    case 'dialog':
      return { type: 'dialog', label: input.label, dialogId: input.dialogId };
  }
}

function stamp(ran: Ran): { seq?: number; duplicate: boolean } {
  return 'seq' in ran ? { seq: ran.seq, duplicate: ran.duplicate } : { duplicate: ran.duplicate };
}

async function runInput(
  deps: AppDeps,
  userId: string,
  input: Inbound,
  told: Pick<UserInput, 'startBy' | 'stored'>,
): Promise<Ran> {
  switch (input.type) {
    case 'text':
    case 'button':
    case 'dialog':
      return handleUserMessage(deps, { userId, clientId: input.clientId, message: userMessageOf(input), ...told });
    case 'event': {
      // The event's record is written with what the event changes: a resend finds it and changes nothing.
      const adjust = markEvent(input.clientId);
      try {
        switch (input.event) {
          case 'setUserData':
            await setUserData(deps, userId, input.fields, adjust);
            break;
          case 'startDialog':
            await startDialog(deps, {
              userId,
              dialogId: input.dialogId,
              ...(input.data ? { data: input.data } : {}),
              adjust,
            });
            break;
          case 'pageEvent':
            await handlePageEvent(deps, { userId, name: input.name, payload: input.payload ?? {}, adjust });
            break;
        }
        return { event: true, duplicate: false };
      } catch (error) {
        if (error instanceof EventAlreadyRun) return { event: true, duplicate: true };
        throw error;
      }
    }
  }
}

/**
 * A resent message or event is answered as the first time: the bot's replies that followed
 * it, up to the user's next message (or, for an event, the next event's). When the first
 * request opened the conversation, its answer began with the start dialog's greeting, and
 * so does the resend's. The bot's events are not repeated.
 */
async function resendReplies(deps: AppDeps, userId: string, clientId: string, ran: Ran): Promise<Collected> {
  const user = await deps.store.getUser(userId);
  if (!user) return { messages: [], events: [] };
  const opening = user.variables[OPENED_BY] === clientId;
  let from: number;
  let until = Infinity;
  if ('seq' in ran) from = ran.seq;
  else {
    const marks = readMarks(user);
    const index = marks.findIndex((mark) => mark.id === clientId);
    if (index === -1) return { messages: [], events: [] };
    from = marks[index]!.after;
    until = marks[index + 1]?.after ?? Infinity;
  }
  const own = 'seq' in ran ? ran.seq : undefined;
  const later = (await readMissed(deps, userId, opening ? 0 : from)).filter(
    (entry) => entry.seq <= until && entry.seq !== own,
  );
  const next = later.findIndex((entry) => entry.from === 'user' && (own === undefined || entry.seq > own));
  return { messages: (next === -1 ? later : later.slice(0, next)).map(toItem), events: [] };
}
