import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { choiceByAnswer, renderMessage } from '../connector/ladder.ts';
import { hostileBotMessage } from '../test/vendors/hostile-bot-messages.ts';
import { twilioFormProblems } from '../test/vendors/twilio/twilio-stand-in.ts';
import type { TwilioMessage } from './twilio-api.ts';
import { TWILIO_CAPABILITIES, twilioConnector, type TwilioFlavour } from './twilio-connector.ts';

describe('SMS and WhatsApp-through-Twilio rendering of messages over every limit', () => {
  for (const flavour of ['sms', 'whatsapp'] as const satisfies readonly TwilioFlavour[]) {
    it(`when any bot message is rendered for ${flavour}, then every form the connector posts passes Twilio's reference and every choice can be answered by number or label`, async () => {
      const forms: TwilioMessage[] = [];
      const connector = twilioConnector({
        flavour,
        accountSid: `AC${'5'.repeat(32)}`,
        authToken: 'token',
        from: '+15017122661',
        publicUrl: 'https://bot.example.com',
        send: (message) => {
          forms.push(message);
          return Promise.resolve({ sid: 'SM', segments: 1 });
        },
        onStatus: () => undefined,
        onKeyword: () => Promise.resolve(),
      });
      await fc.assert(
        fc.asyncProperty(hostileBotMessage, fc.integer({ min: 1, max: 1_000_000 }), async (message, seq) => {
          forms.length = 0;
          const rendered = renderMessage(message, TWILIO_CAPABILITIES[flavour], seq);
          for (const part of rendered.parts) await connector.send('+15558675310', part);
          for (const form of forms)
            expect(
              twilioFormProblems({ ...form, ...(form.MediaUrl ? { MediaUrl: [...form.MediaUrl] } : {}) }),
            ).toBeNull();
          // No buttons here: each choice is answered by typing its number or its title.
          for (const choice of rendered.choices) {
            const typed = [String(choice.number), choice.title].some(
              (answer) => choiceByAnswer(answer, rendered.choices)?.message === choice.message,
            );
            expect(typed, `choice ${choice.number} "${choice.title}"`).toBe(true);
          }
        }),
        { numRuns: 300 },
      );
    });
  }
});
