import { describe, expect, it } from 'vitest';
import type { TranscriptItem } from '../../shared/protocol.ts';
import { render } from './render.ts';

const bot = (seq: number, message: TranscriptItem['message']): TranscriptItem => ({
  seq,
  from: 'bot',
  at: '2026-11-24T00:00:00.000Z',
  clientId: null,
  message,
});

describe('terminal chat rendering', () => {
  it("when the latest message has buttons and quick replies, then they are listed by number and pressing one sends its payload; an earlier message's quick replies are gone", () => {
    const { lines, choices } = render([
      bot(1, { type: 'text', text: 'Old.', quickReplies: [{ label: 'Stale', payload: 'stale' }] }),
      bot(2, {
        type: 'text',
        text: 'Pick one.',
        buttons: [
          { kind: 'postback', label: 'Pro', payload: 'pro' },
          { kind: 'url', label: 'Docs', url: 'https://bot.example/r/t' },
        ],
        quickReplies: [{ label: 'Basic', payload: 'basic' }],
      }),
    ]);
    expect(lines).toEqual([
      'bot: Old.',
      'bot: Pick one.',
      '  [1] Pro',
      '  [2] Docs → https://bot.example/r/t',
      '  [3] Basic',
    ]);
    expect(choices?.[0]).toEqual({ label: 'Pro', send: { type: 'button', label: 'Pro', payload: 'pro' } });
    expect(choices?.[2]).toEqual({ label: 'Basic', send: { type: 'button', label: 'Basic', payload: 'basic' } });
  });

  it('when a message with buttons is followed by a prompt, then its buttons stay under it, not under the prompt', () => {
    const { lines, choices } = render([
      bot(1, {
        type: 'text',
        text: 'Pick a topic.',
        buttons: [{ kind: 'postback', label: 'Pricing', payload: 'pricing' }],
      }),
      bot(2, { type: 'text', text: 'Or type your name.' }),
    ]);
    expect(lines).toEqual(['bot: Pick a topic.', '  [1] Pricing', 'bot: Or type your name.']);
    expect(choices).toHaveLength(1);
  });

  it('when a batch has no buttons, then there is nothing to press: the earlier numbers are gone', () => {
    expect(render([bot(3, { type: 'text', text: 'Thanks.' })])).toEqual({ lines: ['bot: Thanks.'], choices: [] });
    expect(
      render([bot(4, { type: 'event', name: 'x', payload: {} } as unknown as TranscriptItem['message'])]).choices,
    ).toBeUndefined();
  });

  it("when a carousel's cards carry dialog buttons, then each is a numbered choice that starts its dialog", () => {
    const { lines, choices } = render([
      bot(1, {
        type: 'carousel',
        cards: [{ title: 'Meetup', subtitle: 'May', buttons: [{ kind: 'dialog', label: 'Join', dialogId: 'join' }] }],
      }),
    ]);
    expect(lines).toEqual(['bot: ▸ Meetup (May)', '  [1] Join']);
    expect(choices?.[0]).toEqual({ label: 'Join', send: { type: 'dialog', label: 'Join', dialogId: 'join' } });
  });

  it("when the bot sent an event, then it is shown by name and the earlier message's buttons stay answerable", () => {
    const { lines, choices } = render([
      bot(1, { type: 'text', text: 'Pick one.', quickReplies: [{ label: 'Basic', payload: 'basic' }] }),
      bot(2, { type: 'event', name: 'planShown', payload: {} } as unknown as TranscriptItem['message']),
    ]);
    expect(lines).toEqual(['bot: Pick one.', '  [1] Basic', '(event planShown)']);
    expect(choices).toHaveLength(1);
  });
});
