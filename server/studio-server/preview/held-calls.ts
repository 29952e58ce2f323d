import { randomUUID } from 'node:crypto';
import type { CallAnswer, HeldCall } from '../../../shared/preview-protocol.ts';

/** The preview ended (a restart, the author left) while a call waited for an answer. */
export class AbandonedCall extends Error {
  override readonly name = 'AbandonedCall';
  constructor() {
    super('The preview ended while this call waited for an answer; nothing was sent.');
  }
}

/** A step of a preview makes at most a handful of calls; more waiting at once is a loop gone wrong. */
export const MAX_HELD = 20;

/** Which answers fit which kind of call. */
const FITTING: Readonly<Record<HeldCall['kind'], readonly CallAnswer['kind'][]>> = {
  http: ['stub', 'send'],
  email: ['send', 'skip', 'fail'],
  sms: ['send', 'skip', 'fail'],
};

interface Waiting {
  readonly view: HeldCall;
  readonly settle: (answer: CallAnswer) => void;
  readonly abandon: () => void;
}

/** The calls of one preview waiting for the author: each held until answered, or abandoned when the preview ends. */
export class HeldCalls {
  private readonly waiting = new Map<string, Waiting>();
  private ended = false;

  constructor(private readonly changed: () => void) {}

  /** Holds a call until the author answers it; rejects with AbandonedCall when the preview ends first. */
  hold(call: Omit<HeldCall, 'id'>): Promise<CallAnswer> {
    if (this.ended) return Promise.reject(new AbandonedCall());
    if (this.waiting.size >= MAX_HELD)
      return Promise.reject(
        new Error(`More than ${MAX_HELD} calls wait for an answer in this preview; answer them first.`),
      );
    const id = randomUUID();
    return new Promise<CallAnswer>((resolve, reject) => {
      this.waiting.set(id, { view: { id, ...call }, settle: resolve, abandon: () => reject(new AbandonedCall()) });
      this.changed();
    });
  }

  /** The author's answer: false when no call waits under that id or the answer does not fit its kind. */
  answer(id: string, answer: CallAnswer): 'answered' | 'gone' | 'unfit' {
    const found = this.waiting.get(id);
    if (!found) return 'gone';
    if (!FITTING[found.view.kind].includes(answer.kind) || (answer.kind === 'send' && !found.view.canSendForReal))
      return 'unfit';
    this.waiting.delete(id);
    found.settle(answer);
    this.changed();
    return 'answered';
  }

  kindOf(id: string): HeldCall['kind'] | undefined {
    return this.waiting.get(id)?.view.kind;
  }

  list(): HeldCall[] {
    return [...this.waiting.values()].map((w) => w.view);
  }

  /** Ends every wait: the work that held them stops, having sent nothing. */
  abandonAll(): void {
    this.ended = true;
    const all = [...this.waiting.values()];
    this.waiting.clear();
    for (const waiting of all) waiting.abandon();
  }
}
