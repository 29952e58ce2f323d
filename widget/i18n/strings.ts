import type { WidgetProblem } from '../controllers/connection.ts';

/** Every string the widget shows or announces; hosts override any of them with `init({ strings })`. */
export interface WidgetStrings {
  readonly openChat: string;
  readonly closeChat: string;
  readonly minimize: string;
  readonly title: string;
  readonly conversation: string;
  readonly message: string;
  readonly placeholder: string;
  readonly send: string;
  readonly typing: string;
  readonly you: string;
  readonly bot: string;
  readonly notSent: string;
  readonly sending: string;
  readonly quickReplies: string;
  readonly previous: string;
  readonly next: string;
  readonly carousel: string;
  /** `{n}` is replaced by the number of the card, `{total}` by the count. */
  readonly cardOf: string;
  /** `{n}` is replaced by the count. */
  readonly unread: string;
  /** Until the first connection is made. */
  readonly connecting: string;
  /** After the link dropped, while it is being made again. */
  readonly offline: string;
  /** The chat server does not serve this page (it refused the page's origin). */
  readonly unavailable: string;
  readonly ended: string;
  readonly opensInNewTab: string;
  /** Shown once a new conversation started because the stored one had expired. */
  readonly sessionExpired: string;
  /** A message longer than the server accepts. */
  readonly tooLong: string;
  /** The server asked the widget to slow down. */
  readonly tooFast: string;
  /** Any other problem; its details go to the browser console. */
  readonly failed: string;
}

export const en: WidgetStrings = {
  openChat: 'Open chat',
  closeChat: 'Close chat',
  minimize: 'Minimize chat',
  title: 'Chat',
  conversation: 'Conversation',
  message: 'Message',
  placeholder: 'Type a message…',
  send: 'Send',
  typing: 'Typing…',
  you: 'You:',
  bot: 'Bot:',
  notSent: 'not sent',
  sending: 'sending',
  quickReplies: 'Quick replies',
  previous: 'Previous card',
  next: 'Next card',
  carousel: 'Cards',
  cardOf: '{n} of {total}',
  unread: '{n} unread messages',
  connecting: 'Connecting…',
  offline: 'Reconnecting… your messages will be sent once the connection is back.',
  unavailable: 'The chat is not available on this page right now.',
  ended: 'This conversation has ended.',
  opensInNewTab: '(opens in a new tab)',
  sessionExpired: 'Your earlier chat has expired, so a new one has started.',
  tooLong: 'That message is too long.',
  tooFast: 'You are sending messages too quickly. Please wait a moment.',
  failed: 'Something went wrong. Please try again.',
};

/** German ships as the proof that every string is translatable. */
export const de: WidgetStrings = {
  openChat: 'Chat öffnen',
  closeChat: 'Chat schließen',
  minimize: 'Chat minimieren',
  title: 'Chat',
  conversation: 'Unterhaltung',
  message: 'Nachricht',
  placeholder: 'Nachricht eingeben…',
  send: 'Senden',
  typing: 'Schreibt…',
  you: 'Sie:',
  bot: 'Bot:',
  notSent: 'nicht gesendet',
  sending: 'wird gesendet',
  quickReplies: 'Schnellantworten',
  previous: 'Vorherige Karte',
  next: 'Nächste Karte',
  carousel: 'Karten',
  cardOf: '{n} von {total}',
  unread: '{n} ungelesene Nachrichten',
  connecting: 'Verbindung wird hergestellt…',
  offline: 'Verbindung wird wiederhergestellt… Ihre Nachrichten werden danach gesendet.',
  unavailable: 'Der Chat ist auf dieser Seite gerade nicht verfügbar.',
  ended: 'Diese Unterhaltung ist beendet.',
  opensInNewTab: '(öffnet in neuem Tab)',
  sessionExpired: 'Ihr früherer Chat ist abgelaufen, daher hat ein neuer begonnen.',
  tooLong: 'Diese Nachricht ist zu lang.',
  tooFast: 'Sie senden zu schnell. Bitte warten Sie einen Moment.',
  failed: 'Etwas ist schiefgelaufen. Bitte versuchen Sie es erneut.',
};

const locales: Readonly<Record<string, WidgetStrings>> = { en, de };

/** The strings for a locale (`de-CH` falls back to `de`, anything unknown to English), with overrides on top. */
export function stringsFor(locale: string | undefined, overrides: Partial<WidgetStrings> = {}): WidgetStrings {
  const language = (locale ?? 'en').toLowerCase().split('-')[0] ?? 'en';
  return { ...(locales[language] ?? en), ...overrides };
}

/** Right-to-left scripts, so `locale: 'ar'` lays the widget out mirrored without a separate `dir`. */
export function directionFor(locale: string | undefined): 'rtl' | 'ltr' {
  return /^(ar|he|fa|ur|ps|yi|dv)\b/i.test(locale ?? '') ? 'rtl' : 'ltr';
}

/** What the visitor reads for a problem: a short sentence by its code, never the server's text. */
export function errorText(code: WidgetProblem['code'], strings: WidgetStrings): string {
  if (code === 'text_too_long') return strings.tooLong;
  if (code === 'rate_limited') return strings.tooFast;
  if (code === 'session_expired') return strings.sessionExpired;
  if (code === 'origin_refused') return strings.unavailable;
  return strings.failed;
}

export function format(template: string, values: Readonly<Record<string, string | number>>): string {
  return template.replace(/\{(\w+)\}/g, (m, name: string) => (name in values ? String(values[name]) : m));
}
