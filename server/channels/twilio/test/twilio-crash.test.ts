import { describe, it } from 'vitest';
import { storeLegs } from '../../../test/start-test-server.ts';
import { proveCrashBetweenAckAndTurn } from '../../test/crash-between-ack-and-turn.ts';
import { startTwilioStandIn } from '../../test/vendors/twilio/twilio-stand-in.ts';
import { incomingTwilioMessage, newMessageSid, postTwilioWebhook } from '../../test/vendors/twilio/twilio-webhooks.ts';

const accountSid = `AC${'5'.repeat(32)}`;
const authToken = 'fedcba9876543210fedcba9876543210';
const smsNumber = '+15017122661';
/** What Twilio was told: the public address, which the signature covers. */
const publicUrl = 'https://bot.example.com';
const ada = '+15558670901';

for (const leg of storeLegs()) {
  describe.skipIf(leg.skip)(`SMS through Twilio across a crash (${leg.name})`, () => {
    it('when the process is killed after the webhook answered 200 and before the turn ran, then the turn runs after the restart, once', async () => {
      const twilio = await startTwilioStandIn({ accountSid, authToken });
      try {
        await proveCrashBetweenAckAndTurn(leg.env(), {
          channel: 'twilio-sms',
          env: {
            PUBLIC_URL: publicUrl,
            TWILIO_ACCOUNT_SID: accountSid,
            TWILIO_AUTH_TOKEN: authToken,
            TWILIO_SMS_FROM: smsNumber,
            TWILIO_API_URL: twilio.apiUrl,
          },
          message(text) {
            const params = incomingTwilioMessage({
              accountSid,
              from: ada,
              to: smsNumber,
              body: text,
              messageSid: newMessageSid(),
            });
            return (webhook) => postTwilioWebhook(webhook, `${publicUrl}/api/webhooks/twilio-sms`, params, authToken);
          },
          said: () =>
            twilio
              .accepted()
              .filter((message) => message.to === ada)
              .map((message) => message.body ?? '<media>'),
        });
      } finally {
        await twilio.close();
      }
    }, 120_000);
  });
}
