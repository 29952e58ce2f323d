import { describe, expect, it } from 'vitest';
import { parseMessengerWebhook } from '../messenger-inbound.ts';
import { PAGE_ID, pageWebhook } from './messenger-webhooks.ts';

const psid = '1254477777772919';

describe('what a Messenger webhook means', () => {
  it('when a person taps a postback or quick reply carrying a choice, then it is that choice; other taps are their title typed', () => {
    const { messages, ignored } = parseMessengerWebhook(
      pageWebhook(
        psid,
        { postback: { mid: 'm_1', title: 'Pro', payload: 'choice:12.1' } },
        { message: { mid: 'm_2', text: 'Option 5', quick_reply: { payload: 'choice:14.4' } } },
        { message: { mid: 'm_3', text: 'Basic', quick_reply: { payload: 'reply:0' } } },
        { postback: { mid: 'm_4', title: 'Get Started', payload: 'GET_STARTED' } },
      ),
    );
    expect(ignored).toBe(0);
    expect(messages.map((message) => [message.eventId, message.address, message.input])).toEqual([
      ['m_1', psid, { kind: 'choice', choiceId: '12.1' }],
      ['m_2', psid, { kind: 'choice', choiceId: '14.4' }],
      ['m_3', psid, { kind: 'text', text: 'Basic' }],
      ['m_4', psid, { kind: 'text', text: 'Get Started' }],
    ]);
  });

  it("when the page's echo, a sticker without text or another object's webhook arrives, then nothing needs a turn", () => {
    expect(
      parseMessengerWebhook(
        pageWebhook(psid, { message: { mid: 'm_5', text: 'Welcome.', is_echo: true } }, { message: { mid: 'm_6' } }),
      ),
    ).toEqual({ messages: [], ignored: 2, otherPages: [] });
    expect(parseMessengerWebhook({ object: 'instagram', entry: [] })).toEqual({
      messages: [],
      ignored: 1,
      otherPages: [],
    });
  });

  it('when a postback has no mid (older API versions), then its id is its sender and time, the same on redelivery', () => {
    const payload = pageWebhook(psid, { postback: { mid: '', title: 'Pro', payload: 'choice:3.1' } });
    const [first] = parseMessengerWebhook(payload).messages;
    expect(first?.eventId).toMatch(new RegExp(`^postback:${psid}:\\d+$`));
    expect(parseMessengerWebhook(payload).messages[0]?.eventId).toBe(first?.eventId);
  });

  it("when MESSENGER_PAGE_ID is set and a webhook also holds another page's entry, then only this page's events need a turn, and the other page is named", () => {
    const mine = pageWebhook(psid, { message: { mid: 'm_7', text: 'Hello' } });
    const theirs = pageWebhook(psid, { message: { mid: 'm_8', text: 'Hello there' } });
    const both = { object: 'page', entry: [...mine.entry, { ...theirs.entry[0]!, id: '999000111' }] };
    expect(parseMessengerWebhook(both, PAGE_ID)).toEqual({
      messages: [expect.objectContaining({ eventId: 'm_7' })],
      ignored: 1,
      otherPages: ['999000111'],
    });
    // Unset: every page the app is subscribed to is answered, as before.
    expect(parseMessengerWebhook(both).messages.map((message) => message.eventId)).toEqual(['m_7', 'm_8']);
  });
});
