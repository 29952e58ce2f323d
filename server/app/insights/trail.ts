import type { StepRef } from '../../engine/turn/types.ts';
import {
  dayOf,
  SUMMARY_EVENTS,
  SUMMARY_TEXT_LIMIT,
  TEXT_LIMIT,
  type ConversationEvent,
  type ConversationSummary,
  type CountDelta,
} from '../../ports/insights.ts';

/**
 * Where a user's current conversation stands, kept in the user's variables under TRAIL_KEY (the
 * recorder's note on each turn it observes, ports/turn-observer.ts) so it is written with the
 * turn's own commit: no extra write, whichever node runs the next turn reads it, and the user's
 * version check keeps two nodes from both building on the same trail (a trail kept by the
 * recorder, in memory or in its own table, would have neither). A conversation is the user's turns
 * with no gap of the window (INSIGHTS_WINDOW, 30 minutes by default) or more; the window also
 * decides when a conversation "stopped" at a step.
 */
export const TRAIL_KEY = '$trail';

export interface Trail {
  /** When the conversation started, and its last turn. */
  readonly c: number;
  readonly l: number;
  readonly ch: string;
  /** Version at the start. */
  readonly v0: string;
  /** Steps reached (`dialog/step`), dialogs entered, dialogs completed, in this conversation. */
  readonly s: readonly string[];
  readonly d: readonly string[];
  readonly f: readonly string[];
  /** The last step reached (the tentative stop) and the version it was counted under. */
  readonly p: string | null;
  readonly pv: string;
  /** An integration call failed in this conversation. */
  readonly e: boolean;
  readonly m: number;
  readonly t: string;
  readonly ev: readonly ConversationEvent[];
}

/** What a committed turn tells insights (turn-facts.ts reads it from the turn's events). */
export interface TurnFacts {
  readonly now: number;
  readonly version: string;
  readonly windowMs: number;
  /** The channel the turn came in on (a linked person's may be another than the one their conversation started on). */
  readonly channel: string;
  /** The stored trail before the turn (unchecked: anything may be stored under the key). */
  readonly before: unknown;
  /** The user's last message before this turn (activeUsers counts the first of each day). */
  readonly lastMessageAt: number | null;
  /** The user's words when the user wrote this turn; null for a turn the user did not start by writing. */
  readonly userText: string | null;
  readonly userWrote: boolean;
  readonly botMessages: number;
  readonly visits: readonly StepRef[];
  readonly completed: readonly string[];
  /** Free text nothing understood, and FAQ questions answered and missed, as written. */
  readonly unprocessed: readonly string[];
  readonly faqAnswered: number;
  readonly faqMissed: readonly string[];
  readonly event?: { readonly kind: ConversationEvent['kind']; readonly name: string };
  /** An integration call of this turn (or just before it) failed. */
  readonly integrationFailed: boolean;
}

export interface TrailOutcome {
  readonly trail: Trail;
  readonly counts: CountDelta[];
}

/** Reads a stored trail, or undefined when what is stored is not one (a user from before insights, or a hand-made variable). */
export function readTrail(value: unknown): Trail | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const t = value as Partial<Trail>;
  if (
    typeof t.c !== 'number' ||
    typeof t.l !== 'number' ||
    !Array.isArray(t.s) ||
    !Array.isArray(t.d) ||
    !Array.isArray(t.f)
  )
    return undefined;
  return {
    c: t.c,
    l: t.l,
    ch: typeof t.ch === 'string' ? t.ch : '',
    v0: typeof t.v0 === 'string' ? t.v0 : '',
    s: t.s.filter((x) => typeof x === 'string'),
    d: t.d.filter((x) => typeof x === 'string'),
    f: t.f.filter((x) => typeof x === 'string'),
    p: typeof t.p === 'string' ? t.p : null,
    pv: typeof t.pv === 'string' ? t.pv : '',
    e: t.e === true,
    m: typeof t.m === 'number' ? t.m : 0,
    t: typeof t.t === 'string' ? t.t : '',
    ev: Array.isArray(t.ev)
      ? t.ev.filter((e): e is ConversationEvent => typeof e === 'object' && e !== null).slice(-SUMMARY_EVENTS)
      : [],
  };
}

/** Cut a text for a counter key: trimmed, spaces collapsed, at most TEXT_LIMIT characters. */
export function counterText(text: string): string {
  return text.trim().replace(/\s+/g, ' ').slice(0, TEXT_LIMIT);
}

/** Adds a counter change: on the turn's day and version unless told otherwise. */
type Count = (metric: CountDelta['metric'], n: number, onDay?: number, a?: string, b?: string, v?: string) => void;

/**
 * The trail after a turn and the counter changes it makes. Pure: the recorder adds the changes
 * up and keeps the trail with the turn.
 */
export function advanceTrail(facts: TurnFacts): TrailOutcome {
  const { now, version } = facts;
  const day = dayOf(now);
  const before = readTrail(facts.before);
  const fresh = !before || now - before.l >= facts.windowMs;
  const base = fresh ? startTrail(facts) : before!;
  // Every count of a conversation goes under the channel it started on: a stop taken back lands where it was added.
  const channel = base.ch || facts.channel;
  const counts: CountDelta[] = [];
  const adder =
    (under: string): Count =>
    (metric, n, onDay = day, a, b, v = version) =>
      counts.push({
        day: onDay,
        version: v,
        metric,
        channel: under,
        n,
        ...(a !== undefined ? { a } : {}),
        ...(b !== undefined ? { b } : {}),
      });
  const add = adder(channel);

  if (fresh) add('conversations', 1);
  // The turn's own figures (messages, users, what was not understood) go under the channel it came in on.
  countDaily(facts, adder(facts.channel || channel));
  const reached = reach(base, facts, add);
  const stop = moveStop(base, facts, fresh, add);
  const trail: Trail = {
    ...base,
    ...reached,
    ...stop,
    l: now,
    ch: channel,
    e: base.e || facts.integrationFailed,
    m: base.m + (facts.userWrote ? 1 : 0) + facts.botMessages,
    t: keptText(base.t, facts.userText),
    ev: facts.event
      ? [...base.ev, { at: now, kind: facts.event.kind, name: facts.event.name.slice(0, TEXT_LIMIT) }].slice(
          -SUMMARY_EVENTS,
        )
      : base.ev,
  };
  return { trail, counts };
}

function startTrail(facts: TurnFacts): Trail {
  const { now, version } = facts;
  return {
    c: now,
    l: now,
    ch: facts.channel,
    v0: version,
    s: [],
    d: [],
    f: [],
    p: null,
    pv: version,
    e: false,
    m: 0,
    t: '',
    ev: [],
  };
}

/** The counters of the turn's own day: users, messages and what was not understood. */
function countDaily(facts: TurnFacts, add: Count): void {
  if (facts.userWrote) {
    add('messagesUser', 1);
    if (facts.lastMessageAt === null || dayOf(facts.lastMessageAt) !== dayOf(facts.now)) add('activeUsers', 1);
  }
  if (facts.botMessages > 0) add('messagesBot', facts.botMessages);
  for (const query of facts.unprocessed) {
    const text = counterText(query);
    if (text) add('unprocessed', 1, undefined, text);
  }
  if (facts.faqAnswered > 0) add('faqAnswered', facts.faqAnswered);
  for (const question of facts.faqMissed) {
    add('faqMissed', 1);
    const text = counterText(question);
    if (text) add('faqMiss', 1, undefined, text);
  }
}

/** Steps reached, dialogs entered and dialogs completed, each counted once a conversation, by its start day. */
function reach(base: Trail, facts: TurnFacts, add: Count): Pick<Trail, 's' | 'd' | 'f'> {
  const startDay = dayOf(base.c);
  const steps = [...base.s];
  const dialogs = [...base.d];
  const done = [...base.f];
  for (const visit of facts.visits) {
    const key = `${visit.dialogId}/${visit.stepId}`;
    if (!steps.includes(key)) {
      steps.push(key);
      add('stepReached', 1, startDay, visit.dialogId, visit.stepId);
    }
    if (!dialogs.includes(visit.dialogId)) {
      dialogs.push(visit.dialogId);
      add('dialogStarted', 1, startDay, visit.dialogId);
    }
  }
  for (const dialogId of facts.completed) {
    if (dialogs.includes(dialogId) && !done.includes(dialogId)) {
      done.push(dialogId);
      add('dialogCompleted', 1, startDay, dialogId);
    }
  }
  return { s: steps, d: dialogs, f: done };
}

/** The conversation's stop moves with it: taken back from the step it was on, added to the new one. */
function moveStop(base: Trail, facts: TurnFacts, fresh: boolean, add: Count): Pick<Trail, 'p' | 'pv'> {
  const startDay = dayOf(base.c);
  const last = facts.visits.at(-1);
  const lastStep = last ? `${last.dialogId}/${last.stepId}` : base.p;
  const stopVersion = last ? facts.version : base.pv;
  const moved = base.p !== lastStep || base.pv !== stopVersion;
  if (!fresh && base.p !== null && moved) add('stepStopped', -1, startDay, ...splitStep(base.p), base.pv);
  if (lastStep !== null && (fresh || moved)) add('stepStopped', 1, startDay, ...splitStep(lastStep), stopVersion);
  return { p: lastStep, pv: stopVersion };
}

/** The user's words of the conversation, joined, up to SUMMARY_TEXT_LIMIT. */
function keptText(kept: string, userText: string | null): string {
  if (!userText || kept.length >= SUMMARY_TEXT_LIMIT) return kept;
  return (kept ? `${kept} ${userText}` : userText).slice(0, SUMMARY_TEXT_LIMIT);
}

function splitStep(key: string): [string, string] {
  const at = key.indexOf('/');
  return [key.slice(0, at), key.slice(at + 1)];
}

/** The conversation as the search and the transcript view keep it. */
export function summaryOf(
  userId: string,
  trail: Trail,
  version: string,
  userData: Readonly<Record<string, unknown>>,
): ConversationSummary {
  return {
    userId,
    startedAt: trail.c,
    lastAt: trail.l,
    channel: trail.ch,
    version: trail.v0,
    lastVersion: version,
    steps: trail.s,
    lastStep: trail.p,
    integrationError: trail.e,
    messages: trail.m,
    text: trail.t,
    userData,
    events: trail.ev,
  };
}
