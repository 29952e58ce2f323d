import { css, html, LitElement, nothing } from 'lit';
import { PREVIEW_TEXT_MAX } from '../../shared/channel-preview-limits.ts';
import type { BotMessage } from '../../shared/protocol.ts';
import type {
  ChannelButtonView,
  ChannelPartView,
  ChannelRendering,
  PreviewChannel,
} from '../../shared/studio-channel-preview.ts';
import { ApiClient, ApiError, type SessionInfo } from '../api/client.ts';
import { format } from '../i18n/catalogue.ts';
import { channelViewStrings } from './channel-view-strings.ts';
import { bound, states } from '../app/reactive.ts';

/** The vendors' own names: the same in every language. */
const CHANNEL_NAMES: Readonly<Record<PreviewChannel, string>> = {
  telegram: 'Telegram',
  whatsapp: 'WhatsApp',
  'twilio-sms': 'SMS (Twilio)',
  slack: 'Slack',
  messenger: 'Messenger',
  teams: 'Teams',
};

/**
 * The preview's channel view: the bot's last message as each vendor channel shows it (the server
 * renders it through each connector's ladder), one tab per channel. The tabs follow the ARIA tabs
 * pattern: Left/Right (and Home/End) move between them, Tab goes on into the shown channel.
 */
export class StudioChannelView extends LitElement {
  static override properties = {
    ...bound('message', 'session'),
    locale: {},
    ...states('renderings', 'selected', 'problem', 'busy'),
  };

  static override styles = css`
    :host { display: block; }
    [role='tablist'] { display: flex; flex-wrap: wrap; gap: 0.25rem; border-bottom: 1px solid #71717a; }
    [role='tab'] { font: inherit; padding: 0.3rem 0.6rem; border: 1px solid #71717a; border-bottom: none; background: #f4f4f5; color: #111; border-radius: 6px 6px 0 0; }
    [role='tab'][aria-selected='true'] { background: #fff; font-weight: 600; }
    [role='tab']:focus-visible, [role='tabpanel']:focus-visible { outline: 3px solid #1a56db; outline-offset: 2px; }
    [role='tabpanel'] { padding: 0.5rem 0; }
    .bubble { background: #e7f0fe; color: #111; border-radius: 8px; padding: 0.5rem 0.75rem; margin-block: 0.5rem; max-width: 22rem; }
    .text { white-space: pre-wrap; overflow-wrap: anywhere; margin: 0; }
    ul.choices { list-style: none; padding: 0; margin: 0.5rem 0 0; display: flex; flex-wrap: wrap; gap: 0.25rem; }
    ul.choices li { border: 1px solid #1a56db; color: #1a56db; background: #fff; border-radius: 999px; padding: 0.15rem 0.6rem; }
    .caption { font-size: 0.9em; margin-block: 0.25rem 0; }
    ul.cards { list-style: none; padding: 0; margin: 0; display: flex; flex-wrap: wrap; gap: 0.5rem; }
    ul.cards > li { flex: 1 1 9rem; background: #fff; border: 1px solid #71717a; border-radius: 8px; padding: 0.4rem 0.5rem; }
    h4 { font-size: 0.9rem; margin: 0.5rem 0 0; }
  `;

  declare message: BotMessage | undefined;
  declare session: SessionInfo | undefined;
  declare locale: string;
  declare private renderings: readonly ChannelRendering[];
  declare private selected: PreviewChannel;
  declare private problem: string;
  declare private busy: boolean;
  private readonly api = new ApiClient();
  /** The message whose renderings are shown or on their way; a later one wins over a slower earlier answer. */
  private asked: BotMessage | undefined;

  constructor() {
    super();
    this.locale = document.documentElement.lang || navigator.language;
    this.renderings = [];
    this.selected = 'whatsapp';
    this.problem = '';
    this.busy = false;
  }

  private get t() {
    return channelViewStrings(this.locale);
  }

  override willUpdate(changed: Map<string, unknown>): void {
    if (changed.has('message') && this.message !== this.asked) void this.fetchRenderings(this.message);
  }

  private async fetchRenderings(message: BotMessage | undefined): Promise<void> {
    this.asked = message;
    if (!message) {
      this.renderings = [];
      return;
    }
    this.api.setCsrfToken(this.session?.csrfToken ?? null);
    this.busy = true;
    try {
      const answer = await this.api.request('previewChannels', { body: { message: withinPreview(message) } });
      if (this.asked !== message) return;
      this.renderings = answer.channels;
      this.problem = '';
    } catch (error) {
      if (this.asked !== message) return;
      this.problem = format(this.t.failed, { message: error instanceof ApiError ? error.message : String(error) });
    } finally {
      if (this.asked === message) this.busy = false;
    }
  }

  private onTabKey(event: KeyboardEvent, index: number): void {
    const count = this.renderings.length;
    const next =
      event.key === 'ArrowRight'
        ? (index + 1) % count
        : event.key === 'ArrowLeft'
          ? (index - 1 + count) % count
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? count - 1
              : undefined;
    if (next === undefined) return;
    event.preventDefault();
    this.selected = this.renderings[next]!.channel;
    void this.updateComplete.then(() =>
      this.renderRoot.querySelector<HTMLElement>(`#channel-tab-${this.selected}`)?.focus(),
    );
  }

  private renderButtons(buttons: readonly ChannelButtonView[] | undefined, label: string) {
    if (!buttons || buttons.length === 0) return nothing;
    return html`<ul class="choices" aria-label=${label}>
      ${buttons.map((button) => html`<li>${button.url ? format(this.t.link, { title: button.title, url: button.url }) : button.title}</li>`)}
    </ul>`;
  }

  private renderPart(part: ChannelPartView, n: number, count: number) {
    const t = this.t;
    const label = format(t.message, { n, count });
    if (part.kind === 'cards')
      return html`<div class="bubble" role="group" aria-label=${label}>
        <ul class="cards" aria-label=${format(t.cards, { count: part.cards.length })}>
          ${part.cards.map(
            (card, index) => html`<li aria-label=${format(t.card, { n: index + 1, count: part.cards.length })}>
              ${card.imageUrl ? html`<p class="caption">${format(t.image, { alt: card.imageAlt || card.imageUrl })}</p>` : nothing}
              <p class="text"><strong>${card.title}</strong></p>
              ${card.subtitle ? html`<p class="caption">${card.subtitle}</p>` : nothing}
              ${this.renderButtons(card.buttons, t.buttons)}
            </li>`,
          )}
        </ul>
      </div>`;
    if (part.kind === 'image')
      return html`<div class="bubble" role="group" aria-label=${label}>
        <p class="text">${format(t.image, { alt: part.alt || part.url })}</p>
        ${part.caption ? html`<p class="caption">${part.caption}</p>` : nothing}
        ${this.renderButtons(part.buttons, t.buttons)}
      </div>`;
    return html`<div class="bubble" role="group" aria-label=${label}>
      <p class="text">${part.text}</p>
      ${this.renderButtons(part.buttons, t.buttons)}
      ${
        part.list
          ? this.renderButtons(
              part.list.rows.map((title) => ({ title })),
              format(t.list, { button: part.list.button }),
            )
          : nothing
      }
      ${
        part.quickReplies
          ? this.renderButtons(
              part.quickReplies.map((title) => ({ title })),
              t.quickReplies,
            )
          : nothing
      }
    </div>`;
  }

  override render() {
    const t = this.t;
    const shown = this.renderings.find((entry) => entry.channel === this.selected) ?? this.renderings[0];
    return html`<section aria-labelledby="channel-view-title">
      <h3 id="channel-view-title">${t.heading}</h3>
      ${this.problem ? html`<p role="alert">${this.problem}</p>` : nothing}
      ${this.busy ? html`<p role="status">${t.rendering}</p>` : nothing}
      ${
        !shown
          ? html`<p>${t.empty}</p>`
          : html`<div role="tablist" aria-label=${t.channels}>
                ${this.renderings.map((entry, index) => {
                  const selected = entry === shown;
                  return html`<button role="tab" type="button" id=${`channel-tab-${entry.channel}`} aria-controls="channel-panel" aria-selected=${selected ? 'true' : 'false'} tabindex=${selected ? 0 : -1} @click=${() => (this.selected = entry.channel)} @keydown=${(e: KeyboardEvent) => this.onTabKey(e, index)}>${CHANNEL_NAMES[entry.channel]}</button>`;
                })}
              </div>
              <div role="tabpanel" id="channel-panel" tabindex="0" aria-labelledby=${`channel-tab-${shown.channel}`}>
                <p>${format(shown.degraded ? t.degraded : t.native, { channel: CHANNEL_NAMES[shown.channel] })}</p>
                ${shown.parts.map((part, index) => this.renderPart(part, index + 1, shown.parts.length))}
              </div>`
      }
    </section>`;
  }
}

if (!customElements.get('studio-channel-view')) customElements.define('studio-channel-view', StudioChannelView);

declare global {
  interface HTMLElementTagNameMap {
    'studio-channel-view': StudioChannelView;
  }
}

/** The message with a text longer than the channel view takes cut to it: every channel it shows cuts sooner. */
function withinPreview(message: BotMessage): BotMessage {
  return (message.type === 'text' || message.type === 'notice') && message.text.length > PREVIEW_TEXT_MAX
    ? { ...message, text: message.text.slice(0, PREVIEW_TEXT_MAX) }
    : message;
}
