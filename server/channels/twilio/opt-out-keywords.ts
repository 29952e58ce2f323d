/**
 * The keywords carriers require an SMS program to honour, as Twilio handles them by default on long
 * codes: a message that is exactly one of them (any case, surrounding spaces and punctuation aside).
 * Twilio itself answers them and, after an opt-out, refuses to send to the number (error 21610) until
 * it opts in again; the connector runs no dialog for them, so the user gets one answer, not two.
 */
const OPT_OUT = new Set(['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT', 'REVOKE', 'OPTOUT']);
const OPT_IN = new Set(['START', 'YES', 'UNSTOP']);
const HELP = new Set(['HELP', 'INFO']);

export type CarrierKeyword = 'opt-out' | 'opt-in' | 'help';

/** The keyword a message is, or null for any other message (including "stop the order please"). */
export function carrierKeyword(body: string): CarrierKeyword | null {
  const word = body
    .trim()
    .replace(/^[\s\p{P}]+|[\s\p{P}]+$/gu, '')
    .toUpperCase();
  if (OPT_OUT.has(word)) return 'opt-out';
  if (OPT_IN.has(word)) return 'opt-in';
  if (HELP.has(word)) return 'help';
  return null;
}
