import { html, nothing, type TemplateResult } from 'lit';
import type { Button, Card } from '../../shared/protocol.ts';
import type { ShownMessage } from '../controllers/connection.ts';
import type { QueuedMessage } from '../controllers/session-store.ts';
import { errorText, type WidgetStrings } from '../i18n/strings.ts';
import type { MessageGroup } from './groups.ts';
import { lazyModule } from './lazy.ts';
import { safeUrl } from './safe-url.ts';
import { daySeparator, timestamp } from './time.ts';

export interface RenderContext {
  readonly strings: WidgetStrings;
  readonly locale: string | undefined;
  /** A postback or start-dialog button was pressed. */
  readonly press: (label: string, action: NonNullable<QueuedMessage['action']>) => void;
  /** Buttons stop working once the conversation ended in an error. */
  readonly disabled: boolean;
  /** The chat server's URL: the bot's root-relative media and links belong there, not to the host page. */
  readonly baseUrl: string;
  /** The bot's picture beside its messages (an http(s) URL), or '' for its initial. */
  readonly avatar: string;
  /** The bot's name, whose first letter stands in for a missing picture. */
  readonly botName: string;
  /** Draws the element again: a chunk a message needed has arrived. */
  readonly refresh: () => void;
}

const carousels = lazyModule('carousel', () => import('./carousel.ts'));
const markdown = lazyModule('markdown', () => import('./markdown.ts'));

/** What can start markup (markdown.ts); text without any is shown as it is, with no chunk to load. */
const MARKUP = /[\\`*[]/;

/** Hidden while its chunk loads, so the visitor never sees raw markup flash; shown as it is should the chunk fail. */
const pending = (content: unknown, module: unknown): TemplateResult =>
  module === undefined ? html`<span class="loading">${content}</span>` : html`${content}`;

/** A picture that did not load takes no space rather than showing a broken-image icon. */
export const hideImage = (event: Event) => ((event.target as HTMLElement).hidden = event.type === 'error');

/**
 * One turn of one sender: the bubbles, one time under the last, and the bot's avatar beside
 * them (at the bottom, as messengers do), with a date line above when a new day starts.
 */
export function renderGroup(group: MessageGroup, ctx: RenderContext): TemplateResult {
  const last = group.messages.at(-1);
  const face =
    group.from === 'bot' && !group.notice
      ? html`<span class="face" part="face" aria-hidden="true"
          >${[...ctx.botName][0]?.toUpperCase() ?? ''}${ctx.avatar ? html`<img src=${ctx.avatar} alt="" @error=${hideImage} @load=${hideImage} />` : nothing}</span
        >`
      : nothing;
  return html`${group.newDay ? daySeparator(group.messages[0]?.at ?? null, ctx.locale) : nothing}
    <div class="group ${group.from}${group.notice ? ' notice' : ''}" part="group">
      ${face}
      <div class="stack"><ul>${group.messages.map((m) => renderMessage(m, ctx))}</ul>${timestamp(last?.at ?? null, ctx.locale)}</div>
    </div>`;
}

/**
 * One bubble, an item of its turn's list: who said it (for screen readers, in the widget's words)
 * and what; every string from the wire goes through a text binding.
 */
export function renderMessage(shown: ShownMessage, ctx: RenderContext): TemplateResult {
  const { strings } = ctx;
  const state = shown.error ? 'failed' : shown.pending ? 'pending' : '';
  const who = shown.from === 'user' ? strings.you : strings.bot;
  // What the dimmed or outlined bubble shows the eye, in words: on its way, or refused and why.
  const note = shown.error
    ? `${strings.notSent}: ${errorText(shown.error.code, strings)}`
    : shown.pending
      ? strings.sending
      : '';
  const kind = shown.message.type;
  return html`<li class="msg ${shown.from} msg-${kind} ${state}" part="message ${shown.from}-message">
    <span class="sr-only">${who}</span> ${body(shown, ctx)} ${note ? html`<span class="sr-only">(${note})</span>` : nothing}
  </li>`;
}

/**
 * `dir="auto"` on every piece of text from the wire: each takes the direction of its own first
 * strong letter, so English in an Arabic widget keeps its full stop at the end, and the other way round.
 */
function text(content: unknown): TemplateResult {
  return html`<span class="text" dir="auto">${content}</span>`;
}

function body({ message, from }: ShownMessage, ctx: RenderContext): TemplateResult | typeof nothing {
  switch (message.type) {
    case 'text':
      // Only the bot speaks markdown; what the user typed is shown exactly as typed.
      if (from === 'user') return text(message.text);
      return html`${text(richText(message.text, ctx))}${buttons('buttons' in message ? message.buttons : undefined, ctx)}`;
    case 'postback':
    case 'dialog':
      return text(message.label);
    case 'image':
      return image(message.url, message.alt, 'image', ctx);
    case 'carousel': {
      const module = carousels.get(ctx.refresh);
      return module ? module.carousel(message.cards, ctx) : pending(plainCards(message.cards, ctx), module);
    }
    case 'notice':
      // No alert of its own even when fatal: the log announces it, and the panel's alert says the conversation
      // ended; an alert inside the log would have it spoken twice.
      return text(message.text);
  }
}

/** Bot text: markdown once its chunk is there, or plain when there is no markup to render. */
function richText(source: string, ctx: RenderContext): unknown {
  if (!MARKUP.test(source)) return source;
  const module = markdown.get(ctx.refresh);
  return module ? module.renderMarkdown(source, ctx.baseUrl) : pending(source, module);
}

/** The cards as a list while the carousel's chunk loads, or if it could not: every title and button still there. */
function plainCards(cards: readonly Card[], ctx: RenderContext): TemplateResult {
  return html`${cards.map((card) => html`<div class="card">${text(card.title)}${buttons(card.buttons, ctx)}</div>`)}`;
}

export function image(
  url: string,
  alt: string,
  className: string,
  ctx: RenderContext,
): TemplateResult | typeof nothing {
  const src = safeUrl(url, ctx.baseUrl);
  return src ? html`<img class=${className} src=${src} alt=${alt} loading="lazy" />` : nothing;
}

export function buttons(list: readonly Button[] | undefined, ctx: RenderContext): TemplateResult | typeof nothing {
  if (!list?.length) return nothing;
  return html`<div class="buttons">${list.map((b) => button(b, ctx))}</div>`;
}

function button(b: Button, ctx: RenderContext): TemplateResult | typeof nothing {
  if (b.kind === 'url') {
    // The server already swapped the target for its tracked link; we only refuse non-web schemes.
    const href = safeUrl(b.url, ctx.baseUrl);
    if (!href) return nothing;
    return html`<a class="button" part="button" dir="auto" href=${href} target="_blank" rel="noopener"
      >${b.label}<span class="sr-only"> ${ctx.strings.opensInNewTab}</span></a
    >`;
  }
  const action =
    b.kind === 'postback'
      ? ({ kind: 'postback', payload: b.payload } as const)
      : ({ kind: 'dialog', dialogId: b.dialogId } as const);
  return html`<button class="button" part="button" dir="auto" type="button" ?disabled=${ctx.disabled} @click=${() => ctx.press(b.label, action)}>
    ${b.label}
  </button>`;
}
