import type { ObservedTurn, TurnEvent } from '../../ports/turn-observer.ts';
import type { TurnFacts } from './trail.ts';

/** What the trail needs to know besides the turn itself: where the recorder stands. */
export interface TrailContext {
  readonly version: string;
  readonly windowMs: number;
  /** The stored trail before the turn. */
  readonly before: unknown;
  /** An integration call for the user failed since the conversation started (the recorder heard it). */
  readonly failedBefore: boolean;
}

/** The facts the trail moves on, read from what happened in the turn. */
export function turnFacts(turn: ObservedTurn, context: TrailContext): TurnFacts {
  const of = <K extends TurnEvent['kind']>(...kinds: K[]) =>
    turn.events.filter((e): e is Extract<TurnEvent, { kind: K }> => kinds.includes(e.kind as K));
  const wrote = of('userWrote')[0];
  const woken = of('pageEvent', 'trigger', 'timer')[0];
  return {
    now: turn.now,
    version: context.version,
    windowMs: context.windowMs,
    channel: turn.channel ?? turn.user.channelId,
    before: context.before,
    lastMessageAt: turn.user.lastMessageAt,
    userText: wrote?.text ?? null,
    userWrote: wrote !== undefined,
    botMessages: of('botSaid').reduce((sum, e) => sum + e.messages, 0),
    visits: of('stepEntered').map(({ dialogId, stepId }) => ({ dialogId, stepId })),
    completed: of('dialogCompleted').map((e) => e.dialogId),
    unprocessed: of('unprocessed').map((e) => e.text),
    faqAnswered: of('faqAnswered').length,
    faqMissed: of('faqMissed').map((e) => e.text),
    ...(woken ? { event: { kind: woken.kind, name: woken.name } } : {}),
    integrationFailed: context.failedBefore || of('integrationFailed').length > 0,
  };
}
