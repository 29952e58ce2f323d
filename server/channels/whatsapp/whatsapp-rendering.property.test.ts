import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { choiceByAnswer, renderMessage } from '../connector/ladder.ts';
import { hostileBotMessage } from '../test/vendors/hostile-bot-messages.ts';
import { whatsAppMessageProblems } from '../test/vendors/whatsapp/whatsapp-cloud-stand-in.ts';
import { WHATSAPP_CAPABILITIES, messagesFor } from './whatsapp-connector.ts';

/** The ids a user can tap in one Cloud API message: its reply buttons and list rows. */
function tappableIds(message: Record<string, unknown>): string[] {
  const action = (
    message.interactive as
      { action?: { buttons?: { reply: { id: string } }[]; sections?: { rows: { id: string }[] }[] } } | undefined
  )?.action;
  return [
    ...(action?.buttons?.map((button) => button.reply.id) ?? []),
    ...(action?.sections?.flatMap((section) => section.rows.map((row) => row.id)) ?? []),
  ];
}

describe('WhatsApp rendering of messages over every limit', () => {
  it("when any bot message is rendered for WhatsApp, then every message the connector sends passes Meta's reference and every choice can be answered", () => {
    fc.assert(
      fc.property(hostileBotMessage, fc.integer({ min: 1, max: 1_000_000 }), (message, seq) => {
        const rendered = renderMessage(message, WHATSAPP_CAPABILITIES, seq);
        const sent = rendered.parts.flatMap((part) => messagesFor('16505551234', part));
        for (const body of sent)
          expect(
            whatsAppMessageProblems({ messaging_product: 'whatsapp', recipient_type: 'individual', ...body }),
          ).toEqual([]);
        const ids = new Set(rendered.choices.map((choice) => choice.id));
        const tappable = new Set(sent.flatMap(tappableIds));
        for (const id of tappable) expect(ids.has(id)).toBe(true);
        // Each choice is answerable: tapped natively, or typed as its number or its title.
        for (const choice of rendered.choices) {
          const typed = [String(choice.number), choice.title].some(
            (answer) => choiceByAnswer(answer, rendered.choices)?.message === choice.message,
          );
          expect(tappable.has(choice.id) || typed, `choice ${choice.number} "${choice.title}"`).toBe(true);
        }
      }),
      { numRuns: 400 },
    );
  });
});
