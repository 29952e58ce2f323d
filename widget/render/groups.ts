import type { ShownMessage } from '../controllers/connection.ts';

/** Messages of one sender this close together read as one turn: one time under them, one avatar beside them. */
export const GROUP_GAP_MS = 5 * 60_000;

/** Consecutive messages of one sender, shown together (as Intercom and Crisp do). */
export interface MessageGroup {
  readonly from: 'user' | 'bot';
  /** A notice stands alone across the log, never grouped. */
  readonly notice: boolean;
  readonly messages: readonly ShownMessage[];
  /** A new day starts with this group: the date line goes above it. */
  readonly newDay: boolean;
}

const timeOf = (at: string | null) => (at ? Date.parse(at) : Date.now());

/** Local calendar day of a timestamp (now while a message is on its way), as a number to compare. */
export function dayOf(at: string | null): number {
  const date = at ? new Date(at) : new Date();
  return Number.isNaN(date.getTime()) ? 0 : date.getFullYear() * 10000 + date.getMonth() * 100 + date.getDate();
}

/** Splits the conversation into groups: a new one at a change of sender, a notice, a new day or a pause of GROUP_GAP_MS. */
export function groupMessages(messages: readonly ShownMessage[]): MessageGroup[] {
  const groups: MessageGroup[] = [];
  let current: { from: 'user' | 'bot'; notice: boolean; messages: ShownMessage[]; newDay: boolean } | undefined;
  let day = 0;
  for (const message of messages) {
    const notice = message.message.type === 'notice';
    const d = dayOf(message.at);
    const last = current?.messages.at(-1);
    const joins =
      current !== undefined &&
      last !== undefined &&
      !notice &&
      !current.notice &&
      current.from === message.from &&
      d === day &&
      timeOf(message.at) - timeOf(last.at) < GROUP_GAP_MS;
    if (joins) current?.messages.push(message);
    else {
      current = { from: message.from, notice, messages: [message], newDay: d !== day };
      groups.push(current);
    }
    day = d;
  }
  return groups;
}
