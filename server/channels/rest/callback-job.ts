import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Logger } from '../../ports/logger.ts';
import { JobGivenUp } from '../../ports/scheduler.ts';
import type { Job, Store } from '../../ports/store.ts';
import type { RestChannel } from '../../settings/rest-channels.ts';
import { signCallback } from './signature.ts';
import { toItem } from '../../app/to-item.ts';
import type { SignedPostSender } from '../../ports/signed-post.ts';

/** The job kind carrying the bot's later messages to a channel's callback URL. */
export const CALLBACK_JOB = 'rest_callback';

/** Attempts before a callback is given up (backoff 1 s doubling to 5 min: about 20 minutes in all). */
export const CALLBACK_ATTEMPTS = 12;

/** How long the channel's server may take to answer one callback. */
const CALLBACK_TIMEOUT_MS = 10_000;

/** One user's callbacks form a job group: they are delivered one after another, in id order. */
export const callbackGroup = (userId: string) => `rest_callback:${userId}`;

let arrivals = 0;
let lastStamp = 0;

/** Ids sort by acceptance (time, then arrival in this process), which is the delivery order of a user's callbacks. */
export function callbackJobId(now: number): string {
  lastStamp = Math.max(lastStamp, now);
  return `rest_callback:${lastStamp.toString(36).padStart(10, '0')}:${(arrivals++).toString(36).padStart(8, '0')}:${randomUUID()}`;
}

const itemSchema = z.object({
  seq: z.number(),
  from: z.enum(['user', 'bot']),
  at: z.string(),
  clientId: z.string().nullable(),
  message: z.record(z.string(), z.unknown()),
});
const eventsSchema = z.array(z.object({ name: z.string(), payload: z.record(z.string(), z.unknown()) }));
/** What a callback sends: the bot's messages in order, then its events. */
const payloadSchema = z.object({
  channel: z.string(),
  user: z.string(),
  messages: z.array(itemSchema),
  events: eventsSchema,
});
export type CallbackPayload = z.infer<typeof payloadSchema>;
/** A job stored with its turn names the turn's entries instead (their seqs and time), read when it runs. */
const refSchema = z.object({
  channel: z.string(),
  user: z.string(),
  firstSeq: z.number().int(),
  lastSeq: z.number().int(),
  at: z.number(),
  events: eventsSchema,
});
export type CallbackRef = z.infer<typeof refSchema>;

/**
 * Thrown by a CallbackSender for a destination it will never call (the SSRF rules refuse the
 * callbackUrl's host: a private or loopback address, or a host not in INTEGRATION_ALLOWED_HOSTS).
 * Retrying cannot help: the callback is given up at once and logged as `callback_refused`.
 */
export class CallbackRefused extends Error {
  override readonly name = 'CallbackRefused';
}

export interface CallbackJobOptions {
  readonly store: Store;
  readonly channels: ReadonlyMap<string, RestChannel>;
  readonly send: SignedPostSender;
  readonly logger: Logger;
  readonly now: () => number;
}

/**
 * Delivers one callback: a signed POST of the bot's messages and events, in the
 * order the bot said them. An earlier callback of the same user not yet delivered
 * (waiting for its retry) holds this one back without using an attempt; a non-2xx
 * answer or a network failure fails the attempt, and the job runner retries with backoff.
 */
export function callbackJobHandler(options: CallbackJobOptions): (job: Job) => Promise<void | { deferUntil: number }> {
  return async (job) => {
    const ref = refSchema.safeParse(job.payload);
    const payload = ref.success ? await resolve(options.store, ref.data) : payloadSchema.parse(job.payload);
    // The turn the job was stored for never committed (its process stopped in between, on a store without transactions).
    if (payload.messages.length === 0 && payload.events.length === 0) return;
    const now = options.now();
    const earlier = await options.store.firstUnfinishedJob(callbackGroup(payload.user), '', job.id);
    if (earlier) {
      const retryAt = earlier.status === 'pending' ? earlier.runAt : (earlier.leaseUntil ?? now + 1000);
      return { deferUntil: Math.max(now + 50, Math.min(retryAt, now + 1000)) };
    }
    const channel = options.channels.get(payload.channel);
    if (!channel?.callbackUrl) {
      options.logger.warn(
        { event: 'callback_dropped', channel: payload.channel, userId: payload.user },
        'a callback was stored for a channel that no longer has a callbackUrl; it is readable with GET …/messages',
      );
      return;
    }
    const body = JSON.stringify(payload);
    const timestamp = String(Math.floor(now / 1000));
    let response: { status: number };
    try {
      response = await options.send({
        url: channel.callbackUrl,
        headers: {
          'content-type': 'application/json',
          'x-timestamp': timestamp,
          'x-signature': signCallback(channel.key, timestamp, body),
        },
        body,
        timeoutMs: CALLBACK_TIMEOUT_MS,
      });
    } catch (error) {
      if (!(error instanceof CallbackRefused)) throw error;
      // Not a passing fault: 20 minutes of retries would change nothing. Said once per callback, loudly.
      options.logger.error(
        {
          event: 'callback_refused',
          channel: channel.name,
          userId: payload.user,
          setting: 'INTEGRATION_ALLOWED_HOSTS',
        },
        `REST channel "${channel.name}": its callbackUrl is refused: ${error.message} This callback is given up without retrying; the channel can still read it with GET …/messages. Change the channel's callbackUrl in REST_CHANNELS, or list its host in INTEGRATION_ALLOWED_HOSTS.`,
      );
      throw new JobGivenUp(`the callbackUrl of channel "${channel.name}" is refused: ${error.message}`);
    }
    if (response.status < 200 || response.status >= 300)
      throw new Error(`the channel's callback URL answered HTTP ${response.status}`);
  };
}

/** The turn's bot entries as stored: those of its seqs that carry its time (a seq reused by a later turn does not). */
async function resolve(store: Store, ref: CallbackRef): Promise<CallbackPayload> {
  const count = ref.lastSeq - ref.firstSeq + 1;
  const entries = count > 0 ? await store.readTranscript(ref.user, ref.firstSeq - 1, count) : [];
  const messages = entries
    .filter((entry) => entry.from === 'bot' && entry.seq <= ref.lastSeq && entry.at === ref.at)
    .map(toItem);
  // Events are sent only with the turn's messages, or when the turn said nothing: a turn that never committed leaves both out.
  const committed = messages.length > 0 || count <= 0;
  return { channel: ref.channel, user: ref.user, messages, events: committed ? ref.events : [] };
}
