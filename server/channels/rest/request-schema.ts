import { z } from 'zod';
import { MAX_TEXT_BYTES } from '../../../shared/protocol.ts';

const clientId = z.string().min(1, 'clientId must not be empty').max(128, 'clientId must be at most 128 characters');
const name = z.string().min(1).max(128);
const record = z.record(z.string(), z.unknown());

/** The user typed text. */
const text = z.strictObject({
  type: z.literal('text'),
  clientId,
  text: z
    .string()
    .min(1, 'text must not be empty')
    .refine((value) => Buffer.byteLength(value) <= MAX_TEXT_BYTES, `text must be at most ${MAX_TEXT_BYTES} bytes`),
});

/** The user pressed a postback button or quick reply (label as shown, payload as the bot sent it). */
const button = z.strictObject({
  type: z.literal('button'),
  clientId,
  label: z.string().max(256),
  payload: z.string().min(1).max(1024),
});

/** The user pressed a start-a-dialog button. */
const dialog = z.strictObject({ type: z.literal('dialog'), clientId, label: z.string().max(256), dialogId: name });

/**
 * The kinds of event a channel may send, as the web chat's page sends them. Each carries a
 * clientId like a message: a resent event is recognised (see event-marks.ts), runs once
 * and is answered with the same replies.
 */
export const EVENT_KINDS = ['setUserData', 'startDialog', 'pageEvent'] as const;

const event = z.discriminatedUnion('event', [
  z.strictObject({ type: z.literal('event'), clientId, event: z.literal('setUserData'), fields: record }),
  z.strictObject({
    type: z.literal('event'),
    clientId,
    event: z.literal('startDialog'),
    dialogId: name,
    data: record.optional(),
  }),
  z.strictObject({
    type: z.literal('event'),
    clientId,
    event: z.literal('pageEvent'),
    name,
    payload: record.optional(),
  }),
]);

/** What `POST …/messages` accepts. */
export const inboundSchema = z.discriminatedUnion('type', [text, button, dialog, event]);
export type Inbound = z.infer<typeof inboundSchema>;

/** `GET …/messages?after=<seq>`: seq is the last one the channel has. */
export const afterSchema = z
  .string()
  .regex(/^(0|[1-9]\d{0,15})$/)
  .transform(Number)
  .optional();
