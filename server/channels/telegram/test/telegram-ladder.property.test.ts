import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Button } from '../../../../shared/protocol.ts';
import { choiceByAnswer, renderMessage, type Choice } from '../../connector/ladder.ts';
import { answerable, message } from '../../connector/test/ladder-properties.ts';
import { telegramApi } from '../telegram-api.ts';
import { TELEGRAM_CAPABILITIES, telegramConnector } from '../telegram-connector.ts';
import { startTelegramStandIn, type TelegramStandIn } from './telegram-stand-in.ts';

describe('the rendering ladder on Telegram', () => {
  let standIn: TelegramStandIn;
  beforeAll(async () => {
    standIn = await startTelegramStandIn();
  });
  afterAll(async () => {
    await standIn?.close();
  });

  it('when any message is rendered (over-long texts, many or duplicate buttons, emoji, combining marks, right to left), then Telegram accepts every part and every choice can be answered', async () => {
    const connector = telegramConnector({
      call: telegramApi({ token: standIn.token, apiUrl: standIn.url }),
      secret: 'unused-secret-0123456789',
      token: standIn.token,
    });
    let parts = 0;
    await fc.assert(
      fc.asyncProperty(message, fc.integer({ min: 1, max: 1_000_000 }), async (said, seq) => {
        const rendered = renderMessage(said, TELEGRAM_CAPABILITIES, seq);
        expect(rendered.parts.length).toBeGreaterThan(0);
        for (const part of rendered.parts) {
          await connector.send('4242', part);
          parts++;
        }
        answerable(rendered, seq);
      }),
      { numRuns: 300 },
    );
    const refused = standIn.calls.filter((call) => call.status !== 200);
    expect(refused.map((call) => call.description)).toEqual([]);
    expect(standIn.calls).toHaveLength(parts);
  });

  it('when nine buttons are more than Telegram shows, then the message is numbered text, and "9" or a title picks the choice', () => {
    const buttons: Button[] = Array.from({ length: 9 }, (_, i) => ({
      kind: 'postback',
      label: `Option ${i + 1}`,
      payload: `p${i + 1}`,
    }));
    const rendered = renderMessage({ type: 'text', text: 'Pick one.', buttons }, TELEGRAM_CAPABILITIES, 7);
    expect(rendered.degraded).toBe(true);
    expect(rendered.parts).toEqual([
      { kind: 'text', text: `Pick one.\n\n${buttons.map((b, i) => `${i + 1}. ${b.label}`).join('\n')}` },
    ]);
    expect((choiceByAnswer('9', rendered.choices) as Choice).message).toEqual({
      type: 'postback',
      label: 'Option 9',
      payload: 'p9',
    });
    expect((choiceByAnswer(' option 3 ', rendered.choices) as Choice).message).toEqual({
      type: 'postback',
      label: 'Option 3',
      payload: 'p3',
    });
  });
});
