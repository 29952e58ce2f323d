import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BotEvent, Session } from '../shared/protocol.ts';
import {
  botTexts,
  connectClient,
  eventually,
  startTestServer,
  type TestClient,
  type TestServer,
} from '../server/test/start-test-server.ts';

/** The demo bot as `npm start` runs it (no SMTP, no SMS provider), toured step kind by step kind. */
describe('the demo bot tour', () => {
  let server: TestServer;
  let client: TestClient & { items: ReturnType<typeof connectClient>['items'] };
  const events: BotEvent[] = [];
  let n = 0;
  // As the widget does: a message refused as rate limited (the tour is faster than any person) is sent again, same client id.
  const sent = async (send: () => Promise<{ ok: boolean; error?: { code: string } }>) => {
    for (;;) {
      const answer = await send();
      if (answer.ok || answer.error?.code !== 'rate_limited') return answer;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const pick = (label: string, payload: string) => {
    const clientId = `p${++n}`;
    return sent(() => client.emitWithAck('press', { clientId, label, action: { kind: 'postback', payload } }));
  };
  const say = (text: string) => {
    const clientId = `m${++n}`;
    return sent(() => client.emitWithAck('message', { clientId, text }));
  };
  const heard = (text: string) => eventually(JSON.stringify(text), () => botTexts(client.items).includes(text));
  const menu = 'What would you like to see? Each option shows one kind of step.';

  beforeAll(async () => {
    process.env.DEMO_OPERATION_TIMEOUT = '300ms';
    server = await startTestServer({ WEBCHAT_RATE_LIMIT: '10000' });
    client = connectClient(server.url);
    client.on('bot_event', (event) => events.push(event));
    await new Promise<Session>((resolve) => client.once('session', resolve));
    await heard("What's your name?");
    await say('Ada');
    await heard('Nice to meet you, Ada!');
  });
  afterAll(async () => {
    client?.disconnect();
    await server?.stop();
  });

  it('when the person picks "Show me around" and then "Messages", then text with buttons, an image, a carousel and quick replies arrive', async () => {
    const welcome = client.items.at(-1)?.message;
    expect(welcome).toMatchObject({
      type: 'text',
      quickReplies: [
        { label: 'Show me around', payload: 'tour' },
        { label: 'Ask a question', payload: 'faq' },
      ],
    });
    await pick('Show me around', 'tour');
    await heard(menu);
    await pick('Messages', 'messages');
    await heard('Quick replies sit under the latest message:');
    const types = client.items.slice(-4).map((i) => i.message.type);
    expect(types).toEqual(['text', 'image', 'carousel', 'text']);
    const text = client.items.at(-4)?.message as { buttons?: { kind: string; url?: string }[] };
    expect(text.buttons?.map((b) => b.kind)).toEqual(['url', 'dialog', 'postback']);
    expect(text.buttons?.[0]?.url).toMatch(new RegExp(`^${server.url}/r/`));
  });

  it('when the person types "menu" at a quick-reply message, then NLP takes them to the menu', async () => {
    await say('menu');
    await eventually('the menu again', () => botTexts(client.items).filter((t) => t === menu).length === 2);
  });

  it('when the person plays with numbers, then input, condition, set and goto answer', async () => {
    await pick('Numbers & conditions', 'numbers');
    await heard('Pick a number from 1 to 10.');
    await say('eleven');
    await heard("That's not a number from 1 to 10. Try again?");
    await say('2');
    await heard('2 is a small number.');
  });

  it('when the person asks a question, then the FAQ answers it', async () => {
    await pick('Ask a question', 'faq');
    await heard('Ask me anything about this bot.');
    await say('are you a bot');
    await heard("I'm the demo bot: a conversation tree of dialogs and steps.");
  });

  it('when email and SMS are not configured, then those steps take their failure path', async () => {
    await pick('Email me', 'email');
    await heard('Which email address should I write to?');
    await say('ada@example.com');
    await heard("I couldn't send it (the server has no mail set up).");
    await pick('Text me', 'sms');
    await heard('Which phone number should I text?');
    await say('+47 123 45 678');
    await heard("I couldn't send it (the server has no SMS provider set up).");
  });

  it('when the person starts the timer and waits, then the no-answer timeout speaks', async () => {
    await pick('Long operation (timer)', 'timer');
    await heard('Your operation did not complete in time. Nothing was charged; please try again later.');
  });

  it('when the page sends pricingClicked or starts the sales dialog, then the bot answers from the page data', async () => {
    await sent(() => client.emitWithAck('page_event', { name: 'pricingClicked', payload: { plan: 'pro' } }));
    await heard('The Pro plan is 20 € a month, with a 14-day trial.');
    await sent(() => client.emitWithAck('start_dialog', { dialogId: 'sales', data: { product: 'Widgets' } }));
    await heard("You'd like to talk about Widgets? Our sales team will write to you.");
    await say('show me the menu');
    await eventually('the menu', () => botTexts(client.items).at(-1) === menu);
  });

  it('when the person says goodbye, then the page gets the close-chat event; "Forget me" clears the data', async () => {
    await pick('Page event', 'event');
    await eventually('the close-chat event', () => events.length > 0);
    expect(events[0]).toEqual({ name: 'closeChat', payload: { reason: 'goodbye', name: 'Ada' } });
    await say('show me the menu');
    await eventually('the menu', () => botTexts(client.items).at(-1) === menu);
    await pick('Forget me', 'forget');
    await heard('Done: I kept a snapshot for the records and forgot what I knew about you.');
    const snapshots = [];
    for await (const row of server.store.readLogs('userDataSnapshot', {})) snapshots.push(row.data);
    expect(snapshots).toEqual([{ name: 'Ada', email: 'ada@example.com', page: null, triggerData: null }]);
  });
});
