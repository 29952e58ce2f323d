// The part of a connector's turn that the channel guarantees ask for and a web-chat turn does not do, measured on
// the real SQLite store alone: no HTTP, no signature, no rendering, no vendor call, no job runner. Per turn: the
// inbound event stored with its turn job under the unique (channel, event id) index (the webhook's commit), the
// turn group's order read, the send job stored and the turn job finished in the turn's own commit, the send group's
// order read, and the send job finished (its commit). It is the difference between two runs of the same users'
// turns on one store: each turn's commit as the web chat makes it, then everything above around the same commit.
// bench/channel-turn.ts runs it in the server's process and sets it beside a web-chat turn: a channel turn cannot
// cost less than a web-chat turn plus this.
import { performance } from 'node:perf_hooks';
import path from 'node:path';
import { TURN_JOB, turnGroup } from '../server/channels/connector/inbound-job.ts';
import { orderedJobId } from '../server/channels/connector/ordered-id.ts';
import { SEND_JOB, sendGroup } from '../server/channels/connector/outbound.ts';
import type { TurnCommit } from '../server/ports/store.ts';
import { openSqliteStore } from '../server/stores/sqlite/sqlite-store.ts';
import { sqliteChannelInbox } from '../server/stores/sqlite/sqlite-channel-inbox.ts';

const WORKER = 'bench-floor';
const CHANNEL = 'telegram';

export interface DurableFloor {
  /** Server CPU a turn's commit takes as the web chat makes it, µs. */
  readonly webChatCommitUs: number;
  /** The same turns with what a connector's guarantees add around them, µs. */
  readonly channelCommitUs: number;
  /** The difference: the least a connector's turn costs beyond a web-chat turn, µs. */
  readonly floorUs: number;
}

const cpuUs = () => {
  const used = process.cpuUsage();
  return used.user + used.system;
};

/** `users` users at once (their commits share the store's group commits, as in the bench's turns), `rounds` turns each per block. */
export async function durableFloor(dir: string, users: number, rounds: number): Promise<DurableFloor> {
  const store = openSqliteStore({ file: path.join(dir, 'durable-floor.sqlite') });
  const inbox = sqliteChannelInbox(store.db);
  const versions = new Map<string, number>();
  let event = 0;
  let message = 0;
  for (let u = 0; u < users; u++) {
    const user = await store.ensureUser({ userId: `${CHANNEL}:${u}`, channelId: CHANNEL, now: Date.now() });
    versions.set(user.userId, user.version);
  }

  /** One turn's commit: the user's message and the echo dialog's two answers, as every channel stores them. */
  const commit = async (userId: string, extra: Partial<TurnCommit>) => {
    const now = Date.now();
    const n = ++message;
    const outcome = await store.commitTurn({
      userId,
      expectedVersion: versions.get(userId)!,
      patch: { variables: { said: `hello ${n}` }, lastMessageAt: now },
      now,
      userEntry: { from: 'user', clientId: `m${n}`, at: now, message: { type: 'text', text: `hello ${n}` } },
      botEntries: [
        { from: 'bot', at: now, message: { type: 'text', text: `You said hello ${n}.` } },
        { from: 'bot', at: now, message: { type: 'text', text: 'Say something.' } },
      ],
      ...extra,
    });
    if (outcome.status !== 'committed') throw new Error(`the floor's turn was not committed: ${outcome.status}`);
    versions.set(userId, outcome.user.version);
  };

  const webChatTurn = (userId: string) => commit(userId, {});

  const channelTurn = async (userId: string) => {
    const now = Date.now();
    const lease = { owner: WORKER, until: now + 60_000 };
    const turnId = orderedJobId(TURN_JOB, now);
    const turnJobGroup = turnGroup(CHANNEL, userId);
    const accepted = await inbox.accept({
      channel: CHANNEL,
      eventId: String(++event),
      receivedAt: now,
      job: {
        id: turnId,
        kind: TURN_JOB,
        payload: { channel: CHANNEL, message: { kind: 'text', text: `hello ${event}`, address: userId, userData: {} } },
        runAt: now,
        group: turnJobGroup,
        lease,
      },
    });
    if (!accepted.fresh) throw new Error('the floor stored an event twice');
    if ((await store.firstUnfinishedJob(turnJobGroup, '', turnId, true))?.id !== turnId)
      throw new Error("the floor's turn job was not first in its group");
    const sendId = orderedJobId(SEND_JOB, now);
    const sendJobGroup = sendGroup(CHANNEL, userId);
    await commit(userId, {
      completeJobs: [{ id: turnId, workerId: WORKER }],
      jobs: [
        {
          id: sendId,
          kind: SEND_JOB,
          payload: { channel: CHANNEL, user: userId, seq: 1, last: 3, at: now, from: 0, opens: true },
          runAt: now,
          group: sendJobGroup,
          lease,
        },
      ],
    });
    if ((await store.firstUnfinishedJob(sendJobGroup, '', sendId, true))?.id !== sendId)
      throw new Error("the floor's send job was not first in its group");
    if (!(await store.completeJob(sendId, WORKER))) throw new Error("the floor's send job was not finished");
  };

  const block = async (turn: (userId: string) => Promise<void>) => {
    const before = cpuUs();
    await Promise.all(
      [...versions.keys()].map(async (userId) => {
        for (let round = 0; round < rounds; round++) await turn(userId);
      }),
    );
    return (cpuUs() - before) / (users * rounds);
  };

  try {
    // Warmed up first (the optimising compiler), then alternated so that a busy moment weighs on both alike.
    await block(webChatTurn);
    await block(channelTurn);
    const web: number[] = [];
    const channel: number[] = [];
    const started = performance.now();
    for (let i = 0; i < 3 || performance.now() - started < 1_000; i++) {
      web.push(await block(webChatTurn));
      channel.push(await block(channelTurn));
    }
    const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const webChatCommitUs = median(web);
    const channelCommitUs = median(channel);
    return { webChatCommitUs, channelCommitUs, floorUs: channelCommitUs - webChatCommitUs };
  } finally {
    await store.close();
  }
}
