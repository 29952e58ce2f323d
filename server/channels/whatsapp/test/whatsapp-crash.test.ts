import { describe, it } from 'vitest';
import { storeLegs } from '../../../test/start-test-server.ts';
import { proveCrashBetweenAckAndTurn } from '../../test/crash-between-ack-and-turn.ts';
import { startWhatsAppCloudStandIn } from '../../test/vendors/whatsapp/whatsapp-cloud-stand-in.ts';
import {
  incomingMessage,
  newWhatsAppMessageId,
  postWhatsAppWebhook,
} from '../../test/vendors/whatsapp/whatsapp-webhooks.ts';

const accessToken = 'EAAwhatsapp-crash-access-token-0123456789';
const appSecret = 'whatsapp-crash-app-secret-0123456789ab';
const number = { wabaId: '419561257915477', phoneNumberId: '106540352242922', displayPhoneNumber: '15550783881' };
const waId = '16505550901';

for (const leg of storeLegs()) {
  describe.skipIf(leg.skip)(`WhatsApp across a crash (${leg.name})`, () => {
    it('when the process is killed after the webhook answered 200 and before the turn ran, then the turn runs after the restart, once', async () => {
      const whatsApp = await startWhatsAppCloudStandIn({ accessToken, phoneNumberId: number.phoneNumberId });
      try {
        await proveCrashBetweenAckAndTurn(leg.env(), {
          channel: 'whatsapp',
          env: {
            WHATSAPP_ACCESS_TOKEN: accessToken,
            WHATSAPP_PHONE_NUMBER_ID: number.phoneNumberId,
            WHATSAPP_APP_SECRET: appSecret,
            WHATSAPP_VERIFY_TOKEN: 'whatsapp-crash-verify-token-0123',
            WHATSAPP_API_URL: whatsApp.graphUrl,
          },
          message(text) {
            const payload = incomingMessage(
              number,
              { waId, name: 'Ada' },
              { type: 'text', text: { body: text } },
              { id: newWhatsAppMessageId() },
            );
            return (webhook) => postWhatsAppWebhook(webhook, payload, appSecret);
          },
          said: () =>
            whatsApp
              .accepted()
              .filter((message) => message.to === waId)
              .map((message) => (message.body as { text?: { body: string } }).text?.body ?? `<${message.type}>`),
        });
      } finally {
        await whatsApp.close();
      }
    }, 120_000);
  });
}
