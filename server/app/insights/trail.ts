import type { Effect, StepRef } from '../../engine/types.ts';
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
 * Where a user's current conversation stands, kept in the user's variables under TRAIL_KEY so it
 * is written with the turn's own commit (no extra write, and whichever node runs the next turn
 * reads it). A conversation is the user's turns with no gap of the window (INSIGHTS_WINDOW, 30
 * minutes by default) or more; the window also decides when a conversation "stopped" at a step.
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

/** What a committed turn tells insights. */
export interface TurnFacts {
  readonly now: number;
  readonly version: string;
  readonly windowMs: number;
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
  readonly effects: readonly Effect[];
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

/**
 * The trail after a turn and the counter changes it makes. Pure: the recorder adds the changes
 * up; apply-turn stores the trail with the turn.
 */
export function advanceTrail(facts: TurnFacts): TrailOutcome {
  const { now, version } = facts;
  const day = dayOf(now);
  const counts: CountDelta[] = [];
  const add = (metric: CountDelta['metric'], n: number, onDay = day, a?: string, b?: string, v = version) =>
    counts.push({
      day: onDay,
      version: v,
      metric,
      n,
      ...(a !== undefined ? { a } : {}),
      ...(b !== undefined ? { b } : {}),
    });

  const before = readTrail(facts.before);
  const fresh = !before || now - before.l >= facts.windowMs;
  if (facts.userWrote) {
    add('messagesUser', 1);
    if (facts.lastMessageAt === null || dayOf(facts.lastMessageAt) !== day) add('activeUsers', 1);
  }
  if (facts.botMessages > 0) add('messagesBot', facts.botMessages);
  if (fresh) add('conversations', 1);

  const base: Trail = fresh
    ? {
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
      }
    : before!;
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
  // The conversation's stop moves with it: taken back from the step it was on, added to the new one.
  const last = facts.visits.at(-1);
  const lastStep = last ? `${last.dialogId}/${last.stepId}` : base.p;
  const stopVersion = last ? version : base.pv;
  if (!fresh && base.p !== null && (base.p !== lastStep || base.pv !== stopVersion)) {
    const [d, s] = splitStep(base.p);
    add('stepStopped', -1, startDay, d, s, base.pv);
  }
  if (lastStep !== null && (fresh || base.p !== lastStep || base.pv !== stopVersion)) {
    const [d, s] = splitStep(lastStep);
    add('stepStopped', 1, startDay, d, s, stopVersion);
  }

  for (const effect of facts.effects) {
    if (effect.type === 'nlpLog' && !effect.fields.processed) {
      const text = counterText(effect.fields.query);
      if (text) add('unprocessed', 1, day, text);
    } else if (effect.type === 'faqLog') {
      if (effect.fields.matched) add('faqAnswered', 1);
      else {
        add('faqMissed', 1);
        const text = counterText(effect.fields.text);
        if (text) add('faqMiss', 1, day, text);
      }
    }
  }

  let text = base.t;
  if (facts.userText && text.length < SUMMARY_TEXT_LIMIT)
    text = (text ? `${text} ${facts.userText}` : facts.userText).slice(0, SUMMARY_TEXT_LIMIT);
  const events = facts.event
    ? [...base.ev, { at: now, kind: facts.event.kind, name: facts.event.name.slice(0, TEXT_LIMIT) }].slice(
        -SUMMARY_EVENTS,
      )
    : base.ev;
  const trail: Trail = {
    c: base.c,
    l: now,
    ch: base.ch || facts.channel,
    v0: base.v0,
    s: steps,
    d: dialogs,
    f: done,
    p: lastStep,
    pv: stopVersion,
    e: base.e || facts.integrationFailed,
    m: base.m + (facts.userWrote ? 1 : 0) + facts.botMessages,
    t: text,
    ev: events,
  };
  return { trail, counts };
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
