import { html, nothing, type TemplateResult } from 'lit';
import type { Button, Card } from '../../shared/protocol.ts';
import type { ShownMessage } from '../controllers/connection.ts';
import type { QueuedMessage } from '../controllers/session-store.ts';
import { errorText, format, type WidgetStrings } from '../i18n/strings.ts';
import { renderMarkdown, safeUrl } from './markdown.ts';

export interface RenderContext {
  readonly strings: WidgetStrings;
  readonly locale: string | undefined;
  /** A postback or start-dialog button was pressed. */
  readonly press: (label: string, action: NonNullable<QueuedMessage['action']>) => void;
  /** Buttons stop working once the conversation ended in an error. */
  readonly disabled: boolean;
  /** The chat server's URL: the bot's root-relative media and links belong there, not to the host page. */
  readonly baseUrl: string;
}

/** One bubble: who said it, what, when; every string from the wire goes through a text binding. */
export function renderMessage(shown: ShownMessage, ctx: RenderContext): TemplateResult {
  const { strings } = ctx;
  const state = shown.error ? 'failed' : shown.pending ? 'pending' : '';
  const who = shown.from === 'user' ? strings.you : strings.bot;
  const failure = shown.error ? html`<span class="sr-only">(${strings.notSent}: ${errorText(shown.error.code, strings)})</span>` : nothing;
  const kind = shown.message.type;
  return html`<div class="msg ${shown.from} msg-${kind} ${state}" part="message ${shown.from}-message">
    <span class="sr-only">${who}</span>${body(shown, ctx)}${failure}${timestamp(shown.at, ctx.locale)}
  </div>`;
}

function body({ message, from }: ShownMessage, ctx: RenderContext): TemplateResult | typeof nothing {
  switch (message.type) {
    case 'text':
      // Only the bot speaks markdown; what the user typed is shown exactly as typed.
      if (from === 'user') return html`<span class="text">${message.text}</span>`;
      return html`<span class="text">${renderMarkdown(message.text, ctx.baseUrl)}</span>${buttons('buttons' in message ? message.buttons : undefined, ctx)}`;
    case 'postback':
    case 'dialog':
      return html`<span class="text">${message.label}</span>`;
    case 'image':
      return image(message.url, message.alt, 'image', ctx);
    case 'carousel':
      return carousel(message.cards, ctx);
    case 'notice':
      return html`<span class="text" role=${message.level === 'fatal' ? 'alert' : nothing}>${message.text}</span>`;
  }
}

function image(url: string, alt: string, className: string, ctx: RenderContext): TemplateResult | typeof nothing {
  const src = safeUrl(url, ctx.baseUrl);
  return src ? html`<img class=${className} src=${src} alt=${alt} loading="lazy" />` : nothing;
}

function buttons(list: readonly Button[] | undefined, ctx: RenderContext): TemplateResult | typeof nothing {
  if (!list?.length) return nothing;
  return html`<div class="buttons">${list.map((b) => button(b, ctx))}</div>`;
}

function button(b: Button, ctx: RenderContext): TemplateResult | typeof nothing {
  if (b.kind === 'url') {
    // The server already swapped the target for its tracked link; we only refuse non-web schemes.
    const href = safeUrl(b.url, ctx.baseUrl);
    if (!href) return nothing;
    return html`<a class="button" part="button" href=${href} target="_blank" rel="noopener"
      >${b.label}<span class="sr-only"> ${ctx.strings.opensInNewTab}</span></a
    >`;
  }
  const action = b.kind === 'postback' ? ({ kind: 'postback', payload: b.payload } as const) : ({ kind: 'dialog', dialogId: b.dialogId } as const);
  return html`<button class="button" part="button" type="button" ?disabled=${ctx.disabled} @click=${() => ctx.press(b.label, action)}>
    ${b.label}
  </button>`;
}

/**
 * Cards in a horizontal scroll-snap strip: touch swipes scroll natively, arrow keys
 * and the previous/next buttons move one card, and each card is a labelled group.
 */
function carousel(cards: readonly Card[], ctx: RenderContext): TemplateResult {
  const { strings } = ctx;
  const step = (event: Event, by: number) => {
    const strip = (event.currentTarget as HTMLElement).closest('.carousel')?.querySelector<HTMLElement>('.cards');
    if (!strip) return;
    const rtl = getComputedStyle(strip).direction === 'rtl' ? -1 : 1;
    strip.scrollBy({ left: by * rtl * strip.clientWidth * 0.8, behavior: matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth' });
  };
  const keys = (event: KeyboardEvent) => {
    if (event.key === 'ArrowRight' || event.key === 'ArrowLeft') {
      event.preventDefault();
      const forward = (event.key === 'ArrowRight') !== (getComputedStyle(event.currentTarget as Element).direction === 'rtl');
      step(event, forward ? 1 : -1);
    }
  };
  return html`<div class="carousel" role="region" aria-roledescription="carousel" aria-label=${strings.carousel}>
    <div class="cards" part="carousel" tabindex="0" @keydown=${keys}>
      ${cards.map(
        (card, i) => html`<div class="card" part="card" role="group" aria-roledescription="slide" aria-label=${format(strings.cardOf, { n: i + 1, total: cards.length })}>
          ${card.imageUrl ? image(card.imageUrl, card.imageAlt ?? '', 'card-image', ctx) : nothing}
          <div class="card-title">${card.title}</div>
          ${card.subtitle ? html`<div class="card-subtitle">${card.subtitle}</div>` : nothing} ${buttons(card.buttons, ctx)}
        </div>`,
      )}
    </div>
    ${cards.length > 1
      ? html`<div class="carousel-nav">
          <button type="button" class="nav" aria-label=${strings.previous} @click=${(e: Event) => step(e, -1)}>‹</button>
          <button type="button" class="nav" aria-label=${strings.next} @click=${(e: Event) => step(e, 1)}>›</button>
        </div>`
      : nothing}
  </div>`;
}

const formats = new Map<string, Intl.DateTimeFormat | Intl.RelativeTimeFormat>();

/** One formatter per locale and kind; a malformed locale tag falls back to the browser's. */
function formatter<F extends Intl.DateTimeFormat | Intl.RelativeTimeFormat>(kind: string, locale: string | undefined, make: (locale?: string) => F): F {
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

function timestamp(at: string | null, locale: string | undefined): TemplateResult | typeof nothing {
  if (!at) return nothing;
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) return nothing;
  const fmt = formatter('t', locale, (l) => new Intl.DateTimeFormat(l, { hour: '2-digit', minute: '2-digit' }));
  return html`<time class="time" datetime=${date.toISOString()}>${fmt.format(date)}</time>`;
}

/** Local calendar day of a timestamp (now while a message is on its way), as a number to compare. */
export function dayOf(at: string | null): number {
  const date = at ? new Date(at) : new Date();
  return Number.isNaN(date.getTime()) ? 0 : date.getFullYear() * 10000 + date.getMonth() * 100 + date.getDate();
}

/**
 * The line above the first message of each day: "Today", "Yesterday" in the locale's own
 * words (Intl.RelativeTimeFormat, so no string to translate), else the date.
 */
export function daySeparator(at: string | null, locale: string | undefined): TemplateResult {
  const date = at ? new Date(at) : new Date();
  const today = new Date();
  const days = Math.round((new Date(today.getFullYear(), today.getMonth(), today.getDate()).getTime() - new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime()) / 864e5);
  const label =
    days >= 0 && days < 2
      ? formatter('r', locale, (l) => new Intl.RelativeTimeFormat(l, { numeric: 'auto' })).format(-days, 'day')
      : formatter('d', locale, (l) => new Intl.DateTimeFormat(l, { dateStyle: 'long' })).format(date);
  return html`<div class="day" role="separator">${label}</div>`;
}
