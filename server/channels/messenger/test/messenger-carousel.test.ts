import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestServer, storeLegs, type TestServer } from '../../../test/start-test-server.ts';
import { startMessengerStandIn, type MessengerStandIn } from './messenger-stand-in.ts';
import { newMid, pageWebhook, postMessengerWebhook, textEvent } from './messenger-webhooks.ts';

const pageAccessToken = 'EAAmessenger-carousel-page-access-token-0123456789';
const appSecret = 'messenger-carousel-app-secret-0123456789';

/** A first question (a person's first message answers it), ten concerts to book (as many as one generic template holds), then what was booked. */
const carouselBot = {
  settings: { id: 'carousel-bot', name: 'Carousel bot', startDialog: 'home' },
  dialogs: [
    {
      id: 'home',
      steps: [
        { id: 'why', type: 'input', prompt: 'What brings you here?', saveTo: { variable: 'why' } },
        {
          id: 'concerts',
          type: 'message',
          cards: Array.from({ length: 10 }, (_, i) => ({
            title: `Concert ${i + 1}`,
            subtitle: `Friday at ${i + 1} pm`,
            imageUrl: `https://cdn.example.com/concert-${i + 1}.png`,
            buttons: [
              { kind: 'postback', label: 'Book', payload: `concert-${i + 1}` },
              { kind: 'dialog', label: 'Ask', dialog: 'ask' },
            ],
          })),
        },
        { id: 'which', type: 'input', prompt: 'Which one?', saveTo: { variable: 'booked' } },
        { id: 'booked', type: 'message', text: 'Booked: {{booked}}.' },
      ],
    },
    { id: 'ask', steps: [{ id: 'asked', type: 'message', text: 'Ask away.' }] },
  ],
};

interface Element {
  title: string;
  buttons: { type: string; title: string; payload: string }[];
}

for (const leg of storeLegs()) {
  describe.skipIf(leg.skip)(`a carousel on Messenger (${leg.name})`, () => {
    let messenger: MessengerStandIn;
    let server: TestServer;
    let dir: string;
    let webhook: string;
    const to = (psid: string) => messenger.accepted().filter((message) => message.to === psid);

    beforeAll(async () => {
      messenger = await startMessengerStandIn({ pageAccessToken });
      dir = await mkdtemp(path.join(tmpdir(), 'messenger-carousel-'));
      const file = path.join(dir, 'bot.json');
      await writeFile(file, JSON.stringify(carouselBot));
      server = await startTestServer({
        ...leg.env(),
        BOT_DEFINITION: file,
        MESSENGER_PAGE_ACCESS_TOKEN: pageAccessToken,
        MESSENGER_APP_SECRET: appSecret,
        MESSENGER_VERIFY_TOKEN: 'messenger-carousel-verify-token',
        MESSENGER_API_URL: messenger.graphUrl,
      });
      webhook = `${server.url}/api/webhooks/messenger`;
    });

    afterAll(async () => {
      await server?.stop();
      await messenger?.close();
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    it("when the bot shows ten cards, then one generic template carries them; a card's button pressed reaches the dialog as that button's value", async () => {
      const ada = '1254477777772920';
      await postMessengerWebhook(webhook, pageWebhook(ada, textEvent('Hi')), appSecret);
      await eventually('the carousel and the question', () => to(ada).length >= 3);
      const template = (
        to(ada)[1]!.message as { attachment: { payload: { template_type: string; elements: Element[] } } }
      ).attachment.payload;
      expect(template.template_type).toBe('generic');
      expect(template.elements.map((element) => element.title)).toEqual(
        Array.from({ length: 10 }, (_, i) => `Concert ${i + 1}`),
      );
      expect(to(ada)[2]!.message).toEqual({ text: 'Which one?' });

      // The seventh card's "Book" (titled "Book (7)" to tell it from the others).
      const book = template.elements[6]!.buttons[0]!;
      expect(book.title).toBe('Book (7)');
      const tap = pageWebhook(ada, { postback: { mid: newMid(), title: book.title, payload: book.payload } });
      expect((await postMessengerWebhook(webhook, tap, appSecret)).status).toBe(200);
      await eventually('the booking', () => to(ada).length >= 4);
      expect(to(ada)[3]!.message).toEqual({ text: 'Booked: concert-7.' });

      // An older card's dialog button still starts its dialog.
      const ask = template.elements[2]!.buttons[1]!;
      const askTap = pageWebhook(ada, { postback: { mid: newMid(), title: ask.title, payload: ask.payload } });
      expect((await postMessengerWebhook(webhook, askTap, appSecret)).status).toBe(200);
      await eventually('the dialog the button names', () => to(ada).length >= 5);
      expect(to(ada)[4]!.message).toEqual({ text: 'Ask away.' });
      expect(messenger.log.filter((entry) => entry.status !== 200)).toEqual([]);
    });
  });
}
