import { html, nothing, type TemplateResult } from 'lit';

const formats = new Map<string, Intl.DateTimeFormat | Intl.RelativeTimeFormat>();

/** One formatter per locale and kind; a malformed locale tag falls back to the browser's. */
function formatter<F extends Intl.DateTimeFormat | Intl.RelativeTimeFormat>(
  kind: string,
  locale: string | undefined,
  make: (locale?: string) => F,
): F {
  const key = `${kind}${locale ?? ''}`;
  let fmt = formats.get(key) as F | undefined;
  if (!fmt) {
    try {
      fmt = make(locale);
    } catch {
      fmt = make();
    }
    formats.set(key, fmt);
  }
  return fmt;
}

/** The time under a group of messages, in the locale's own format. */
export function timestamp(at: string | null, locale: string | undefined): TemplateResult | typeof nothing {
  if (!at) return nothing;
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) return nothing;
  const fmt = formatter('t', locale, (l) => new Intl.DateTimeFormat(l, { hour: '2-digit', minute: '2-digit' }));
  return html`<time class="time" datetime=${date.toISOString()}>${fmt.format(date)}</time>`;
}

/**
 * The line above the first message of each day: "Today", "Yesterday" in the locale's own
 * words (Intl.RelativeTimeFormat, so no string to translate), else the date.
 */
export function daySeparator(at: string | null, locale: string | undefined): TemplateResult {
  const date = at ? new Date(at) : new Date();
  const today = new Date();
  const days = Math.round(
    (new Date(today.getFullYear(), today.getMonth(), today.getDate()).getTime() -
      new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime()) /
      864e5,
  );
  const label =
    days >= 0 && days < 2
      ? formatter('r', locale, (l) => new Intl.RelativeTimeFormat(l, { numeric: 'auto' })).format(-days, 'day')
      : formatter('d', locale, (l) => new Intl.DateTimeFormat(l, { dateStyle: 'long' })).format(date);
  return html`<div class="day" role="separator">${label}</div>`;
}
