/**
 * Library entry for bundler users. Importing it defines nothing and connects
 * nowhere; call `defineChatWidget()` to register `<chat-widget>`.
 */
export {
  ChatWidgetElement,
  THEME_PROPERTIES,
  type Theme,
  type ColorScheme,
  type MessageHookPayload,
} from './elements/chat-widget.ts';
export {
  ConnectionController,
  type ShownMessage,
  type ConnectionOptions,
  type CommandResult,
  type Identity,
} from './controllers/connection.ts';
export { socketTransport, SocketTransport } from './transport/socket-transport.ts';
export { en, plural, type WidgetStrings, type PluralForms } from './i18n/strings.ts';
export { setLocaleSource, loadStrings, type LocaleSource } from './i18n/catalog.ts';
export { LOCALES, bundledLocale } from './i18n/locales/all.ts';
export { renderMarkdown } from './render/markdown.ts';
export type {
  Transport,
  TransportEvents,
  TransportFactory,
  MessageAck,
  MessageAckResponse,
} from './transport/transport.ts';
export type {
  TranscriptItem,
  Session,
  ProtocolError,
  HandshakeAuth,
  BotEvent,
  BotMessage,
} from '../shared/protocol.ts';

export { CHAT_WIDGET_TAG, defineChatWidget } from './define.ts';
