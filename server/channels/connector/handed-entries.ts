import type { BotMessage } from '../../../shared/protocol.ts';
import type { TranscriptEntry, UserRecord } from '../../ports/store.ts';
import type { Connector } from './connector.ts';
import { renderMessage, type Rendered } from './ladder.ts';

/** Users whose latest turn is kept; past it the longest unchanged is dropped (its jobs read the store, as on another node). */
const MAX_USERS = 10_000;

/**
 * Each user's latest turn committed on this node, its entries as the commit stored them, kept in
 * memory for the two readers that would read them back: the turn's send job (which this node's
 * runner starts as the commit lands) and the user's next turn, whose typed answer may name one of
 * the bot's choices. Reading them back cost a channel turn two transcript reads (the messages'
 * JSON parsed again each time). Only a hint: a reader that finds nothing here, or not what it
 * needs (a job run on another node, retried, after a restart; a turn that ran elsewhere since), reads
 * the store.
 */
export class HandedEntries {
  private readonly latest = new Map<string, readonly TranscriptEntry[]>();
  /** Per user, erasures begun and ended on this node: odd while one runs (erasure-race guard for the send jobs). */
  private readonly erasures = new Map<string, number>();
  /** Each entry's rendering, for as long as the entry object lives (the kept ones: their send job and the next turn). */
  private readonly renders = new WeakMap<TranscriptEntry, Rendered>();

  constructor(private readonly connector: Pick<Connector, 'capabilities'>) {}

  /**
   * A bot entry down the connector's ladder. A kept entry is rendered once: its send job sends the parts, and
   * the user's next turn looks for the choices a typed answer may name in the same rendering.
   */
  rendered(entry: TranscriptEntry): Rendered {
    let rendered = this.renders.get(entry);
    if (rendered === undefined) {
      rendered = renderMessage(entry.message as unknown as BotMessage, this.connector.capabilities, entry.seq);
      this.renders.set(entry, rendered);
    }
    return rendered;
  }

  /**
   * The user's erasure begins (erasing) or has ended on this node: their kept turn goes, and the
   * erasure count moves, which stops a send job of theirs that began before (see `erasure`).
   */
  erasing(userId: string, begins: boolean): void {
    this.latest.delete(userId);
    const count = (this.erasures.get(userId) ?? 0) + 1;
    this.erasures.delete(userId);
    if (this.erasures.size >= MAX_USERS) this.erasures.delete(this.erasures.keys().next().value!);
    // Always odd while the erasure runs, even after it, whatever was missed (an end without its beginning).
    this.erasures.set(userId, begins === (count % 2 === 1) ? count : count + 1);
  }

  /**
   * Where the user's erasures stand on this node: a send job takes it as it begins and sends only
   * while it is unchanged and even (no erasure under way, none since).
   */
  erasure(userId: string): number {
    return this.erasures.get(userId) ?? 0;
  }

  /** Keeps a turn just committed: its entries, the user's own first when the turn answered one. */
  keep(userId: string, entries: readonly TranscriptEntry[]): void {
    if (entries.length === 0) return;
    this.latest.delete(userId);
    if (this.latest.size >= MAX_USERS) this.latest.delete(this.latest.keys().next().value!);
    this.latest.set(userId, entries);
  }

  /** The bot's entries seq … last of the user's turn at `at`, when that turn is the one kept; undefined otherwise. */
  said(userId: string, seq: number, last: number, at: number): readonly TranscriptEntry[] | undefined {
    const entries = this.latest.get(userId);
    const from = entries?.findIndex((entry) => entry.seq === seq) ?? -1;
    if (from < 0) return undefined;
    const wanted = entries!.slice(from, from + last - seq + 1);
    const whole =
      wanted.length === last - seq + 1 &&
      wanted.every((entry, i) => entry.seq === seq + i && entry.from === 'bot' && entry.at === at);
    return whole ? wanted : undefined;
  }

  /**
   * The bot's entries after the user's last one, when the kept turn is the user's latest as the
   * store has it (its last seq and the time of the user's message it answered): undefined when
   * it is not, or did not answer a message of the user's (a timer's turn, whose run began before it).
   */
  latestRun(user: UserRecord): readonly TranscriptEntry[] | undefined {
    const entries = this.latest.get(user.userId);
    const [first] = entries ?? [];
    if (!first || first.from !== 'user' || first.at !== user.lastMessageAt) return undefined;
    if (entries!.at(-1)!.seq !== user.lastSeq) return undefined;
    return entries!.slice(1);
  }
}

const byConnector = new WeakMap<Connector, HandedEntries>();

/** The connector's kept turns: its delivery keeps them, its jobs read them; a rebuilt connector starts empty. */
export function handedEntries(connector: Connector): HandedEntries {
  let handed = byConnector.get(connector);
  if (handed === undefined) byConnector.set(connector, (handed = new HandedEntries(connector)));
  return handed;
}
