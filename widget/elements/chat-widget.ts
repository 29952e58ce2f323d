import { LitElement, html, svg, type PropertyValues } from 'lit';
import { ConnectionController, type ShownMessage } from '../controllers/connection.ts';
import { chatWidgetStyles } from '../styles/chat-widget.styles.ts';
import { socketTransport } from '../transport/socket-transport.ts';
import type { TransportFactory } from '../transport/transport.ts';

const chatIcon = svg`<path d="M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H9l-5 4v-4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2z"/>`;
const closeIcon = svg`<path d="M6.4 5 12 10.6 17.6 5 19 6.4 13.4 12 19 17.6 17.6 19 12 13.4 6.4 19 5 17.6 10.6 12 5 6.4z"/>`;

/**
 * A chat launcher and panel that talks to one chat server.
 *
 * @attr server-url - Base URL of the chat server (e.g. `https://chat.example.com`); nothing connects until it is set.
 * @attr open - Present while the panel is shown.
 * @fires chat-widget-toggle - `detail.open` after the panel opened or closed.
 * @csspart launcher - The round button that opens and closes the panel.
 * @csspart panel - The chat panel.
 * @csspart log - The conversation list.
 * @csspart input - The message textbox.
 * @csspart send - The Send button.
 * @cssprop --chat-accent - Launcher, user bubbles and Send button colour.
 */
export class ChatWidgetElement extends LitElement {
  static override properties = {
    serverUrl: { type: String, attribute: 'server-url' },
    open: { type: Boolean, reflect: true },
    locale: { type: String },
    user: { attribute: false },
    transportFactory: { attribute: false },
  };

  static override styles = chatWidgetStyles;

  declare serverUrl: string;
  declare open: boolean;
  /** Sent to the server at connect time, e.g. `de-CH`. */
  declare locale: string | undefined;
  /** What the page knows about the user (email, plan…), sent at connect time. */
  declare user: Readonly<Record<string, unknown>> | undefined;
  /** How to reach the server; replaced in tests by an in-memory fake. */
  declare transportFactory: TransportFactory;

  private readonly connection = new ConnectionController(this);
  /** Whether focus was inside when the panel started closing, so we only move focus we own. */
  private focusWasInside = false;

  constructor() {
    super();
    this.serverUrl = '';
    this.open = false;
    this.locale = undefined;
    this.user = undefined;
    this.transportFactory = socketTransport;
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

  protected override willUpdate(changed: PropertyValues<this>): void {
    this.connection.user = this.user;
    this.connection.locale = this.locale;
    if ((changed.has('serverUrl') || changed.has('transportFactory')) && this.serverUrl) {
      this.connection.connect(this.serverUrl, this.transportFactory);
    }
    if (changed.has('open')) this.focusWasInside = this.shadowRoot?.activeElement != null;
  }

  protected override updated(changed: PropertyValues<this>): void {
    const log = this.shadowRoot?.querySelector('.log');
    if (log) log.scrollTop = log.scrollHeight;
    // The first render is not a user action: never steal focus from the host page then.
    if (!changed.has('open') || changed.get('open') === undefined) return;
    if (this.open) {
      this.shadowRoot?.querySelector('input')?.focus();
    } else if (this.focusWasInside) {
      this.shadowRoot?.querySelector<HTMLElement>('.launcher')?.focus();
    }
    this.dispatchEvent(new CustomEvent('chat-widget-toggle', { detail: { open: this.open }, bubbles: true, composed: true }));
  }

  protected override render() {
    const { typing, error } = this.connection;
    return html`
      <div id="panel" class="panel" part="panel" role="dialog" aria-label="Chat" ?hidden=${!this.open} @keydown=${this.onKeydown}>
        <div class="log" part="log" role="log" aria-live="polite" aria-label="Conversation">
          ${this.connection.messages.map(renderMessage)}
        </div>
        <div class="note" ?hidden=${!typing}>Typing…</div>
        <div class="note error" role="alert">${error?.message ?? ''}</div>
        <form @submit=${this.onSubmit}>
          <label class="sr-only" for="input">Message</label>
          <input id="input" part="input" autocomplete="off" enterkeyhint="send" />
          <button class="send" part="send" type="submit">Send</button>
        </form>
      </div>
      <button
        class="launcher"
        part="launcher"
        aria-controls="panel"
        aria-expanded=${this.open ? 'true' : 'false'}
        aria-label=${this.open ? 'Close chat' : 'Open chat'}
        @click=${this.toggle}
      >
        <svg viewBox="0 0 24 24" aria-hidden="true">${this.open ? closeIcon : chatIcon}</svg>
      </button>
    `;
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

/** Text goes through Lit's text binding, so markup from anyone is shown, never run. */
function renderMessage(message: ShownMessage) {
  const state = message.error ? 'failed' : message.pending ? 'pending' : '';
  const who = message.from === 'user' ? 'You:' : 'Bot:';
  const failure = message.error ? html`<span class="sr-only">(not sent: ${message.error.message})</span>` : '';
  return html`<div class="msg ${message.from} ${state}"><span class="sr-only">${who}</span><span class="text">${message.text}</span>${failure}</div>`;
}
