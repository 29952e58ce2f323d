import { z } from 'zod';
import type { UserMessage } from '../../../shared/protocol.ts';
import type { AppDeps } from '../../app/deps.ts';
import { handleUserMessage } from '../../app/handle-user-message.ts';
import { openConversation } from '../../app/open-conversation.ts';
import { linkedPersonOf } from '../../app/reach-person.ts';
import type { Job, NewJob, TranscriptEntry, UserRecord } from '../../ports/store.ts';
import { channelUserId, type Connector, type InboundMessage } from './connector.ts';
import { GroupOrder } from './group-order.ts';
import { handedEntries } from './handed-entries.ts';
import { choiceByAnswer, type Choice } from './ladder.ts';

/** The job kind that runs the turn of one inbound event. */
export const TURN_JOB = 'channel_turn';
/** A turn that keeps failing (the store away) is tried again for about a minute. */
const TURN_ATTEMPTS = 6;
/** One user's inbound events form a job group: their turns run in arrival order. */
export const turnGroup = (channel: string, userId: string) => `${TURN_JOB}:${channel}:${userId}`;
/** Bot entries looked back on to find the choices a typed answer may name. */
const LOOK_BACK = 20;
/** Entries read first: a turn says a message or two, so the user's own last entry is nearly always among them. */
const FIRST_LOOK = 4;

const messageSchema = z.object({
  eventId: z.string(),
  address: z.string(),
  input: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('text'), text: z.string() }),
    z.object({ kind: z.literal('choice'), choiceId: z.string() }),
    z.object({ kind: z.literal('open') }),
  ]),
  userData: z.record(z.string(), z.string()),
  ack: z.record(z.string(), z.string()).optional(),
});
const payloadSchema = z.object({ channel: z.string(), message: messageSchema });

/** The durable job for one inbound event, stored by the webhook before it answers. */
export function turnJob(id: string, channel: string, message: InboundMessage, now: number): NewJob {
  return {
    id,
    kind: TURN_JOB,
    payload: { channel, message: { ...message } },
    runAt: now,
    maxAttempts: TURN_ATTEMPTS,
    group: turnGroup(channel, channelUserId(channel, message.address)),
  };
}

export interface TurnJobOptions {
  readonly connectors: ReadonlyMap<string, Connector>;
  /** The use cases' dependencies; a getter, as the bot in service may change. */
  readonly deps: () => AppDeps;
}

/**
 * Runs one inbound event's turn, after any earlier event of the same user. The user is the spec's
 * user address `{ channelId: connector, user: "{connector}:{address}" }`; what the vendor tells
 * about them reaches the dialog (declared user-data fields as user data, the rest as variables). The
 * event's id is the message's clientId, so a job run twice (a crash after the turn) stores and
 * answers it once.
 */
export function turnJobHandler(
  options: TurnJobOptions,
): (job: Job) => Promise<void | { deferUntil: number } | { completed: true }> {
  let order: GroupOrder | undefined;
  return async (job) => {
    const { channel, message } = payloadSchema.parse(job.payload);
    const deps = options.deps();
    const userId = channelUserId(channel, message.address);
    order ??= new GroupOrder(deps.store);
    return order.run(turnGroup(channel, userId), job, deps.clock.now(), async () => {
      // The turn's commit finishes the job (one commit fewer a turn): the runner is told it need not.
      const completed = await runTurn(options, deps, channel, userId, message, job);
      return completed ? { completed: true as const } : undefined;
    });
  };
}

async function runTurn(
  options: TurnJobOptions,
  deps: AppDeps,
  channel: string,
  userId: string,
  message: z.infer<typeof messageSchema>,
  job: Job,
): Promise<boolean> {
  const connector = options.connectors.get(channel);
  if (!connector) {
    deps.logger.warn(
      { event: 'channel_turn_dropped', channel, userId },
      'an event arrived for a channel that is no longer configured; it is not answered',
    );
    return false;
  }
  if (connector.acknowledge && message.ack) {
    await connector
      .acknowledge(message)
      .catch((error: unknown) =>
        deps.logger.warn(
          { event: 'channel_ack_failed', channel, userId, err: error },
          `${channel} did not take the acknowledgement`,
        ),
      );
  }
  // An address linked into a person whose record is another address's speaks for the person (one
  // conversation across channels); the turn's answers come back on this channel (Delivery.via).
  const person = await linkedPersonOf(deps, userId);
  const speaker = person?.personId ?? userId;
  let user = await deps.store.getUser(speaker);
  if (speaker === userId && user && user.channelId !== channel) {
    deps.logger.warn(
      { event: 'channel_user_conflict', channel, userId },
      `user ${userId} belongs to channel ${user.channelId}; the event is not answered`,
    );
    return false;
  }
  const fresh = !user || (user.lastSeq === 0 && user.position === null);
  if (speaker === userId && (fresh || knowsMore(user!, message.userData))) {
    await openConversation(deps, { userId, channelId: channel, init: message.userData, known: user });
    if (fresh && message.input.kind === 'open') return false;
    user = await deps.store.getUser(userId);
  }
  const said = await userMessage(deps, connector, user, message);
  if (!said) return false;
  let completed = false;
  await handleUserMessage(deps, {
    userId: speaker,
    clientId: `${channel}:${message.eventId}`,
    message: said,
    ...(person ? { channelId: channel } : {}),
    ...(user ? { user } : {}),
    ...(job.leaseOwner ? { completesJob: { id: job.id, workerId: job.leaseOwner } } : {}),
    committed: () => (completed = job.leaseOwner !== null),
  });
  return completed;
}

/** Whether the vendor tells something about the user the store does not hold yet. */
function knowsMore(user: UserRecord, told: Readonly<Record<string, string>>): boolean {
  return Object.entries(told).some(([key, value]) => user.userData[key] !== value && user.variables[key] !== value);
}

/** The event as the user's message: a pressed button or an answer naming a choice becomes that choice. */
async function userMessage(
  deps: AppDeps,
  connector: Connector,
  user: UserRecord | null,
  message: z.infer<typeof messageSchema>,
): Promise<UserMessage | null> {
  const { input } = message;
  if (input.kind === 'open') return { type: 'text', text: '/start' };
  if (input.kind === 'choice') {
    const [seqText, indexText] = input.choiceId.split('.');
    const seq = Number(seqText);
    const index = Number(indexText);
    if (!user || !Number.isSafeInteger(seq) || !Number.isSafeInteger(index) || seq < 1) return null;
    const [entry] = await deps.store.readTranscript(user.userId, seq - 1, 1);
    const choice = entry && entry.seq === seq && entry.from === 'bot' ? choicesOf(connector, entry)[index] : undefined;
    if (!choice)
      deps.logger.info(
        { event: 'channel_choice_unknown', channel: connector.name, userId: user.userId },
        'a button of a message no longer stored was pressed; ignored',
      );
    return choice?.message ?? null;
  }
  if (user && user.lastSeq > 0) {
    const choices: Choice[] = [];
    // The bot's latest turn: its messages after the user's last entry (as this node committed them, else as stored).
    const run = handedEntries(connector).latestRun(user) ?? (await latestBotRun(deps, user));
    for (const entry of run) choices.push(...choicesOf(connector, entry));
    const named = choiceByAnswer(input.text, choices);
    if (named) return named.message;
  }
  return { type: 'text', text: input.text };
}

/** The bot's entries after the user's last one (at most LOOK_BACK), oldest first: a short read, a longer one only when it held no user entry. */
async function latestBotRun(deps: AppDeps, user: UserRecord): Promise<readonly TranscriptEntry[]> {
  let recent: TranscriptEntry[] = [];
  for (const look of [FIRST_LOOK, LOOK_BACK]) {
    recent = await deps.store.readTranscript(user.userId, Math.max(0, user.lastSeq - look), look);
    if (recent.length < look || recent.some((entry) => entry.from !== 'bot')) break;
  }
  let first = recent.length;
  while (first > 0 && recent[first - 1]!.from === 'bot') first--;
  return recent.slice(first);
}

function choicesOf(connector: Connector, entry: TranscriptEntry): readonly Choice[] {
  return handedEntries(connector).rendered(entry).choices;
}
