import { describe, it } from 'vitest';
import { storeLegs } from '../../../test/start-test-server.ts';
import { proveCrashBetweenAckAndTurn } from '../../test/crash-between-ack-and-turn.ts';
import { startMessengerStandIn } from './messenger-stand-in.ts';
import { pageWebhook, postMessengerWebhook, textEvent } from './messenger-webhooks.ts';

const pageAccessToken = 'EAAmessenger-crash-page-token-0123456789';
const appSecret = 'messenger-crash-app-secret-0123456789';
const psid = '1254477777779901';

for (const leg of storeLegs()) {
  describe.skipIf(leg.skip)(`Messenger across a crash (${leg.name})`, () => {
    it('when the process is killed after the webhook answered 200 and before the turn ran, then the turn runs after the restart, once', async () => {
      const messenger = await startMessengerStandIn({ pageAccessToken });
      try {
        await proveCrashBetweenAckAndTurn(leg.env(), {
          channel: 'messenger',
          env: {
            MESSENGER_PAGE_ACCESS_TOKEN: pageAccessToken,
            MESSENGER_APP_SECRET: appSecret,
            MESSENGER_VERIFY_TOKEN: 'messenger-crash-verify-token-0123',
            MESSENGER_API_URL: messenger.graphUrl,
          },
          message(text) {
            const payload = pageWebhook(psid, textEvent(text));
            return (webhook) => postMessengerWebhook(webhook, payload, appSecret);
          },
          said: () =>
            messenger
              .accepted()
              .filter((message) => message.to === psid)
              .map((message) => String((message.message as { text?: string }).text ?? '<template>')),
        });
      } finally {
        await messenger.close();
      }
    }, 120_000);
  });
}
