/**
 * Entry of the npm package (built to dist/package/, see vite.config.ts). Importing it
 * registers `<chat-widget>`, so the standalone element works in the app's markup, and
 * exports the page API that script-tag pages reach as `window.ChatWidget`:
 *
 *   import { ChatWidget } from 'chatbot-widget';
 *   ChatWidget.init({ serverUrl: 'https://bot.example.com', user: { email } });
 *   ChatWidget.on('closeChat', () => ChatWidget.close());
 */
import { setLocaleSource } from './i18n/catalog.ts';
import { bundledLocale } from './i18n/locales/all.ts';
import { defineChatWidget } from './index.ts';
import type { ChatWidgetElement } from './elements/chat-widget.ts';
import { createChatWidgetApi, type ChatWidgetApi, type ChatWidgetInitOptions as PageInitOptions } from './page-api.ts';

// Every language ships inside the package; the app's bundler decides what to split.
setLocaleSource(bundledLocale);
defineChatWidget();

/** init options in an app: the package cannot know where the chat server is, so `serverUrl` is required. */
export interface ChatWidgetInitOptions extends PageInitOptions {
  /** The chat server's base URL, e.g. `https://bot.example.com` (`location.origin` when it serves the app too). */
  readonly serverUrl: string;
}

/** The page API as the package exports it: `init` takes `serverUrl`, the rest is `window.ChatWidget`'s. */
export interface ChatWidgetPackageApi extends Omit<ChatWidgetApi, 'init'> {
  (command: string, ...args: unknown[]): unknown;
  /** Adds the launcher (once) and applies the options; calling it again updates them. */
  init(options: ChatWidgetInitOptions): ChatWidgetElement;
}

/** The page API; init() creates the launcher. Without `serverUrl` (an app in plain JavaScript) it logs an error and starts nothing. */
export const ChatWidget: ChatWidgetPackageApi = createChatWidgetApi('');

export {
  WIDGET_HOOKS,
  type ChatWidgetApi,
  type BotEventListener,
  type WidgetHook,
  type WidgetHookPayloads,
} from './page-api.ts';
export {
  ChatWidgetElement,
  CHAT_WIDGET_TAG,
  defineChatWidget,
  type Theme,
  type ColorScheme,
  type MessageHookPayload,
  type WidgetStrings,
  type CommandResult,
  type Identity,
  type BotEvent,
} from './index.ts';
