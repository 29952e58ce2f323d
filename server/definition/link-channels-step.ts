import { z } from 'zod';
import { id, target, template } from './common.ts';

/**
 * "Link channels": the bot shows a one-time code on the channel the user is on and asks them to
 * send it on another channel; once it arrives there, the two addresses are one person and the
 * dialog goes on at `next`, on the channel the user is on (docs/channels.md, "One conversation
 * across channels"). A step kind of its own beside those in steps.ts.
 */
export const linkChannelsStep = z
  .object({
    id: id.describe('The step id, unique in its dialog: targets (next, then, goto) name it.'),
    type: z
      .literal('linkChannels')
      .describe('Shows a one-time code to send on another channel; once it arrives there, both are one conversation.'),
    text: template()
      .refine((text) => /\{\{\s*linkCode\s*\}\}/.test(text), 'must show the code: put {{linkCode}} in it')
      .describe(
        'What the bot says with the code; {{linkCode}} is the one-time code, e.g. "Send {{linkCode}} to us on WhatsApp within 10 minutes." Other templates allowed.',
      ),
    minutes: z
      .number()
      .int()
      .min(1)
      .max(60)
      .optional()
      .describe('How long the code works, in minutes (10 when omitted). It works once.'),
    next: id
      .optional()
      .describe('Step to run once the code arrived on the other channel; the following step when omitted.'),
    onOtherText: target
      .optional()
      .describe(
        'Where to go when the user writes something else on this channel instead; `next` (unlinked) when omitted.',
      ),
  })
  .strict();
