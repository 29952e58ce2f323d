import type { TranscriptEntry } from '../../ports/store.ts';
import type { Connector } from './connector.ts';

/** Turns kept for their send jobs; past it the oldest is dropped (its job reads the store, as on another node). */
const MAX_TURNS = 1000;

/**
 * A turn's bot entries as its commit stored them, kept in memory for the turn's send job, which
 * this node's runner starts as the commit lands: the job takes them instead of reading them back
 * (a read and the messages' JSON parsed again, a fifth of a channel turn's store time). Only a
 * hint: a job that finds nothing here (run on another node, retried, after a restart) reads the
 * store, and a kept turn is used only when it is the job's turn (same first seq and time).
 */
export class HandedEntries {
  private readonly turns = new Map<string, readonly TranscriptEntry[]>();

  /** Keeps the bot entries of a turn just committed (the user's own entry, if among them, is left out). */
  keep(userId: string, entries: readonly TranscriptEntry[]): void {
    const said = entries.filter((entry) => entry.from === 'bot');
    if (said.length === 0) return;
    if (this.turns.size >= MAX_TURNS) this.turns.delete(this.turns.keys().next().value!);
    this.turns.set(key(userId, said[0]!.seq), said);
  }

  /** The kept entries seq … last of the user's turn at `at`, forgotten here once taken; undefined when not all are kept. */
  take(userId: string, seq: number, last: number, at: number): readonly TranscriptEntry[] | undefined {
    const id = key(userId, seq);
    const said = this.turns.get(id);
    if (said === undefined) return undefined;
    this.turns.delete(id);
    const wanted = said.slice(0, last - seq + 1);
    const whole =
      wanted.length === last - seq + 1 && wanted.every((entry, i) => entry.seq === seq + i && entry.at === at);
    return whole ? wanted : undefined;
  }
}

const key = (userId: string, seq: number) => `${seq}:${userId}`;

const byConnector = new WeakMap<Connector, HandedEntries>();

/** The connector's kept turns: its delivery keeps them, its send jobs take them; a rebuilt connector starts empty. */
export function handedEntries(connector: Connector): HandedEntries {
  let handed = byConnector.get(connector);
  if (handed === undefined) byConnector.set(connector, (handed = new HandedEntries()));
  return handed;
}
