import { describe, expect, it } from 'vitest';
import { DAY_MS, SUMMARY_TEXT_LIMIT, type CountDelta } from '../../ports/insights.ts';
import { advanceTrail, readTrail, summaryOf, type TurnFacts } from './trail.ts';

const WINDOW = 30 * 60_000;
const T0 = 20_000 * DAY_MS + 10 * 3_600_000;

function facts(extra: Partial<TurnFacts> = {}): TurnFacts {
  return {
    now: T0,
    version: 'v1',
    windowMs: WINDOW,
    channel: 'webchat',
    before: undefined,
    lastMessageAt: null,
    userText: null,
    userWrote: false,
    botMessages: 0,
    visits: [],
    completed: [],
    unprocessed: [],
    faqAnswered: 0,
    faqMissed: [],
    integrationFailed: false,
    ...extra,
  };
}

/** Sums the deltas by metric/a/b/version, as the store would. */
function totals(counts: readonly CountDelta[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const c of counts) {
    const key = [c.metric, c.a, c.b, c.version].filter((x) => x !== undefined).join(':');
    out[key] = (out[key] ?? 0) + c.n;
    if (out[key] === 0) delete out[key];
  }
  return out;
}

describe('a conversation trail', () => {
  it('when a first turn greets the user, then one conversation starts and the greeting step is reached and is where it stops', () => {
    const { trail, counts } = advanceTrail(facts({ botMessages: 1, visits: [{ dialogId: 'main', stepId: 'hello' }] }));
    expect(totals(counts)).toEqual({
      'conversations:v1': 1,
      'messagesBot:v1': 1,
      'stepReached:main:hello:v1': 1,
      'dialogStarted:main:v1': 1,
      'stepStopped:main:hello:v1': 1,
    });
    expect(trail).toMatchObject({ c: T0, l: T0, p: 'main/hello', s: ['main/hello'], m: 1 });
  });

  it("when a conversation started on one channel goes on from another, then its steps, dialogs and stops stay under the channel it started on, and each turn's messages count under the channel they came in on", () => {
    const first = advanceTrail(
      facts({ channel: 'telegram', botMessages: 1, visits: [{ dialogId: 'main', stepId: 'hello' }] }),
    );
    const second = advanceTrail(
      facts({
        now: T0 + 60_000,
        channel: 'webchat',
        before: first.trail,
        userWrote: true,
        botMessages: 1,
        visits: [{ dialogId: 'main', stepId: 'age' }],
      }),
    );
    expect(new Set(first.counts.map((c) => c.channel))).toEqual(new Set(['telegram']));
    const under = (channel: string) => new Set(second.counts.filter((c) => c.channel === channel).map((c) => c.metric));
    expect(under('telegram')).toEqual(new Set(['stepReached', 'stepStopped']));
    expect(under('webchat')).toEqual(new Set(['messagesUser', 'messagesBot', 'activeUsers']));
    expect(second.trail.ch).toBe('telegram');
    // The next conversation starts on the channel of its first turn.
    const later = advanceTrail(
      facts({ now: T0 + 2 * WINDOW, channel: 'webchat', before: second.trail, userWrote: true }),
    );
    expect(new Set(later.counts.map((c) => c.channel))).toEqual(new Set(['webchat']));
  });

  it('when the user answers within the window, then the stop moves to the new step and nothing counts twice', () => {
    const first = advanceTrail(facts({ botMessages: 1, visits: [{ dialogId: 'main', stepId: 'hello' }] }));
    const second = advanceTrail(
      facts({
        now: T0 + 60_000,
        before: first.trail,
        lastMessageAt: null,
        userWrote: true,
        userText: 'Ann',
        botMessages: 1,
        visits: [
          { dialogId: 'main', stepId: 'hello' },
          { dialogId: 'main', stepId: 'age' },
        ],
        completed: [],
      }),
    );
    expect(totals([...first.counts, ...second.counts])).toEqual({
      'conversations:v1': 1,
      'activeUsers:v1': 1,
      'messagesUser:v1': 1,
      'messagesBot:v1': 2,
      'stepReached:main:hello:v1': 1,
      'stepReached:main:age:v1': 1,
      'dialogStarted:main:v1': 1,
      'stepStopped:main:age:v1': 1,
    });
    expect(second.trail).toMatchObject({ c: T0, l: T0 + 60_000, t: 'Ann', p: 'main/age', m: 3 });
  });

  it('when the user comes back after the window, then a new conversation starts and the old one keeps its stop', () => {
    const first = advanceTrail(
      facts({ visits: [{ dialogId: 'main', stepId: 'hello' }], userWrote: true, userText: 'hi' }),
    );
    const later = advanceTrail(
      facts({
        now: T0 + WINDOW,
        before: first.trail,
        lastMessageAt: T0,
        userWrote: true,
        userText: 'again',
        visits: [{ dialogId: 'main', stepId: 'hello' }],
      }),
    );
    expect(totals([...first.counts, ...later.counts])).toMatchObject({
      'conversations:v1': 2,
      'stepStopped:main:hello:v1': 2,
      'stepReached:main:hello:v1': 2,
    });
    // Same day, so the user is active once.
    expect(totals([...first.counts, ...later.counts])['activeUsers:v1']).toBe(1);
    expect(later.trail).toMatchObject({ c: T0 + WINDOW, t: 'again' });
  });

  it('when a dialog ends on its own terms, then it is completed once; unprocessed inputs and FAQ misses are counted by their text', () => {
    const { counts } = advanceTrail(
      facts({
        visits: [{ dialogId: 'done', stepId: 'bye' }],
        completed: ['done', 'done', 'never-entered'],
        unprocessed: ['  where   is my parcel '],
        faqMissed: ['Do you deliver?'],
        faqAnswered: 1,
      }),
    );
    expect(totals(counts)).toMatchObject({
      'dialogCompleted:done:v1': 1,
      'unprocessed:where is my parcel:v1': 1,
      'faqMiss:Do you deliver?:v1': 1,
      'faqMissed:v1': 1,
      'faqAnswered:v1': 1,
    });
    expect(totals(counts)['dialogCompleted:never-entered:v1']).toBeUndefined();
    expect(totals(counts)['unprocessed:order pizza:v1']).toBeUndefined();
  });

  it('when a version is published mid-conversation, then the stop is taken back from the old version and counted under the new', () => {
    const first = advanceTrail(facts({ visits: [{ dialogId: 'main', stepId: 'hello' }] }));
    const second = advanceTrail(
      facts({ now: T0 + 1000, version: 'v2', before: first.trail, visits: [{ dialogId: 'main', stepId: 'hello' }] }),
    );
    expect(totals([...first.counts, ...second.counts])).toMatchObject({ 'stepStopped:main:hello:v2': 1 });
    expect(totals([...first.counts, ...second.counts])['stepStopped:main:hello:v1']).toBeUndefined();
  });

  it('when a conversation is long, then its kept words stop at the bound and its summary names the user, steps and error', () => {
    let trail: unknown;
    for (let i = 0; i < 60; i++) {
      trail = advanceTrail(
        facts({
          now: T0 + i * 1000,
          before: trail,
          userWrote: true,
          userText: 'x'.repeat(50),
          integrationFailed: i === 3,
        }),
      ).trail;
    }
    const read = readTrail(trail)!;
    expect(read.t.length).toBe(SUMMARY_TEXT_LIMIT);
    const summary = summaryOf('u1', read, 'v1', { name: 'Ann' });
    expect(summary).toMatchObject({
      userId: 'u1',
      startedAt: T0,
      integrationError: true,
      messages: 60,
      userData: { name: 'Ann' },
    });
  });

  it('when the stored trail is not a trail (hand-made variable), then it is read as none and a new conversation starts', () => {
    expect(readTrail('text')).toBeUndefined();
    expect(readTrail({ c: 'x' })).toBeUndefined();
    expect(totals(advanceTrail(facts({ before: { c: 1, l: 'no' } })).counts)).toEqual({ 'conversations:v1': 1 });
  });
});
