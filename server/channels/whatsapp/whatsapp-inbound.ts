import { z } from 'zod';
import type { InboundMessage } from '../connector/connector.ts';

/**
 * The parts of a WhatsApp Cloud API webhook the connector reads (Meta's WebhookPayload: entries of
 * changes of a business number's messages and statuses). Everything else Meta sends is passed over.
 */
const incomingSchema = z.looseObject({
  from: z.string().min(1).max(32),
  id: z.string().min(1).max(256),
  type: z.string(),
  text: z.looseObject({ body: z.string() }).optional(),
  interactive: z
    .looseObject({
      type: z.string(),
      button_reply: z.looseObject({ id: z.string(), title: z.string().optional() }).optional(),
      list_reply: z.looseObject({ id: z.string(), title: z.string().optional() }).optional(),
    })
    .optional(),
  // A tapped quick-reply button of a template.
  button: z.looseObject({ text: z.string().optional(), payload: z.string().optional() }).optional(),
  image: z.looseObject({ caption: z.string().optional() }).optional(),
  video: z.looseObject({ caption: z.string().optional() }).optional(),
  document: z.looseObject({ caption: z.string().optional() }).optional(),
});

const statusSchema = z.looseObject({
  id: z.string(),
  status: z.string(),
  timestamp: z.string().optional(),
  recipient_id: z.string().optional(),
  errors: z
    .array(
      z.looseObject({
        code: z.number().optional(),
        title: z.string().optional(),
        message: z.string().optional(),
        error_data: z.looseObject({ details: z.string().optional() }).optional(),
      }),
    )
    .optional(),
});

const valueSchema = z.looseObject({
  metadata: z.looseObject({ phone_number_id: z.string() }).optional(),
  contacts: z
    .array(
      z.looseObject({
        wa_id: z.string().optional(),
        profile: z.looseObject({ name: z.string().optional() }).optional(),
      }),
    )
    .optional(),
  messages: z.array(z.unknown()).optional(),
  statuses: z.array(z.unknown()).optional(),
});

const payloadSchema = z.looseObject({
  object: z.string(),
  entry: z
    .array(
      z.looseObject({
        changes: z.array(z.looseObject({ field: z.string().optional(), value: z.unknown() })).default([]),
      }),
    )
    .default([]),
});

/** What Meta reports about a message the bot sent: it left, arrived, was read, or failed (with Meta's code). */
export interface WhatsAppStatus {
  readonly messageId: string;
  readonly status: 'sent' | 'delivered' | 'read' | 'failed';
  readonly recipient: string;
  readonly errorCode?: number;
  readonly errorTitle?: string;
}

export interface ParsedWebhook {
  readonly messages: readonly InboundMessage[];
  readonly statuses: readonly WhatsAppStatus[];
  /** Events passed over (another number's, a kind the bot cannot answer), counted for the log. */
  readonly ignored: number;
}

/** What the user did, as the core understands it; null for what the bot cannot answer (a sticker, a location). */
function inputOf(message: z.infer<typeof incomingSchema>): InboundMessage['input'] | null {
  const reply = message.interactive?.button_reply ?? message.interactive?.list_reply;
  if (message.type === 'interactive' && reply) return { kind: 'choice', choiceId: reply.id };
  const text =
    message.text?.body ??
    message.button?.text ??
    message.button?.payload ??
    message.image?.caption ??
    message.video?.caption ??
    message.document?.caption;
  return text !== undefined && text.trim() !== '' ? { kind: 'text', text: text.slice(0, 4096) } : null;
}

/**
 * A webhook's events for `phoneNumberId`: the users' messages (each under Meta's message id, which a
 * redelivery repeats) and the statuses of the bot's own messages. A webhook of another business
 * number on the same app is passed over, not answered from this one.
 */
export function parseWhatsAppWebhook(body: unknown, phoneNumberId: string): ParsedWebhook {
  const payload = payloadSchema.safeParse(body);
  if (!payload.success || payload.data.object !== 'whatsapp_business_account')
    return { messages: [], statuses: [], ignored: 1 };
  const messages: InboundMessage[] = [];
  const statuses: WhatsAppStatus[] = [];
  let ignored = 0;
  for (const change of payload.data.entry.flatMap((entry) => entry.changes)) {
    const value = valueSchema.safeParse(change.value);
    if (!value.success || value.data.metadata?.phone_number_id !== phoneNumberId) {
      ignored += 1;
      continue;
    }
    const names = new Map(
      (value.data.contacts ?? []).flatMap((contact) =>
        contact.wa_id && contact.profile?.name ? [[contact.wa_id, contact.profile.name] as const] : [],
      ),
    );
    for (const raw of value.data.messages ?? []) {
      const message = incomingSchema.safeParse(raw);
      const input = message.success ? inputOf(message.data) : null;
      if (!message.success || input === null) {
        ignored += 1;
        continue;
      }
      const name = names.get(message.data.from);
      const userData: Record<string, string> = {
        phoneNumber: `+${message.data.from.replace(/\D/g, '')}`,
        ...(name ? { whatsappName: name.slice(0, 200) } : {}),
      };
      messages.push({ eventId: message.data.id, address: message.data.from, input, userData });
    }
    for (const raw of value.data.statuses ?? []) {
      const status = statusSchema.safeParse(raw);
      if (!status.success || !['sent', 'delivered', 'read', 'failed'].includes(status.data.status)) {
        ignored += 1;
        continue;
      }
      const error = status.data.errors?.[0];
      statuses.push({
        messageId: status.data.id,
        status: status.data.status as WhatsAppStatus['status'],
        recipient: status.data.recipient_id ?? '',
        ...(error?.code !== undefined ? { errorCode: error.code } : {}),
        ...(error?.title !== undefined || error?.message !== undefined
          ? { errorTitle: String(error.error_data?.details ?? error.title ?? error.message).slice(0, 300) }
          : {}),
      });
    }
  }
  return { messages, statuses, ignored };
}
