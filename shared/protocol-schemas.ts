import { z } from 'zod';
import { MAX_JSON_DEPTH, MAX_JSON_NODES, checkJsonBounds, describeJsonExcess } from './json-bounds.ts';
import {
  MAX_TEXT_BYTES,
  type HandshakeAuth,
  type PageEventPayload,
  type PressPayload,
  type SendTextPayload,
  type SetUserDataPayload,
  type StartDialogPayload,
} from './protocol.ts';

/**
 * Runtime validators for everything a client sends. The server checks every
 * payload against these; the widget imports only the types in protocol.ts,
 * so zod never reaches the browser bundle.
 */

/**
 * Bounds on a whole client payload or handshake, checked before any schema: the page's
 * own objects (`user`, `fields`, `data`, `payload`) may nest MAX_JSON_DEPTH levels, and
 * the payload that carries them adds one.
 */
export const CLIENT_PAYLOAD_BOUNDS = { maxDepth: MAX_JSON_DEPTH + 1, maxNodes: MAX_JSON_NODES } as const;

/**
 * Why a client payload is beyond the bounds (a sentence for developers), or null.
 * Walks without recursion, so it is safe on anything socket.io could parse.
 */
export function clientPayloadExcess(value: unknown): string | null {
  const excess = checkJsonBounds(value, CLIENT_PAYLOAD_BOUNDS);
  if (!excess) return null;
  return describeJsonExcess(excess.limit === 'depth' ? { limit: 'depth', max: MAX_JSON_DEPTH } : excess);
}

const utf8Bytes = (text: string) => new TextEncoder().encode(text).length;

/**
 * Objects from the page: bounded so one client cannot make the server store megabytes.
 * The depth and value count come first, so JSON.stringify never meets a value that would overflow the stack.
 */
const record = z.record(z.string().max(64), z.unknown()).superRefine((value, ctx) => {
  const excess = checkJsonBounds(value);
  if (excess) ctx.addIssue({ code: 'custom', message: describeJsonExcess(excess) });
  else if (JSON.stringify(value).length > 16 * 1024) ctx.addIssue({ code: 'custom', message: 'is larger than 16 KB' });
});

export const handshakeAuthSchema = z
  .object({
    userId: z.string().min(1).max(128).optional(),
    token: z.string().min(1).max(512).optional(),
    lastSeq: z.number().int().min(0).optional(),
    user: record.optional(),
    locale: z.string().max(35).optional(),
    identity: z
      .object({
        // No control character: the signed text with a phone number is `userId + "\n" + phone`.
        userId: z
          .string()
          .min(1)
          .max(128)
          .regex(/^[^\u0000-\u001f\u007f]+$/),
        userHash: z.string().min(1).max(128),
        phone: z
          .string()
          .regex(/^\+[1-9][0-9]{6,14}$/)
          .optional(),
      })
      .optional(),
    deferStart: z.boolean().optional(),
  })
  .refine((auth) => (auth.userId === undefined) === (auth.token === undefined), {
    message: 'userId and token come together',
  }) satisfies z.ZodType<HandshakeAuth>;

export const sendTextSchema = z.object({
  clientId: z.string().min(1).max(128),
  text: z
    .string()
    .refine((text) => text.trim().length > 0, 'is empty')
    .refine((text) => utf8Bytes(text) <= MAX_TEXT_BYTES, `is longer than ${MAX_TEXT_BYTES} bytes`),
}) satisfies z.ZodType<SendTextPayload>;

const clientId = z.string().min(1).max(128);
const label = z.string().min(1).max(200);
const name = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9_.:-]{0,63}$/, 'must be a name of letters, digits and _ . : - (at most 64)');
export const pressSchema = z.object({
  clientId,
  label,
  action: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('postback'), payload: z.string().min(1).max(1024) }),
    z.object({ kind: z.literal('dialog'), dialogId: name }),
  ]),
}) satisfies z.ZodType<PressPayload>;

export const pageEventSchema = z.object({ name, payload: record.optional() }) satisfies z.ZodType<PageEventPayload>;
export const setUserDataSchema = z.object({ fields: record }) satisfies z.ZodType<SetUserDataPayload>;
export const openSchema = z.object({}).strict() satisfies z.ZodType<Readonly<Record<string, never>>>;
export const startDialogSchema = z.object({
  dialogId: name,
  data: record.optional(),
}) satisfies z.ZodType<StartDialogPayload>;
