import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestServer, storeLegs, type TestServer } from '../../../test/start-test-server.ts';
import { startMessengerStandIn, type MessengerStandIn } from './messenger-stand-in.ts';
import { pageWebhook, postMessengerWebhook, textEvent } from './messenger-webhooks.ts';

const pageAccessToken = 'EAAmessenger-image-paths-page-access-token-0123456789';
const appSecret = 'messenger-image-paths-app-secret-0123456789';

/** The bot's own pictures, given by their path on this server: an image, then two cards. */
const pictureBot = {
  settings: { id: 'picture-bot', name: 'Picture bot', startDialog: 'home' },
  dialogs: [
    {
      id: 'home',
      steps: [
        { id: 'why', type: 'input', prompt: 'What brings you here?', saveTo: { variable: 'why' } },
        { id: 'robot', type: 'message', image: { url: '/images/robot.png', alt: 'Our robot waving' } },
        {
          id: 'rooms',
          type: 'message',
          cards: ['Garden', 'Sea'].map((view) => ({
            title: `${view} room`,
            subtitle: `A room with a ${view.toLowerCase()} view`,
            imageUrl: `/images/${view.toLowerCase()}.png`,
            buttons: [{ kind: 'postback', label: 'Book', payload: view }],
          })),
        },
      ],
    },
  ],
};

interface Attachment {
  type: string;
  payload: { url?: string; template_type?: string; elements?: { title: string; image_url?: string }[] };
}

for (const leg of storeLegs()) {
  describe.skipIf(leg.skip)(`images given by their path, on Messenger (${leg.name})`, () => {
    let messenger: MessengerStandIn;
    let dir: string;
    let file: string;
    const servers: TestServer[] = [];
    const to = (psid: string) => messenger.accepted().filter((message) => message.to === psid);
    const start = async (env: Record<string, string>) => {
      const server = await startTestServer({
        ...leg.env(),
        BOT_DEFINITION: file,
        MESSENGER_PAGE_ACCESS_TOKEN: pageAccessToken,
        MESSENGER_APP_SECRET: appSecret,
        MESSENGER_VERIFY_TOKEN: 'messenger-image-paths-verify-token',
        MESSENGER_API_URL: messenger.graphUrl,
        ...env,
      });
      servers.push(server);
      return server;
    };

    beforeAll(async () => {
      messenger = await startMessengerStandIn({ pageAccessToken });
      dir = await mkdtemp(path.join(tmpdir(), 'messenger-image-paths-'));
      file = path.join(dir, 'bot.json');
      await writeFile(file, JSON.stringify(pictureBot));
    });

    afterAll(async () => {
      for (const server of servers) await server.stop();
      await messenger?.close();
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    it('when PUBLIC_URL is set, then the image and the cards reach Messenger with absolute addresses on it, and Messenger accepts them', async () => {
      const server = await start({ PUBLIC_URL: 'https://bot.example.com/chat/' });
      const ada = '1254477777772931';
      await postMessengerWebhook(`${server.url}/api/webhooks/messenger`, pageWebhook(ada, textEvent('Hi')), appSecret);
      await eventually('the question, the image and the cards', () => to(ada).length >= 3);
      const [, image, cards] = to(ada).map((sent) => (sent.message as { attachment?: Attachment }).attachment);
      expect(image).toMatchObject({ type: 'image', payload: { url: 'https://bot.example.com/chat/images/robot.png' } });
      expect(cards?.payload.elements?.map((element) => element.image_url)).toEqual([
        'https://bot.example.com/chat/images/garden.png',
        'https://bot.example.com/chat/images/sea.png',
      ]);
      expect(messenger.log.filter((entry) => entry.status !== 200)).toEqual([]);
      expect(server.logs.filter((line) => line.event === 'channel_image_paths_unresolved')).toEqual([]);
    });

    it('when PUBLIC_URL is not set, then start-up says so once naming it, the image goes as its description and the cards without their images, and Messenger refuses nothing', async () => {
      const server = await start({});
      const warnings = server.logs.filter((line) => line.event === 'channel_image_paths_unresolved');
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatchObject({ setting: 'PUBLIC_URL', channels: ['messenger'] });
      expect(String(warnings[0]!.msg)).toContain('PUBLIC_URL');
      const bo = '1254477777772932';
      await postMessengerWebhook(`${server.url}/api/webhooks/messenger`, pageWebhook(bo, textEvent('Hi')), appSecret);
      await eventually('the question, the image and the cards', () => to(bo).length >= 3);
      expect(to(bo)[1]!.message).toEqual({ text: 'Our robot waving' });
      const cards = (to(bo)[2]!.message as { attachment: Attachment }).attachment.payload;
      expect(cards.elements?.map((element) => [element.title, element.image_url])).toEqual([
        ['Garden room', undefined],
        ['Sea room', undefined],
      ]);
      expect(messenger.log.filter((entry) => entry.status !== 200)).toEqual([]);
      expect(server.logs.filter((line) => line.event === 'channel_image_paths_unresolved')).toHaveLength(1);
    });
  });
}
