import type { WidgetProblem } from '../controllers/connection.ts';

/**
 * A count-dependent sentence, one template per plural category of the language
 * (`Intl.PluralRules`: `one`, `few`, `many`… as the language has them; `other` always).
 */
export type PluralForms = { readonly other: string } & Partial<
  Readonly<Record<Exclude<Intl.LDMLPluralRule, 'other'>, string>>
>;

/** Every string the widget shows or announces; hosts override any of them with `init({ strings })`. */
export interface WidgetStrings {
  readonly openChat: string;
  readonly closeChat: string;
  readonly minimize: string;
  /** The header when the bot has no name and the page sets no `title`. */
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
  readonly unread: PluralForms;
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

/** Built in: what every other locale falls back to, key by key. The others load when needed (catalog.ts). */
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
  unread: { one: '{n} unread message', other: '{n} unread messages' },
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

/** The language part of a locale tag: `de-CH` → `de`. */
export const languageOf = (locale: string | undefined): string => (locale ?? 'en').toLowerCase().split('-')[0] || 'en';

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

/** `forms` for the count `n` in the locale's plural category, `{n}` filled in. */
export function plural(forms: PluralForms, n: number, locale: string | undefined): string {
  let category: Intl.LDMLPluralRule = 'other';
  try {
    category = new Intl.PluralRules(locale).select(n);
  } catch {
    // A malformed tag: the `other` form still reads right.
  }
  return format(forms[category] ?? forms.other, { n });
}
