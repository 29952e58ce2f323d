import type { Socket } from 'socket.io';
import type { AppDeps } from '../../app/deps.ts';
import { readMissed } from '../../app/open-conversation.ts';
import { toItem } from '../../app/to-item.ts';
import type { TranscriptItem } from '../../../shared/protocol.ts';

/** Most seqs remembered per connection; past it the memory starts over (a replay may then repeat, which the widget drops by seq). */
const MAX_REMEMBERED = 10_000;

/**
 * What a connection was sent, so that a resend can be answered with exactly what
 * the widget lacks.
 *
 * Why it is needed: a widget resends the messages it saw no ack for after it
 * reconnects, and a resend of a stored message is a duplicate, acked with its seq
 * and otherwise not run again. When its first copy was taken by a node that was then
 * SIGKILLed, that node's writes may still land in the store after the reconnect's
 * replay has read it (the store finishes a command whose sender died): the turn's
 * entries (the echo, the next prompt) were then stored but neither pushed (the node
 * died) nor replayed (not there yet). The duplicate is the moment the server knows
 * the first copy was stored, so it sends the entries from that seq on that this
 * connection has not been sent, before the ack.
 */
export class SentEntries {
  private readonly seqs = new Set<number>();
  private top = 0;

  /** `handshakeSeq`: the last seq the widget said it had; it has every entry up to it. */
  constructor(
    socket: Socket,
    private readonly handshakeSeq: number,
  ) {
    socket.onAnyOutgoing((event: string, items: unknown) => {
      if (event !== 'entries' || !Array.isArray(items)) return;
      if (this.seqs.size > MAX_REMEMBERED) this.seqs.clear();
      for (const item of items as TranscriptItem[]) {
        this.seqs.add(item.seq);
        if (item.seq > this.top) this.top = item.seq;
      }
    });
  }

  /** The highest seq this connection has been sent: a copy of the user with a lower lastSeq is behind the store. */
  get highest(): number {
    return this.top;
  }

  private has(seq: number): boolean {
    return seq <= this.handshakeSeq || this.seqs.has(seq);
  }

  /** Sends the user's stored entries from `fromSeq` on that this connection lacks. */
  async replayFrom(deps: AppDeps, socket: Socket, userId: string, fromSeq: number): Promise<void> {
    const stored = await readMissed(deps, userId, fromSeq - 1);
    const lacking = stored.filter((entry) => !this.has(entry.seq));
    if (lacking.length > 0) socket.emit('entries', lacking.map(toItem));
  }
}
