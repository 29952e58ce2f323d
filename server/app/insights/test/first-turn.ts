import { advanceTrail, summaryOf } from '../trail.ts';

/** A visitor's first message of a conversation at `now`, answered once in dialog main: the counters and summary it gives insights. */
export function firstTurnOf(userId: string, text: string, now: number) {
  const { trail, counts } = advanceTrail({
    now,
    version: 'v1',
    windowMs: 1_800_000,
    channel: 'webchat',
    before: undefined,
    lastMessageAt: null,
    userText: text,
    userWrote: true,
    botMessages: 1,
    visits: [{ dialogId: 'main', stepId: 'hello' }],
    completed: [],
    unprocessed: [],
    faqAnswered: 0,
    faqMissed: [],
    integrationFailed: false,
  });
  return { counts, summary: summaryOf(userId, trail, 'v1', {}) };
}
