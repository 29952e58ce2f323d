import { LitElement, html, nothing, svg, type PropertyValues, type TemplateResult } from 'lit';
import type { BotEvent, QuickReply, TranscriptItem } from '../../shared/protocol.ts';
import { ConnectionController, type CommandResult, type Identity } from '../controllers/connection.ts';
import { loadStrings } from '../i18n/catalog.ts';
import { directionFor, en, errorText, languageOf, plural, type WidgetStrings } from '../i18n/strings.ts';
import { groupMessages } from '../render/groups.ts';
import { chunksSettled } from '../render/lazy.ts';
import { safeUrl } from '../render/safe-url.ts';
import { renderGroup } from '../render/messages.ts';
import { hideImage } from '../render/message-parts.ts';
import type { RenderContext } from '../render/render-context.ts';
import { chatWidgetStyles } from '../styles/chat-widget.styles.ts';
import { socketTransport } from '../transport/socket-transport.ts';
import type { TransportFactory } from '../transport/transport.ts';

const chatIcon = svg`<path d="M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H9l-5 4v-4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2z"/>`;
const closeIcon = svg`<path d="M6.4 5 12 10.6 17.6 5 19 6.4 13.4 12 19 17.6 17.6 19 12 13.4 6.4 19 5 17.6 10.6 12 5 6.4z"/>`;

/** A reply reached with Tab comes fully into view: the browser's own focus scrolling may leave it half cut off. */
const showFocused = (event: FocusEvent) =>
  (event.target as Element).scrollIntoView({ block: 'nearest', inline: 'nearest' });

/** How near the end of the conversation still counts as "at the end", so late growth keeps it in view. */
const STICK_PX = 32;

/** Theme keys for `init({ theme })`, each set as the CSS custom property beside it (for both colour schemes). */
export const THEME_PROPERTIES = {
  accent: '--chat-accent',
  accentText: '--chat-accent-text',
  background: '--chat-bg',
  text: '--chat-text',
  muted: '--chat-muted',
  botBackground: '--chat-bot-bg',
  border: '--chat-border',
  inputBorder: '--chat-input-border',
  divider: '--chat-divider',
  noticeBackground: '--chat-notice-bg',
  noticeText: '--chat-notice-text',
  badge: '--chat-badge-bg',
  badgeText: '--chat-badge-text',
  error: '--chat-error',
  codeBackground: '--chat-code-bg',
  radius: '--chat-radius',
  font: '--chat-font',
} as const;
export type Theme = Partial<Record<keyof typeof THEME_PROPERTIES, string>>;

/** `light` (default), `dark`, or `auto`: whichever the visitor's system prefers (`prefers-color-scheme`). */
export type ColorScheme = 'light' | 'dark' | 'auto';

/** What a `message` hook receives: each transcript entry that arrives while the page is open. */
export interface MessageHookPayload {
  readonly seq: number;
  readonly from: 'user' | 'bot';
  /** ISO time the server stored it. */
  readonly at: string;
  /** The text, a pressed button's label, or '' for a carousel or picture. */
  readonly text: string;
  readonly message: TranscriptItem['message'];
}

/**
 * A chat launcher and panel that talks to one chat server.
 *
 * @attr server-url - Base URL of the chat server (e.g. `https://chat.example.com`); nothing connects until it is set.
 * @attr open - Present while the panel is shown.
 * @attr user - What the page knows about the user, as JSON: `user='{"email":"a@example.com"}'`.
 * @attr locale - Language of the widget's own strings and of the handshake (`en` built in; de, fr, es, it, pl, pt, nl, ar, he load when needed); `ar`/`he`/… lay out right to left.
 * @attr color-scheme - `light` (default), `dark` or `auto` (follows `prefers-color-scheme`).
 * @attr position - `left` or `right` pins the launcher to that side (default: the inline end, so right to left puts it left).
 * @attr hide-launcher - No launcher: the page opens the panel itself (`show()`).
 * @attr chat-title - Header title; default the bot's name, else "Chat".
 * @attr avatar-url - Header picture; default the bot's.
 * @fires chat-widget-toggle - `detail.open` after the panel opened or closed.
 * @fires chat-widget-event - `detail` is the bot's event `{ name, payload }` for the page.
 * @fires chat-widget-unread - `detail.count` whenever the unread count changes.
 * @fires chat-widget-message - `detail` is a MessageHookPayload for each entry that arrives.
 * @csspart launcher - The round button that opens and closes the panel.
 * @csspart badge - The unread count on the launcher.
 * @csspart panel - The chat panel.
 * @csspart header - The panel's title bar.
 * @csspart log - The conversation list.
 * @csspart message - Every bubble (also `bot-message` / `user-message`).
 * @csspart button - Buttons and links inside messages.
 * @csspart quick-reply - A quick reply.
 * @csspart carousel - A carousel's card strip; `card` each card.
 * @csspart input - The message textbox.
 * @csspart send - The Send button.
 * @cssprop --chat-accent - Launcher, user bubbles and Send button colour.
 * @cssprop --chat-accent-text, --chat-bg, --chat-text, --chat-muted, --chat-bot-bg, --chat-border, --chat-input-border, --chat-divider, --chat-notice-bg, --chat-notice-text, --chat-badge-bg, --chat-badge-text, --chat-error, --chat-code-bg, --chat-radius, --chat-font
 * @cssprop --chat-offset-x, --chat-offset-y - Distance of the launcher from the side and the bottom (20px).
 */
export class ChatWidgetElement extends LitElement {
  static override properties = {
    serverUrl: { type: String, attribute: 'server-url' },
    open: { type: Boolean, reflect: true },
    locale: { type: String },
    user: { type: Object },
    identity: { attribute: false },
    strings: { attribute: false },
    theme: { attribute: false },
    colorScheme: { attribute: 'color-scheme', reflect: true },
    position: { reflect: true },
    hideLauncher: { type: Boolean, attribute: 'hide-launcher', reflect: true },
    chatTitle: { attribute: 'chat-title' },
    avatarUrl: { attribute: 'avatar-url' },
    transportFactory: { attribute: false },
    seenSeq: { state: true },
    loaded: { state: true },
  };

  static override styles = chatWidgetStyles;

  declare serverUrl: string;
  declare open: boolean;
  /** Widget language and the handshake's locale, e.g. `de-CH`. */
  declare locale: string | undefined;
  /** What the page knows about the user (email, page, authToken…), sent at connect time. */
  declare user: Readonly<Record<string, unknown>> | undefined;
  /** Verified identity `{ userId, userHash }` to resume the same user on any device. */
  declare identity: Identity | undefined;
  /** Overrides for any of the widget's strings. */
  declare strings: Partial<WidgetStrings>;
  declare theme: Theme;
  declare colorScheme: ColorScheme;
  declare position: 'left' | 'right' | undefined;
  declare hideLauncher: boolean;
  /** Header title over the bot's name. */
  declare chatTitle: string | undefined;
  /** Header picture over the bot's avatar. */
  declare avatarUrl: string | undefined;
  /** How to reach the server; replaced in tests by an in-memory fake. */
  declare transportFactory: TransportFactory;
  /** Highest seq the person has had the panel open for; later bot messages count as unread. */
  declare private seenSeq: number;
  /** Strings of the current language once loaded (English until then). */
  declare private loaded: Partial<WidgetStrings> | undefined;
  #loading: Promise<unknown> | undefined;
  /** Highest seq the page has been told of through chat-widget-message; restored history is not news. */
  #toldSeq = -1;
  #lastUnread = 0;

  readonly #connection = new ConnectionController(this, { onBotEvent: (event) => this.#onBotEvent(event) });
  /** Whether focus was inside when the panel started closing, so we only move focus we own. */
  #focusWasInside = false;
  /** show()/toggle() ran before the first render: a click on the loader's stand-in launcher, or a page's queued open(). */
  #openedBeforeFirstRender = false;
  #lastCount = 0;
  #autoDir = false;
  readonly #refresh = () => this.requestUpdate();
  /** Whether the conversation is scrolled to its end, so what grows it (a picture loading) keeps the end in view. */
  #stick = true;

  constructor() {
    super();
    this.serverUrl = '';
    this.open = false;
    this.locale = undefined;
    this.user = undefined;
    this.identity = undefined;
    this.strings = {};
    this.theme = {};
    this.colorScheme = 'light';
    this.hideLauncher = false;
    this.transportFactory = socketTransport;
    this.seenSeq = -1;
  }

  show(): void {
    this.open = true;
    if (!this.hasUpdated) this.#openedBeforeFirstRender = true;
  }

  hide(): void {
    this.open = false;
  }

  toggle(): void {
    this.open = !this.open;
    if (!this.hasUpdated) this.#openedBeforeFirstRender = this.open;
  }

  /** Sends a page event (a click, a filled field); the bot definition decides what it does. */
  sendEvent(name: string, payload?: Readonly<Record<string, unknown>>): Promise<CommandResult> {
    return this.#connection.pageEvent(name, payload);
  }

  setUserData(fields: Readonly<Record<string, unknown>>): Promise<CommandResult> {
    return this.#connection.setUserData(fields);
  }

  startDialog(dialogId: string, data?: Readonly<Record<string, unknown>>): Promise<CommandResult> {
    return this.#connection.startDialog(dialogId, data);
  }

  /** Forgets the user on this device (session, transcript, queue) and closes the panel. */
  shutdown(): void {
    this.#connection.forget();
    this.open = false;
    this.seenSeq = 0;
    this.#toldSeq = 0;
  }

  /** After shutdown(): connect again as a new user. */
  restart(): void {
    this.#connection.reopen();
  }

  get #text(): WidgetStrings {
    return { ...en, ...this.loaded, ...this.strings };
  }

  /** Waits for the language's strings too, so a test or page sees the finished panel. */
  protected override async getUpdateComplete(): Promise<boolean> {
    await this.#loading;
    await chunksSettled();
    return super.getUpdateComplete();
  }

  get #maxSeq(): number {
    return this.#connection.items.at(-1)?.seq ?? 0;
  }

  get #unread(): number {
    if (this.open || this.seenSeq < 0) return 0;
    return this.#connection.items.filter((item) => item.from === 'bot' && item.seq > this.seenSeq).length;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    this.#connection.user = this.user;
    this.#connection.locale = this.locale;
    this.#connection.identity = this.identity;
    if ((changed.has('serverUrl') || changed.has('transportFactory')) && this.serverUrl) {
      this.#connection.connect(this.serverUrl, this.transportFactory);
    }
    // What was restored from this device was seen before; whatever the bot says while the panel is
    // closed is unread, on a first visit too (a page view greets no one: the server waits, deferStart).
    if (this.seenSeq < 0 && this.serverUrl) this.seenSeq = this.#maxSeq;
    if (this.open && this.seenSeq !== this.#maxSeq) this.seenSeq = this.#maxSeq;
    if (changed.has('open')) this.#focusWasInside = this.shadowRoot?.activeElement != null;
    if (changed.has('theme')) {
      for (const [key, property] of Object.entries(THEME_PROPERTIES)) {
        const value = this.theme[key as keyof Theme];
        if (value) this.style.setProperty(property, value);
        else this.style.removeProperty(property);
      }
    }
    if (changed.has('locale')) {
      // Follow the locale's direction unless the page set dir itself.
      if (!this.hasAttribute('dir') || this.#autoDir) {
        this.#autoDir = true;
        this.setAttribute('dir', directionFor(this.locale));
      }
      const language = languageOf(this.locale);
      this.#loading = loadStrings(language).then((strings) => {
        if (languageOf(this.locale) === language) this.loaded = strings;
      });
    }
  }

  protected override updated(changed: PropertyValues<this>): void {
    this.#tellPage();
    // A new entry, or the panel just opened, shows the end; anything else that grew the conversation
    // (a chunk drawn, quick replies under it) keeps the end in view unless the visitor scrolled up.
    const count = this.#connection.messages.length;
    this.#toEnd(count !== this.#lastCount || (changed.has('open') && this.open));
    this.#lastCount = count;
    if (this.open) this.#connection.shown();
    // The first render is not a user action (never steal focus from the host page then), unless the
    // visitor or the page opened the panel before it: the stand-in launcher's click replays as open().
    const opened = this.#openedBeforeFirstRender && this.open;
    this.#openedBeforeFirstRender = false;
    if (!changed.has('open') || (changed.get('open') === undefined && !opened)) return;
    if (this.open) {
      // The message box, or the conversation when input is disabled after a fatal error.
      const input = this.shadowRoot?.querySelector<HTMLInputElement>('#input');
      (input && !input.disabled ? input : this.shadowRoot?.querySelector<HTMLElement>('.log'))?.focus();
    } else if (this.#focusWasInside) {
      this.shadowRoot?.querySelector<HTMLElement>('.launcher')?.focus();
    }
    this.#fire('chat-widget-toggle', { open: this.open });
  }

  protected override firstUpdated(): void {
    // The panel resized (the window, a phone's keyboard): the end stays in view.
    const log = this.#log;
    if (log && typeof ResizeObserver === 'function') new ResizeObserver(() => this.#toEnd()).observe(log);
  }

  get #log(): HTMLElement | null | undefined {
    return this.shadowRoot?.querySelector<HTMLElement>('.log');
  }

  /** Scrolls the conversation to its end: always when `force`, else only while the visitor has not scrolled up. */
  #toEnd(force = false): void {
    const log = this.#log;
    if (!log || !(force || this.#stick)) return;
    log.scrollTop = log.scrollHeight;
    this.#stick = true;
  }

  #onScroll(event: Event): void {
    const log = event.currentTarget as HTMLElement;
    this.#stick = log.scrollHeight - log.scrollTop - log.clientHeight < STICK_PX;
  }

  protected override render(): TemplateResult {
    const t = this.#text;
    const { typing, error, link, fatal, restarted } = this.#connection;
    const { bot } = this.#connection;
    const title = this.chatTitle || bot?.name || t.title;
    const avatar = safeUrl(this.avatarUrl || bot?.avatarUrl || '', this.serverUrl) ?? '';
    const ctx: RenderContext = {
      strings: t,
      locale: this.locale,
      press: (label, action) => this.#press(label, action),
      disabled: fatal,
      baseUrl: this.serverUrl,
      avatar,
      botName: title,
      refresh: this.#refresh,
    };
    const linkNote = !this.serverUrl
      ? ''
      : link === 'connecting'
        ? t.connecting
        : link === 'reconnecting'
          ? t.offline
          : '';
    const unread = this.#unread;
    const quickReplies = fatal ? [] : this.#connection.quickReplies;
    return html`
      <div id="panel" class="panel" part="panel" role="dialog" aria-label=${title} ?hidden=${!this.open} @keydown=${this.#onKeydown}>
        <div class="header" part="header">
          ${avatar ? html`<img class="avatar" part="avatar" src=${avatar} alt="" @error=${hideImage} @load=${hideImage} />` : nothing}
          <span class="title">${title}</span>
          <button class="minimize" type="button" aria-label=${t.minimize} @click=${this.hide}>
            <svg viewBox="0 0 24 24" aria-hidden="true">${closeIcon}</svg>
          </button>
        </div>
        <div
          class="log"
          part="log"
          role="log"
          aria-live="polite"
          aria-label=${t.conversation}
          tabindex="0"
          @scroll=${this.#onScroll}
          @load=${{ handleEvent: () => this.#toEnd(), capture: true }}
        >
          ${groupMessages(this.#connection.messages).map((g) => renderGroup(g, ctx))}
        </div>
        ${quickReplies.length > 0 ? this.#renderQuickReplies(quickReplies, t) : nothing}
        <div class="note typing" ?hidden=${!typing}><span class="dots" aria-hidden="true"><i></i><i></i><i></i></span>${t.typing}</div>
        <div class="note" aria-live="polite" ?hidden=${!linkNote}>${linkNote}</div>
        <div class="note" role="status" ?hidden=${!restarted}>${restarted ? t.sessionExpired : ''}</div>
        <div class="note error" role="alert">${fatal ? t.ended : error ? errorText(error.code, t) : ''}</div>
        <form @submit=${this.#onSubmit}>
          <label class="sr-only" for="input">${t.message}</label>
          <input id="input" part="input" autocomplete="off" enterkeyhint="send" placeholder=${t.placeholder} ?disabled=${fatal} />
          <button class="send" part="send" type="submit" ?disabled=${fatal}>${t.send}</button>
        </form>
      </div>
      <button
        class="launcher"
        part="launcher"
        aria-controls="panel"
        aria-expanded=${this.open ? 'true' : 'false'}
        aria-label=${this.open ? t.closeChat : t.openChat}
        aria-describedby=${unread > 0 ? 'unread' : nothing}
        @click=${this.toggle}
      >
        <svg viewBox="0 0 24 24" aria-hidden="true">${this.open ? closeIcon : chatIcon}</svg>
        ${
          unread > 0
            ? html`<span class="badge" part="badge" aria-hidden="true">${unread > 99 ? '99+' : unread}</span>`
            : nothing
        }
      </button>
      <span id="unread" class="sr-only">${unread > 0 ? plural(t.unread, unread, this.locale) : ''}</span>
    `;
  }

  #renderQuickReplies(replies: readonly QuickReply[], t: WidgetStrings) {
    // One row that scrolls sideways (swipe, Tab, or the mouse wheel), so however many there are they never crowd the conversation.
    return html`<div class="quick-replies" role="group" aria-label=${t.quickReplies} @wheel=${this.#onWheel} @focusin=${showFocused}>
      ${replies.map(
        (
          r,
        ) => html`<button type="button" class="quick-reply" part="quick-reply" dir="auto" @click=${() => this.#press(r.label, { kind: 'postback', payload: r.payload })}>
          ${r.label}
        </button>`,
      )}
    </div>`;
  }

  /** A mouse wheel turns into sideways scrolling over the quick replies' row, which has no other way to scroll it without a trackpad. */
  #onWheel(event: WheelEvent): void {
    const row = event.currentTarget as HTMLElement;
    if (row.scrollWidth <= row.clientWidth || Math.abs(event.deltaX) > Math.abs(event.deltaY)) return;
    event.preventDefault();
    row.scrollLeft += getComputedStyle(row).direction === 'rtl' ? -event.deltaY : event.deltaY;
  }

  #press(...args: Parameters<ConnectionController['press']>): void {
    this.#connection.press(...args);
    // The pressed control may vanish (quick replies do): keep focus in the panel.
    this.shadowRoot?.querySelector<HTMLElement>('#input')?.focus();
  }

  /** Page hooks: the unread count when it changed, and each entry that arrived since the last update. */
  #tellPage(): void {
    const unread = this.#unread;
    if (unread !== this.#lastUnread) this.#fire('chat-widget-unread', { count: unread });
    this.#lastUnread = unread;
    if (!this.serverUrl) return;
    // What was restored from this device or shown before is not news; a new user's entries count from 1 again.
    if (this.#toldSeq < 0 || this.#toldSeq > this.#maxSeq) this.#toldSeq = this.#maxSeq;
    for (const { seq, from, at, message } of this.#connection.items) {
      if (seq <= this.#toldSeq) continue;
      const text = 'text' in message ? message.text : 'label' in message ? message.label : '';
      this.#fire('chat-widget-message', { seq, from, at, text, message } satisfies MessageHookPayload);
    }
    this.#toldSeq = this.#maxSeq;
  }

  #fire(type: string, detail: unknown): void {
    this.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
  }

  #onBotEvent(event: BotEvent): void {
    this.#fire('chat-widget-event', event);
  }

  #onSubmit(event: SubmitEvent): void {
    event.preventDefault();
    const input = this.shadowRoot?.querySelector('input');
    if (input && this.#connection.send(input.value)) input.value = '';
  }

  #onKeydown(event: KeyboardEvent): void {
    if (event.key === 'Escape') this.hide();
  }
}
