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
import { createChatWidgetApi, type ChatWidgetApi } from './page-api.ts';

// Every language ships inside the package; the app's bundler decides what to split.
setLocaleSource(bundledLocale);
defineChatWidget();

/** The page API; init() creates the launcher and needs `serverUrl` unless the chat server serves the page. */
export const ChatWidget: ChatWidgetApi = createChatWidgetApi('');

export { WIDGET_HOOKS, type ChatWidgetApi, type ChatWidgetInitOptions, type BotEventListener, type WidgetHook, type WidgetHookPayloads } from './page-api.ts';
export { ChatWidgetElement, CHAT_WIDGET_TAG, defineChatWidget, type Theme, type ColorScheme, type MessageHookPayload, type WidgetStrings, type CommandResult, type Identity, type BotEvent } from './index.ts';
