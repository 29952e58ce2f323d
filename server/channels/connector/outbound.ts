import { z } from 'zod';
import type { BotMessage } from '../../../shared/protocol.ts';
import type { BotEventSink } from '../../ports/bot-events.ts';
import type { Delivery } from '../../ports/delivery.ts';
import type { Logger } from '../../ports/logger.ts';
import { JobGivenUp, type Scheduler } from '../../ports/scheduler.ts';
import type { Job, NewJob, Store } from '../../ports/store.ts';
import { SendFailure, type Connector } from './connector.ts';
import { GroupOrder } from './group-order.ts';
import { renderMessage } from './ladder.ts';
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
  /** The bot message's seq, and its turn's time (a seq a later turn reused does not carry it). */
  seq: z.number().int(),
  at: z.number(),
  /** The first rendered part still to send (a message cut short by a rate limit goes on from here). */
  from: z.number().int().min(0).default(0),
  /** Whether it is its turn's first bot message (a vendor's replacement outside its window stands for the whole turn). */
  opens: z.boolean().default(false),
});

/** The vendor's address of a channel user: their id without the connector's prefix. */
export function addressOf(connector: string, userId: string): string {
  const prefix = `${connector}:`;
  return userId.startsWith(prefix) ? userId.slice(prefix.length) : userId;
}

/**
 * A connector's Delivery: every turn's bot messages become send jobs stored in the turn's own
 * commit (handOff), one per message, in one group per user, so a crash between the turn and the
 * send loses nothing, and a user's messages leave in the order the bot said them. Nothing is
 * pushed live: the vendor is the user's only screen.
 */
export function connectorDelivery(connector: Connector, now: () => number): Delivery {
  const admit = connector.admitTrigger?.bind(connector);
  return {
    ...(admit
      ? ({ admitTrigger: (user, _channelId, dialogId, at) => admit(user, dialogId, at) } satisfies Pick<
          Delivery,
          'admitTrigger'
        >)
      : {}),
    handOff(user, turn) {
      const jobs: NewJob[] = [];
      for (let seq = turn.firstSeq; seq <= turn.lastSeq; seq++) {
        jobs.push({
          id: orderedJobId(SEND_JOB, now()),
          kind: SEND_JOB,
          payload: {
            channel: connector.name,
            user: user.userId,
            seq,
            at: turn.at,
            from: 0,
            opens: seq === turn.firstSeq,
          },
          runAt: now(),
          maxAttempts: SEND_ATTEMPTS,
          group: sendGroup(connector.name, user.userId),
        });
      }
      return jobs;
    },
    deliver() {
      // Every turn's messages were handed to send jobs in its commit (handOff).
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
  /** Where `message.undelivered` goes for subscribers (a getter: built after the job runner); none when absent. */
  readonly events?: () => BotEventSink | undefined;
  readonly scheduler: Pick<Scheduler, 'schedule'>;
  readonly connectors: ReadonlyMap<string, Connector>;
  readonly logger: Logger;
  readonly now: () => number;
}

/**
 * Sends one bot message: rendered down the ladder for the channel, each part in turn. The vendor's
 * rate limit is waited out without using an attempt; a passing fault is retried with backoff; a
 * permanent refusal (the user blocked the bot, an invalid address) is given up at once, logged with
 * the vendor's code and written to the integration log. A message cut short after its first part
 * goes on from the part that failed (a job of its own, next in the group), never sending a part twice.
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
  payload: z.infer<typeof sendSchema>,
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
  const [entry] = await options.store.readTranscript(payload.user, payload.seq - 1, 1);
  // The turn never committed (its process stopped in between): nothing to send.
  if (!entry || entry.seq !== payload.seq || entry.from !== 'bot' || entry.at !== payload.at) return;
  const rendered = renderMessage(entry.message as unknown as BotMessage, connector.capabilities, payload.seq);
  if (rendered.degraded && payload.from === 0) {
    options.logger.info(
      {
        event: 'channel_degraded',
        channel: connector.name,
        userId: payload.user,
        seq: payload.seq,
        kind: String(entry.message.type),
      },
      "a message did not fit the channel's native form and was sent in a simpler one",
    );
  }
  let sends = rendered.parts.map((part) => (address: string) => connector.send(address, part));
  if ((connector.replaceSend || connector.refuseSend) && payload.from === 0) {
    const user = await options.store.getUser(payload.user);
    const said = { ...(entry.dialogId === undefined ? {} : { dialogId: entry.dialogId }), opensTurn: payload.opens };
    const replacement = connector.replaceSend?.(user, options.now(), said);
    if (replacement?.kind === 'covered') {
      options.logger.info(
        { event: 'channel_send_covered', channel: connector.name, userId: payload.user, seq: payload.seq },
        replacement.why,
      );
      return;
    }
    if (replacement?.kind === 'instead') sends = [replacement.send];
    const refusal = replacement ? undefined : connector.refuseSend?.(user, options.now());
    if (refusal) {
      await givenUp(options, connector, payload.user, payload.seq, refusal, 0);
      throw new JobGivenUp(`${connector.name} would refuse the message (${refusal.vendorCode}): ${refusal.message}`);
    }
  }
  const address = addressOf(connector.name, payload.user);
  for (let part = payload.from; part < sends.length; part++) {
    const started = options.now();
    try {
      await sends[part]!(address);
    } catch (error) {
      const failure =
        error instanceof SendFailure
          ? error
          : new SendFailure('transient', 'network', error instanceof Error ? error.message : String(error));
      if (failure.kind === 'permanent') {
        await givenUp(options, connector, payload.user, payload.seq, failure, options.now() - started);
        throw new JobGivenUp(`${connector.name} refused the message (${failure.vendorCode}): ${failure.message}`);
      }
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
      if (part === payload.from) {
        if (waitMs !== undefined) return { deferUntil: options.now() + waitMs };
        // The last attempt: the message is given up, and said so as a permanent refusal is.
        if (job.attempts >= job.maxAttempts)
          await givenUp(options, connector, payload.user, payload.seq, failure, options.now() - started);
        throw failure;
      }
      // Parts before this one have left: the rest goes on in a job of its own, next in the group.
      await options.scheduler.schedule({
        id: `${job.id}:${part}`,
        kind: SEND_JOB,
        payload: { ...payload, from: part },
        runAt: options.now() + (waitMs ?? 1000),
        maxAttempts: SEND_ATTEMPTS,
        group,
      });
      return;
    }
  }
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
