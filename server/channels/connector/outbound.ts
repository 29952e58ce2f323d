import { z } from 'zod';
import type { BotEventSink } from '../../ports/bot-events.ts';
import type { Delivery } from '../../ports/delivery.ts';
import type { IdentityLinks } from '../../ports/identity-links.ts';
import type { Logger } from '../../ports/logger.ts';
import { JobGivenUp, type Scheduler } from '../../ports/scheduler.ts';
import type { Job, Store, TranscriptEntry } from '../../ports/store.ts';
import { SendFailure, type Connector, type SendReplacement } from './connector.ts';
import { GroupOrder } from './group-order.ts';
import { handedEntries } from './handed-entries.ts';
import { orderedJobId } from './ordered-id.ts';

/** The job kind that carries one bot message to a channel user. */
export const SEND_JOB = 'channel_send';
/** Attempts for passing faults (backoff 1 s doubling to 5 min: about 20 minutes in all); a rate limit uses none. */
export const SEND_ATTEMPTS = 12;
/** One user's sends form a job group: one after another, in id order. */
export const sendGroup = (channel: string, userId: string) => `${SEND_JOB}:${channel}:${userId}`;

const sendSchema = z.object({
  channel: z.string(),
  user: z.string(),
  /** The first bot message still to send (its seq), and its turn's time (a seq a later turn reused does not carry it). */
  seq: z.number().int(),
  /** The turn's last bot message; absent (a job stored when each message had a job of its own): `seq` alone. */
  last: z.number().int().optional(),
  at: z.number(),
  /** The first rendered part of `seq` still to send (a message cut short by a rate limit goes on from here). */
  from: z.number().int().min(0).default(0),
  /** Whether `seq` is its turn's first bot message (a vendor's replacement outside its window stands for the whole turn). */
  opens: z.boolean().default(false),
});
type SendPayload = z.infer<typeof sendSchema>;

/** The vendor's address of a channel user: their id without the connector's prefix. */
export function addressOf(connector: string, userId: string): string {
  const prefix = `${connector}:`;
  return userId.startsWith(prefix) ? userId.slice(prefix.length) : userId;
}

/**
 * Where on the channel the user is: their own address, or for a linked person whose record is
 * another channel's (they wrote from here last), the address of theirs on this channel.
 */
async function addressOn(options: SendJobOptions, channel: string, userId: string): Promise<string> {
  if (!userId.startsWith(`${channel}:`)) {
    const person = await options.identityLinks?.()?.personOf(userId);
    const here = person?.addresses.find((address) => address.channelId === channel);
    if (here) return addressOf(channel, here.userId);
  }
  return addressOf(channel, userId);
}

/**
 * A connector's Delivery: every turn's bot messages become one send job stored in the turn's own
 * commit (handOff), in one group per user, so a crash between the turn and the send loses nothing,
 * and a user's messages leave in the order the bot said them. One job a turn, not one a message:
 * each job costs its writes and its group check, which were most of a channel turn's cost. Nothing
 * is pushed live: the vendor is the user's only screen; the committed entries are kept for the send
 * job this node starts (handed-entries.ts), so that it need not read them back.
 */
export function connectorDelivery(connector: Connector, now: () => number): Delivery {
  const admit = connector.admitTrigger?.bind(connector);
  const handed = handedEntries(connector);
  return {
    ...(admit
      ? ({ admitTrigger: (user, _channelId, dialogId, at) => admit(user, dialogId, at) } satisfies Pick<
          Delivery,
          'admitTrigger'
        >)
      : {}),
    handOff(user, turn) {
      if (turn.lastSeq < turn.firstSeq) return [];
      const payload: SendPayload = {
        channel: connector.name,
        user: user.userId,
        seq: turn.firstSeq,
        last: turn.lastSeq,
        at: turn.at,
        from: 0,
        opens: true,
      };
      return [
        {
          id: orderedJobId(SEND_JOB, now()),
          kind: SEND_JOB,
          payload,
          runAt: now(),
          maxAttempts: SEND_ATTEMPTS,
          group: sendGroup(connector.name, user.userId),
        },
      ];
    },
    deliver(userId, entries) {
      // Every turn's messages were handed to a send job in its commit (handOff): here they are kept for it, and for the next turn.
      handed.keep(userId, entries);
    },
    erasing(userId, begins) {
      handed.erasing(userId, begins);
    },
    typing() {
      // "Typing…" would cost a vendor call per turn, counted against the same rate limit as the answers.
    },
    event() {
      // Bot → page events have no page here.
    },
    reach() {
      // The vendor carries it to the user's app: as a REST channel's callback does.
      return 'callback';
    },
  };
}

export interface SendJobOptions {
  readonly store: Store;
  /** One person's addresses (a getter, as events): a person whose record is another channel's is sent to at their address here. */
  readonly identityLinks?: () => IdentityLinks | undefined;
  /** Where `message.undelivered` goes for subscribers (a getter: built after the job runner); none when absent. */
  readonly events?: () => BotEventSink | undefined;
  readonly scheduler: Pick<Scheduler, 'schedule'>;
  readonly connectors: ReadonlyMap<string, Connector>;
  readonly logger: Logger;
  readonly now: () => number;
}

/**
 * Sends one turn's bot messages, each rendered down the ladder for the channel, each part in turn.
 * The vendor's rate limit is waited out without using an attempt; a passing fault is retried with
 * backoff; a permanent refusal (the user blocked the bot, an invalid address) gives that message up
 * at once, logged with the vendor's code and written to the integration log, and the turn goes on
 * with its next message. A turn cut short after its first part goes on from the part that failed
 * (a job of its own, next in the group), never sending a part twice.
 */
export function sendJobHandler(options: SendJobOptions): (job: Job) => Promise<void | { deferUntil: number }> {
  const order = new GroupOrder(options.store);
  return async (job) => {
    const payload = sendSchema.parse(job.payload);
    const group = sendGroup(payload.channel, payload.user);
    return order.run(group, job, options.now(), () => send(options, job, payload, group));
  };
}

async function send(
  options: SendJobOptions,
  job: Job,
  payload: SendPayload,
  group: string,
): Promise<void | { deferUntil: number }> {
  const connector = options.connectors.get(payload.channel);
  if (!connector) {
    options.logger.warn(
      { event: 'channel_send_dropped', channel: payload.channel, userId: payload.user },
      'a message was stored for a channel that is no longer configured; it stays in the transcript',
    );
    return;
  }
  const last = Math.max(payload.seq, payload.last ?? payload.seq);
  const handed = handedEntries(connector);
  // An erasure of the user on this node, under way or begun since this job did: nothing more of theirs leaves.
  const erasure = handed.erasure(payload.user);
  const erased = () => erasure % 2 === 1 || handed.erasure(payload.user) !== erasure;
  if (erased()) return;
  const entries =
    handed.said(payload.user, payload.seq, last, payload.at) ?? (await storedEntries(options.store, payload, last));
  if (entries.length === 0) return;
  let instead: Extract<SendReplacement, { kind: 'instead' }> | undefined;
  if ((connector.replaceSend || connector.refuseSend) && payload.from === 0) {
    const user = await options.store.getUser(payload.user);
    const first = entries[0]!;
    const said = { ...(first.dialogId === undefined ? {} : { dialogId: first.dialogId }), opensTurn: payload.opens };
    const replacement = connector.replaceSend?.(user, options.now(), said);
    if (replacement?.kind === 'covered')
      return covered(options, connector.name, payload.user, entries, replacement.why);
    // A replacement stands for the whole turn: sent in its first message's place, the others covered by it.
    if (replacement?.kind === 'instead') instead = replacement;
    const refusal = replacement ? undefined : connector.refuseSend?.(user, options.now());
    if (refusal) {
      for (const entry of entries) await givenUp(options, connector, payload.user, entry.seq, refusal, 0);
      throw new JobGivenUp(`${connector.name} would refuse the message (${refusal.vendorCode}): ${refusal.message}`);
    }
  }
  const address = await addressOn(options, connector.name, payload.user);
  let refused: SendFailure | undefined;
  for (const entry of instead ? entries.slice(0, 1) : entries) {
    const rendered = handed.rendered(entry);
    const sends = instead
      ? [instead.send]
      : rendered.parts.map((part) => (address: string) => connector.send(address, part));
    const first = entry.seq === payload.seq ? payload.from : 0;
    if (rendered.degraded && first === 0 && !instead) {
      options.logger.info(
        {
          event: 'channel_degraded',
          channel: connector.name,
          userId: payload.user,
          seq: entry.seq,
          kind: String(entry.message.type),
        },
        "a message did not fit the channel's native form and was sent in a simpler one",
      );
    }
    for (let part = first; part < sends.length; part++) {
      if (erased()) return;
      const started = options.now();
      try {
        await sends[part]!(address);
      } catch (error) {
        const failure =
          error instanceof SendFailure
            ? error
            : new SendFailure('transient', 'network', error instanceof Error ? error.message : String(error));
        if (failure.kind === 'permanent') {
          await givenUp(options, connector, payload.user, entry.seq, failure, options.now() - started);
          refused = failure;
          break;
        }
        return sendLater(
          options,
          job,
          payload,
          group,
          { seq: entry.seq, part, last: instead ? entry.seq : entries.at(-1)!.seq },
          failure,
          started,
        );
      }
    }
  }
  if (refused) throw new JobGivenUp(`${connector.name} refused a message (${refused.vendorCode}): ${refused.message}`);
  if (instead)
    covered(
      options,
      connector.name,
      payload.user,
      entries.slice(1),
      "covered by what was sent in its turn's first place",
    );
}

/** The job's entries as stored, in seq order; none when its turn never committed (its process stopped in between). */
async function storedEntries(store: Store, payload: SendPayload, last: number): Promise<TranscriptEntry[]> {
  const stored = await store.readTranscript(payload.user, payload.seq - 1, last - payload.seq + 1);
  const entries: TranscriptEntry[] = [];
  for (const entry of stored) {
    if (entry.seq !== payload.seq + entries.length || entry.from !== 'bot' || entry.at !== payload.at) break;
    entries.push(entry);
  }
  return entries;
}

/** Messages a vendor's replacement stands for (a WhatsApp template outside the window): not sent, said in the log. */
function covered(
  options: SendJobOptions,
  channel: string,
  userId: string,
  entries: readonly TranscriptEntry[],
  why: string,
): void {
  for (const entry of entries)
    options.logger.info({ event: 'channel_send_covered', channel, userId, seq: entry.seq }, why);
}

/**
 * A part met a rate limit or a passing fault. Nothing of the job has left yet: the job itself waits
 * (a rate limit, no attempt used) or fails to be retried with backoff; on its last attempt that
 * message is given up and the turn's next one goes on. Parts have left: the rest goes on in a job
 * of its own, next in the group, so none is sent twice.
 */
async function sendLater(
  options: SendJobOptions,
  job: Job,
  payload: SendPayload,
  group: string,
  at: { readonly seq: number; readonly part: number; readonly last: number },
  failure: SendFailure,
  started: number,
): Promise<void | { deferUntil: number }> {
  const connector = options.connectors.get(payload.channel)!;
  const waitMs = failure.kind === 'rate_limited' ? Math.max(1000, failure.retryAfterMs ?? 1000) : undefined;
  if (failure.kind === 'rate_limited') {
    options.logger.warn(
      {
        event: 'channel_rate_limited',
        channel: connector.name,
        userId: payload.user,
        vendorCode: failure.vendorCode,
        retryAfterMs: waitMs,
      },
      `${connector.name} asked to wait before sending more`,
    );
  }
  const rest = (seq: number, part: number, runAt: number) =>
    options.scheduler.schedule({
      id: `${job.id}:${seq}.${part}`,
      kind: SEND_JOB,
      // The rest is not its turn's opening any more: outside the window a replacement covers it.
      payload: { ...payload, seq, last: at.last, from: part, opens: false } satisfies SendPayload,
      runAt,
      maxAttempts: SEND_ATTEMPTS,
      group,
    });
  if (at.seq === payload.seq && at.part === payload.from) {
    if (waitMs !== undefined) return { deferUntil: options.now() + waitMs };
    // The last attempt: the message is given up, and said so as a permanent refusal is; the turn's next message goes on.
    if (job.attempts >= job.maxAttempts) {
      await givenUp(options, connector, payload.user, at.seq, failure, options.now() - started);
      if (at.seq < at.last) await rest(at.seq + 1, 0, options.now());
    }
    throw failure;
  }
  await rest(at.seq, at.part, options.now() + (waitMs ?? 1000));
}

async function givenUp(
  options: SendJobOptions,
  connector: Connector,
  userId: string,
  seq: number,
  failure: SendFailure,
  duration: number,
): Promise<void> {
  options.logger.warn(
    { event: 'channel_send_refused', channel: connector.name, userId, vendorCode: failure.vendorCode },
    `${connector.name} refused a message for good (${failure.vendorCode}: ${failure.message}); it is not sent again`,
  );
  await options.store
    .appendLog('integrationLog', {
      userId,
      timestamp: options.now(),
      data: {
        url: `${connector.name}:${failure.endpoint ?? 'send'}`,
        method: 'POST',
        requestBody: '',
        requestHeaders: {},
        responseStatus: failure.vendorCode,
        responseBody: failure.message,
        duration,
      },
    })
    .catch((error: unknown) =>
      options.logger.error({ event: 'integration_log_failed', err: error }, 'could not write the integration log'),
    );
  const events = options.events?.();
  if (!events?.wanted().has('message.undelivered')) return;
  await events
    .emit(
      { userId, channelId: connector.name },
      [
        {
          kind: 'message.undelivered',
          data: { channel: connector.name, seq, vendorCode: failure.vendorCode, message: failure.message },
        },
      ],
      options.now(),
    )
    .catch((error: unknown) =>
      options.logger.error(
        { event: 'event_emit_failed', err: error },
        'could not record message.undelivered for subscribers',
      ),
    );
}
