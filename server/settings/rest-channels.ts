import { z } from 'zod';

/** The web chat's own channelId: a REST channel may not take it. */
const RESERVED = new Set(['webchat']);

/** One REST channel as configured in REST_CHANNELS. */
export const restChannelSchema = z.strictObject({
  /** The channel's name: its `channelId` in user addresses, and a segment of its URLs. */
  name: z
    .string()
    .regex(
      /^[a-z0-9][a-z0-9_-]{0,63}$/,
      'name must be 1 to 64 lower-case letters, digits, "-" or "_", starting with a letter or digit',
    ),
  /** Sent by the channel in x-channel-key; signs the callbacks. Never logged. */
  key: z.string().min(16, 'key must be at least 16 characters long'),
  /**
   * During a key rotation, the key being replaced: still accepted in x-channel-key until
   * it is removed. Callbacks are always signed with `key`. Never logged.
   */
  keyPrevious: z.string().min(16, 'keyPrevious must be at least 16 characters long').optional(),
  /** Where the bot's later messages are POSTed; unset = the channel polls GET …/messages. */
  callbackUrl: z
    .string()
    .refine((value) => {
      try {
        return ['http:', 'https:'].includes(new URL(value).protocol);
      } catch {
        return false;
      }
    }, 'callbackUrl must be an http:// or https:// URL')
    .optional(),
});
export type RestChannel = z.infer<typeof restChannelSchema>;

/**
 * REST_CHANNELS: a JSON list of channels, e.g.
 * `[{"name":"sms","key":"…16+ chars…","callbackUrl":"https://sms.example.com/bot"}]`.
 * Each mistake is reported as one line naming the channel by its position, never
 * echoing a key.
 */
export const restChannelsSchema = z.string().transform((text, ctx): RestChannel[] => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    ctx.addIssue({
      code: 'custom',
      message: 'must be a JSON list such as [{"name":"sms","key":"<16+ characters>","callbackUrl":"https://…"}]',
    });
    return z.NEVER;
  }
  const list = z.array(z.unknown()).safeParse(parsed);
  if (!list.success) {
    ctx.addIssue({
      code: 'custom',
      message: 'must be a JSON list of channels, e.g. [{"name":"sms","key":"<16+ characters>"}]',
    });
    return z.NEVER;
  }
  const channels: RestChannel[] = [];
  for (const [index, item] of list.data.entries()) {
    const channel = restChannelSchema.safeParse(item);
    if (!channel.success) {
      const issue = channel.error.issues[0];
      // The message never quotes a value: a key may be what is wrong.
      const message =
        issue?.code === 'unrecognized_keys'
          ? `unknown field ${issue.keys.map((k) => `"${k}"`).join(', ')}; the fields are name, key, keyPrevious, callbackUrl`
          : issue?.message;
      const field = issue?.path[0];
      const text = typeof field === 'string' && !String(message).startsWith(field) ? `${field}: ${message}` : message;
      ctx.addIssue({ code: 'custom', message: `channel ${index + 1}: ${text ?? 'is invalid'}` });
      return z.NEVER;
    }
    if (channel.data.keyPrevious === channel.data.key) {
      ctx.addIssue({
        code: 'custom',
        message: `channel ${index + 1}: keyPrevious is the same as key; during a rotation it holds the key being replaced`,
      });
      return z.NEVER;
    }
    if (RESERVED.has(channel.data.name)) {
      ctx.addIssue({
        code: 'custom',
        message: `channel ${index + 1}: the name "${channel.data.name}" belongs to the web chat; choose another`,
      });
      return z.NEVER;
    }
    if (channels.some((other) => other.name === channel.data.name)) {
      ctx.addIssue({ code: 'custom', message: `channel ${index + 1}: the name "${channel.data.name}" is used twice` });
      return z.NEVER;
    }
    channels.push(channel.data);
  }
  return channels;
});
