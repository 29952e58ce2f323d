import { z } from 'zod';
import { template } from './common.ts';

/**
 * The approved WhatsApp message template a dialog opens with when the bot starts it on its own (a
 * trigger, a timer) outside WhatsApp's 24-hour customer service window: WhatsApp then carries only
 * a template the business had approved at Meta. The template stands for the messages the dialog
 * says before it waits for the user; the dialog runs on from there when the user answers.
 */
export const whatsAppTemplateSchema = z
  .object({
    name: z
      .string()
      .regex(/^[a-z0-9_]{1,512}$/, 'must be the template\'s name at Meta: lowercase letters, digits and "_"')
      .describe('The template\'s name as approved in WhatsApp Manager, e.g. "order_shipped".'),
    language: z
      .string()
      .regex(/^[a-z]{2,3}(_[A-Z][A-Za-z]{1,3})?$/, 'must be a language code Meta uses, such as "en", "en_US" or "de"')
      .describe('The language (and locale) of the approved translation to send, e.g. "en_US".'),
    parameters: z
      .array(template(1024))
      .max(100)
      .default([])
      .describe(
        "The body's parameters {{1}}, {{2}}, … in order, each a text with {{variable}} templates filled from the user's variables and user data (a trigger's body is triggerData).",
      ),
    contentSid: z
      .string()
      .regex(/^HX[0-9a-fA-F]{32}$/, 'must be a Twilio Content SID: "HX" and 32 hexadecimal digits')
      .optional()
      .describe(
        "The same template's Content SID at Twilio (Content Template Builder), for WhatsApp through Twilio: its variables {{1}}, {{2}}, … get the parameters in order. Without it, WhatsApp through Twilio refuses such triggers.",
      ),
  })
  .strict();

export type WhatsAppTemplate = z.infer<typeof whatsAppTemplateSchema>;
