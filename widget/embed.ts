/**
 * The rest of the widget behind the script tag, an ES module loaded by loader.ts (`/widget.js`)
 * as `widget.<hash>.js`; loaded directly (`<script type="module">`) it works on its own too. Registers `<chat-widget>` and installs `window.ChatWidget`, replaying any
 * calls the page queued before this script arrived (Intercom/Crisp style):
 *
 *   window.ChatWidget = window.ChatWidget || function () {
 *     (window.ChatWidget.q = window.ChatWidget.q || []).push(arguments) };
 *   ChatWidget('init', { user: { email }, locale: 'de' });
 *   ChatWidget('on', 'closeChat', () => ChatWidget('close'));
 */
import { setLocaleSource } from './i18n/catalog.ts';
import { fetchedLocales } from './i18n/locale-fetch.ts';
import { defineChatWidget } from './define.ts';
import { INSTALLED_EVENT, type QueuedCall } from './loader-handover.ts';
import { createChatWidgetApi, type ChatWidgetApi } from './page-api.ts';

export type {
  ChatWidgetApi,
  ChatWidgetInitOptions,
  BotEventListener,
  WidgetHook,
  WidgetHookPayloads,
} from './page-api.ts';

declare global {
  interface Window {
    ChatWidget?: ChatWidgetApi;
  }
}

// A module: where it was loaded from is the chat server, unless the page names another.
const scriptServerUrl = new URL(import.meta.url).origin;
// Other languages than English come from beside this script (a path prefix of a reverse proxy included).
setLocaleSource(fetchedLocales(import.meta.url));

function install(): void {
  const existing = window.ChatWidget;
  if (existing?.loaded) return;
  // The loader's stand-in launcher goes now, in the same task as the element arrives: never two on screen.
  document.dispatchEvent(new Event(INSTALLED_EVENT));
  defineChatWidget();
  const api = Object.assign(createChatWidgetApi(scriptServerUrl), { loaded: true as const });
  window.ChatWidget = api;
  const queued: ArrayLike<QueuedCall> = existing?.q ?? [];
  for (const call of Array.from(queued)) {
    const [command, ...args] = Array.from(call);
    if (typeof command !== 'string') continue;
    // Run first: `settle?.(api(…))` would skip the call itself for the snippet's calls, which have no settle.
    const result = api(command, ...args);
    call.settle?.(result);
  }
}

// Wait for <body> when the script sits in <head> without async/defer.
if (document.body) install();
else document.addEventListener('DOMContentLoaded', install, { once: true });
