import { z } from 'zod';
import { MAX_TEXT_BYTES, type HandshakeAuth, type SendTextPayload } from './protocol.ts';

/**
 * Runtime validators for everything a client sends. The server checks every
 * payload against these; the widget imports only the types in protocol.ts,
 * so zod never reaches the browser bundle.
 */

const utf8Bytes = (text: string) => new TextEncoder().encode(text).length;

export const handshakeAuthSchema = z
  .object({
    userId: z.string().min(1).max(128).optional(),
    token: z.string().min(1).max(512).optional(),
    lastSeq: z.number().int().min(0).optional(),
    user: z.record(z.string().max(64), z.unknown()).optional(),
    locale: z.string().max(35).optional(),
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
