/**
 * Registering the element, apart from the library entry (index.ts), so the script tag's build
 * (embed.ts) does not pull in what index.ts re-exports for bundler users: the markdown renderer
 * is a chunk loaded when first needed there (render/lazy.ts).
 */
import { ChatWidgetElement } from './elements/chat-widget.ts';

export const CHAT_WIDGET_TAG = 'chat-widget';

/** Registers `<chat-widget>` once; safe to call again, or after another copy did. */
export function defineChatWidget(tagName: string = CHAT_WIDGET_TAG): void {
  if (!customElements.get(tagName)) customElements.define(tagName, ChatWidgetElement);
}

declare global {
  interface HTMLElementTagNameMap {
    'chat-widget': ChatWidgetElement;
  }
}
