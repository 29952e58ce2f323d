import { z } from 'zod';
import type { InboundMessage } from '../connector/connector.ts';

/**
 * The parts of a Messenger webhook the connector reads (Meta's Webhooks for Messenger: `object:
 * "page"`, entries of `messaging` events from a person, identified by their page-scoped id).
 * Everything else (deliveries, reads, reactions, the page's own echoes) is passed over.
 */
const eventSchema = z.looseObject({
  sender: z.looseObject({ id: z.string().min(1).max(64) }),
  recipient: z.looseObject({ id: z.string() }).optional(),
  timestamp: z.number().optional(),
  message: z
    .looseObject({
      mid: z.string().min(1).max(256),
      text: z.string().optional(),
      is_echo: z.boolean().optional(),
      quick_reply: z.looseObject({ payload: z.string() }).optional(),
    })
    .optional(),
  postback: z
    .looseObject({ mid: z.string().max(256).optional(), title: z.string().optional(), payload: z.string() })
    .optional(),
});

const payloadSchema = z.looseObject({
  object: z.string(),
  entry: z.array(z.looseObject({ id: z.string().optional(), messaging: z.array(z.unknown()).default([]) })).default([]),
});

/** What a choice's button or quick reply carries back: this prefix and the ladder's choice id. */
export const CHOICE_PAYLOAD = 'choice:';

/** A tap as the core understands it: one of the bot's choices, else the title the user saw (answered as typed). */
function tapped(payload: string, title: string | undefined): InboundMessage['input'] | null {
  if (payload.startsWith(CHOICE_PAYLOAD)) return { kind: 'choice', choiceId: payload.slice(CHOICE_PAYLOAD.length) };
  return title !== undefined && title.trim() !== '' ? { kind: 'text', text: title } : null;
}

/** What the person did; null for what the bot cannot answer (a sticker, a like, a location). */
function inputOf(event: z.infer<typeof eventSchema>): { id: string; input: InboundMessage['input'] } | null {
  if (event.postback) {
    const input = tapped(event.postback.payload, event.postback.title);
    // A postback without a mid (older API versions) is told apart by its sender and time, which Meta repeats on redelivery.
    const id = event.postback.mid || `postback:${event.sender.id}:${event.timestamp ?? 0}`;
    return input && { id, input };
  }
  const message = event.message;
  if (!message || message.is_echo === true) return null;
  if (message.quick_reply) {
    const input = tapped(message.quick_reply.payload, message.text);
    return input && { id: message.mid, input };
  }
  const text = message.text;
  return text !== undefined && text.trim() !== ''
    ? { id: message.mid, input: { kind: 'text', text: text.slice(0, 2000) } }
    : null;
}

/**
 * A webhook's events that need a turn, each under Meta's message id (`mid`, which a redelivery
 * repeats). The page's own messages come back as echoes (`is_echo`) when echoes are subscribed:
 * answering them would make the bot talk to itself. With `pageId`, entries of any other page (an
 * app subscribed to several) are passed over and named in `otherPages`.
 */
export function parseMessengerWebhook(
  body: unknown,
  pageId?: string,
): { messages: InboundMessage[]; ignored: number; otherPages: string[] } {
  const payload = payloadSchema.safeParse(body);
  if (!payload.success || payload.data.object !== 'page') return { messages: [], ignored: 1, otherPages: [] };
  const messages: InboundMessage[] = [];
  let ignored = 0;
  const otherPages = new Set<string>();
  const entries = payload.data.entry.filter((entry) => {
    if (pageId === undefined || entry.id === pageId) return true;
    otherPages.add(String(entry.id));
    ignored += entry.messaging.length;
    return false;
  });
  for (const raw of entries.flatMap((entry) => entry.messaging)) {
    const event = eventSchema.safeParse(raw);
    const read = event.success ? inputOf(event.data) : null;
    if (!event.success || read === null) {
      ignored += 1;
      continue;
    }
    messages.push({ eventId: read.id, address: event.data.sender.id, input: read.input, userData: {} });
  }
  return { messages, ignored, otherPages: [...otherPages] };
}
