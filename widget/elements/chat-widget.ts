import { LitElement, html, nothing, svg, type PropertyValues, type TemplateResult } from 'lit';
import type { BotEvent, QuickReply } from '../../shared/protocol.ts';
import { ConnectionController, type CommandResult, type Identity } from '../controllers/connection.ts';
import { directionFor, errorText, format, stringsFor, type WidgetStrings } from '../i18n/strings.ts';
import { renderMessage, type RenderContext } from '../render/messages.ts';
import { chatWidgetStyles } from '../styles/chat-widget.styles.ts';
import { socketTransport } from '../transport/socket-transport.ts';
import type { TransportFactory } from '../transport/transport.ts';

const chatIcon = svg`<path d="M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H9l-5 4v-4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2z"/>`;
const closeIcon = svg`<path d="M6.4 5 12 10.6 17.6 5 19 6.4 13.4 12 19 17.6 17.6 19 12 13.4 6.4 19 5 17.6 10.6 12 5 6.4z"/>`;

/** Theme keys for `init({ theme })`, each set as the CSS custom property beside it. */
export const THEME_PROPERTIES = {
  accent: '--chat-accent',
  accentText: '--chat-accent-text',
  background: '--chat-bg',
  text: '--chat-text',
  botBackground: '--chat-bot-bg',
  radius: '--chat-radius',
  font: '--chat-font',
} as const;
export type Theme = Partial<Record<keyof typeof THEME_PROPERTIES, string>>;

/**
 * A chat launcher and panel that talks to one chat server.
 *
 * @attr server-url - Base URL of the chat server (e.g. `https://chat.example.com`); nothing connects until it is set.
 * @attr open - Present while the panel is shown.
 * @attr user - What the page knows about the user, as JSON: `user='{"email":"a@example.com"}'`.
 * @attr locale - Language of the widget's own strings (`en` default, `de` shipped) and of the handshake; `ar`/`he`/… lay out right to left.
 * @fires chat-widget-toggle - `detail.open` after the panel opened or closed.
 * @fires chat-widget-event - `detail` is the bot's event `{ name, payload }` for the page.
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
 * @cssprop --chat-accent-text, --chat-bg, --chat-text, --chat-bot-bg, --chat-radius, --chat-font
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
    transportFactory: { attribute: false },
    seenSeq: { state: true },
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
  /** How to reach the server; replaced in tests by an in-memory fake. */
  declare transportFactory: TransportFactory;
  /** Highest seq the person has had the panel open for; later bot messages count as unread. */
  private declare seenSeq: number;

  private readonly connection = new ConnectionController(this, { onBotEvent: (event) => this.onBotEvent(event) });
  /** Whether focus was inside when the panel started closing, so we only move focus we own. */
  private focusWasInside = false;
  private lastCount = 0;
  private autoDir = false;

  constructor() {
    super();
    this.serverUrl = '';
    this.open = false;
    this.locale = undefined;
    this.user = undefined;
    this.identity = undefined;
    this.strings = {};
    this.theme = {};
    this.transportFactory = socketTransport;
    this.seenSeq = -1;
  }

  show(): void {
    this.open = true;
  }

  hide(): void {
    this.open = false;
  }

  toggle(): void {
    this.open = !this.open;
  }

  /** Sends a page event (a click, a filled field); the bot definition decides what it does. */
  sendEvent(name: string, payload?: Readonly<Record<string, unknown>>): Promise<CommandResult> {
    return this.connection.pageEvent(name, payload);
  }

  setUserData(fields: Readonly<Record<string, unknown>>): Promise<CommandResult> {
    return this.connection.setUserData(fields);
  }

  startDialog(dialogId: string, data?: Readonly<Record<string, unknown>>): Promise<CommandResult> {
    return this.connection.startDialog(dialogId, data);
  }

  /** Forgets the user on this device (session, transcript, queue) and closes the panel. */
  shutdown(): void {
    this.connection.forget();
    this.open = false;
    this.seenSeq = 0;
  }

  /** After shutdown(): connect again as a new user. */
  restart(): void {
    this.connection.reopen();
  }

  private get text(): WidgetStrings {
    return stringsFor(this.locale, this.strings);
  }

  private get maxSeq(): number {
    return this.connection.items.at(-1)?.seq ?? 0;
  }

  private get unread(): number {
    if (this.open || this.seenSeq < 0) return 0;
    return this.connection.items.filter((item) => item.from === 'bot' && item.seq > this.seenSeq).length;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    this.connection.user = this.user;
    this.connection.locale = this.locale;
    this.connection.identity = this.identity;
    if ((changed.has('serverUrl') || changed.has('transportFactory')) && this.serverUrl) {
      this.connection.connect(this.serverUrl, this.transportFactory);
    }
    // What was restored from this device was seen before; only what arrives now is unread.
    if (this.seenSeq < 0 && this.serverUrl) this.seenSeq = this.maxSeq;
    // The greeting on a first visit is not news: the visitor has not asked for anything yet.
    // Once they have opened the panel, what the bot says later is.
    if (this.open) this.connection.untouched = false;
    if ((this.open || this.connection.untouched) && this.seenSeq !== this.maxSeq) this.seenSeq = this.maxSeq;
    if (changed.has('open')) this.focusWasInside = this.shadowRoot?.activeElement != null;
    if (changed.has('theme')) {
      for (const [key, property] of Object.entries(THEME_PROPERTIES)) {
        const value = this.theme[key as keyof Theme];
        if (value) this.style.setProperty(property, value);
        else this.style.removeProperty(property);
      }
    }
    // Follow the locale's direction unless the page set dir itself.
    if (changed.has('locale') && (!this.hasAttribute('dir') || this.autoDir)) {
      this.autoDir = true;
      this.setAttribute('dir', directionFor(this.locale));
    }
  }

  protected override updated(changed: PropertyValues<this>): void {
    const count = this.connection.messages.length;
    const log = this.shadowRoot?.querySelector('.log');
    if (log && count !== this.lastCount) log.scrollTop = log.scrollHeight;
    this.lastCount = count;
    // The first render is not a user action: never steal focus from the host page then.
    if (!changed.has('open') || changed.get('open') === undefined) return;
    if (this.open) {
      // The message box, or the conversation when input is disabled after a fatal error.
      const input = this.shadowRoot?.querySelector<HTMLInputElement>('#input');
      (input && !input.disabled ? input : this.shadowRoot?.querySelector<HTMLElement>('.log'))?.focus();
    } else if (this.focusWasInside) {
      this.shadowRoot?.querySelector<HTMLElement>('.launcher')?.focus();
    }
    this.dispatchEvent(new CustomEvent('chat-widget-toggle', { detail: { open: this.open }, bubbles: true, composed: true }));
  }

  protected override render(): TemplateResult {
    const t = this.text;
    const { typing, error, link, fatal, restarted } = this.connection;
    const ctx: RenderContext = {
      strings: t,
      locale: this.locale,
      press: (label, action) => this.press(label, action),
      disabled: fatal,
      baseUrl: this.serverUrl,
    };
    const linkNote = !this.serverUrl ? '' : link === 'connecting' ? t.connecting : link === 'reconnecting' ? t.offline : '';
    const unread = this.unread;
    const quickReplies = fatal ? [] : this.connection.quickReplies;
    return html`
      <div id="panel" class="panel" part="panel" role="dialog" aria-label=${t.title} ?hidden=${!this.open} @keydown=${this.onKeydown}>
        <div class="header" part="header">
          <span class="title">${t.title}</span>
          <button class="minimize" type="button" aria-label=${t.minimize} @click=${this.hide}>
            <svg viewBox="0 0 24 24" aria-hidden="true">${closeIcon}</svg>
          </button>
        </div>
        <div class="log" part="log" role="log" aria-live="polite" aria-label=${t.conversation} tabindex="0">
          ${this.connection.messages.map((m) => renderMessage(m, ctx))}
        </div>
        ${quickReplies.length > 0 ? this.renderQuickReplies(quickReplies, t) : nothing}
        <div class="note typing" ?hidden=${!typing}><span class="dots" aria-hidden="true"><i></i><i></i><i></i></span>${t.typing}</div>
        <div class="note" aria-live="polite" ?hidden=${!linkNote}>${linkNote}</div>
        <div class="note" role="status" ?hidden=${!restarted}>${restarted ? t.sessionExpired : ''}</div>
        <div class="note error" role="alert">${fatal ? t.ended : error ? errorText(error.code, t) : ''}</div>
        <form @submit=${this.onSubmit}>
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
        ${unread > 0
          ? html`<span class="badge" part="badge" aria-hidden="true">${unread > 99 ? '99+' : unread}</span>`
          : nothing}
      </button>
      <span id="unread" class="sr-only">${unread > 0 ? format(t.unread, { n: unread }) : ''}</span>
    `;
  }

  private renderQuickReplies(replies: readonly QuickReply[], t: WidgetStrings) {
    return html`<div class="quick-replies" role="group" aria-label=${t.quickReplies}>
      ${replies.map(
        (r) => html`<button type="button" class="quick-reply" part="quick-reply" @click=${() => this.press(r.label, { kind: 'postback', payload: r.payload })}>
          ${r.label}
        </button>`,
      )}
    </div>`;
  }

  private press(...args: Parameters<ConnectionController['press']>): void {
    this.connection.press(...args);
    // The pressed control may vanish (quick replies do): keep focus in the panel.
    this.shadowRoot?.querySelector<HTMLElement>('#input')?.focus();
  }

  private onBotEvent(event: BotEvent): void {
    this.dispatchEvent(new CustomEvent('chat-widget-event', { detail: event, bubbles: true, composed: true }));
  }

  private onSubmit(event: SubmitEvent): void {
    event.preventDefault();
    const input = this.shadowRoot?.querySelector('input');
    if (input && this.connection.send(input.value)) input.value = '';
  }

  private onKeydown(event: KeyboardEvent): void {
    if (event.key === 'Escape') this.hide();
  }
}
