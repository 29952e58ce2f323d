/**
 * Script-tag entry: `<script src="https://chat.example.com/widget.js" async>`.
 * Registers `<chat-widget>` and installs `window.ChatWidget`, replaying any
 * calls the page queued before this script arrived (Intercom/Crisp style):
 *
 *   window.ChatWidget = window.ChatWidget || function () {
 *     (window.ChatWidget.q = window.ChatWidget.q || []).push(arguments) };
 *   ChatWidget('init', { user: { email }, locale: 'de' });
 *   ChatWidget('on', 'closeChat', () => ChatWidget('close'));
 */
import type { BotEvent } from '../shared/protocol.ts';
import type { CommandResult, Identity } from './controllers/connection.ts';
import type { Theme } from './elements/chat-widget.ts';
import type { WidgetStrings } from './i18n/strings.ts';
import { CHAT_WIDGET_TAG, defineChatWidget, type ChatWidgetElement } from './index.ts';

export interface ChatWidgetInitOptions {
  /** What the page knows about the user (e.g. email, page, authToken); saved before the first dialog runs. */
  readonly user?: Readonly<Record<string, unknown>>;
  /** Widget language (`en` default, `de` shipped; anything else falls back to English). */
  readonly locale?: string;
  /** Open the panel right away. */
  readonly open?: boolean;
  /** Colours, radius and font, set as CSS custom properties. */
  readonly theme?: Theme;
  /** Overrides for any of the widget's strings. */
  readonly strings?: Partial<WidgetStrings>;
  /** `rtl` or `ltr`; by default derived from the locale. */
  readonly dir?: 'rtl' | 'ltr';
  /** Identity verification: your user id and HMAC-SHA256(BOT_IDENTITY_SECRET, userId) as hex. */
  readonly userId?: string;
  readonly userHash?: string;
  /** Chat server base URL; defaults to where this script was loaded from. */
  readonly serverUrl?: string;
}

export type BotEventListener = (payload: Readonly<Record<string, unknown>>, event: BotEvent) => void;

/** `window.ChatWidget`: callable with a command name, or through its methods. */
export interface ChatWidgetApi {
  (command: string, ...args: unknown[]): unknown;
  init(options?: ChatWidgetInitOptions): ChatWidgetElement;
  /** Runs `listener` whenever the bot sends the event `name` to the page. */
  on(name: string, listener: BotEventListener): void;
  off(name: string, listener?: BotEventListener): void;
  /** A page event (a click, a filled field): the bot definition decides whether it saves data or starts a dialog. */
  sendEvent(name: string, payload?: Readonly<Record<string, unknown>>): Promise<CommandResult>;
  setUserData(fields: Readonly<Record<string, unknown>>): Promise<CommandResult>;
  startDialog(dialogId: string, data?: Readonly<Record<string, unknown>>): Promise<CommandResult>;
  open(): void;
  close(): void;
  toggle(): void;
  /** Forgets the user on this device and removes the widget; a later init() starts a new user. */
  shutdown(): void;
  /** Calls made before the script loaded; emptied once replayed. */
  q?: ArrayLike<unknown>[];
  /** Set once this script has installed the API, so a second copy leaves it alone. */
  loaded?: true;
}

declare global {
  interface Window {
    ChatWidget?: ChatWidgetApi;
  }
}

// document.currentScript is only set while this script first runs, so read it now.
const scriptServerUrl = originOf(document.currentScript);

function originOf(script: HTMLOrSVGScriptElement | null): string {
  if (!(script instanceof HTMLScriptElement) || !script.src) return '';
  try {
    return new URL(script.src).origin;
  } catch {
    return '';
  }
}

const listeners = new Map<string, BotEventListener[]>();
const warned = new Set<string>();

function onBotEvent(event: Event): void {
  const detail = (event as CustomEvent<BotEvent>).detail;
  const registered = listeners.get(detail.name) ?? [];
  if (registered.length === 0) {
    // Not an error: the page simply does not care about this event. Say so once.
    if (!warned.has(detail.name)) console.info(`ChatWidget: the bot sent the event "${detail.name}" and no listener is registered for it.`);
    warned.add(detail.name);
    return;
  }
  for (const listener of registered) {
    try {
      listener(detail.payload, detail);
    } catch (error) {
      console.error(`ChatWidget: a listener for "${detail.name}" threw`, error);
    }
  }
}

function element(): ChatWidgetElement {
  return document.querySelector(CHAT_WIDGET_TAG) ?? init();
}

function init(options: ChatWidgetInitOptions = {}): ChatWidgetElement {
  let widget = document.querySelector(CHAT_WIDGET_TAG);
  const isNew = !widget;
  widget ??= document.createElement(CHAT_WIDGET_TAG);
  // user, locale and identity go into the handshake, so set them before the element connects.
  if (options.user) {
    widget.user = { ...widget.user, ...options.user };
    // Already connected: the handshake has gone, so the new facts travel as user data.
    if (!isNew) void widget.setUserData(options.user);
  }
  if (options.locale) widget.locale = options.locale;
  if (options.userId && options.userHash) widget.identity = { userId: options.userId, userHash: options.userHash } satisfies Identity;
  if (options.strings) widget.strings = { ...widget.strings, ...options.strings };
  if (options.theme) widget.theme = { ...widget.theme, ...options.theme };
  if (options.dir) widget.setAttribute('dir', options.dir);
  widget.serverUrl = options.serverUrl ?? (widget.serverUrl || scriptServerUrl || location.origin);
  if (options.open) widget.open = true;
  if (isNew) {
    widget.addEventListener('chat-widget-event', onBotEvent);
    document.body.append(widget);
  }
  return widget;
}

const commands = {
  init,
  on(name: string, listener: BotEventListener) {
    if (typeof listener === 'function') listeners.set(name, [...(listeners.get(name) ?? []), listener]);
  },
  off(name: string, listener?: BotEventListener) {
    const kept = listener ? (listeners.get(name) ?? []).filter((l) => l !== listener) : [];
    listeners.set(name, kept);
  },
  sendEvent: (name: string, payload?: Readonly<Record<string, unknown>>) => element().sendEvent(name, payload),
  setUserData: (fields: Readonly<Record<string, unknown>>) => element().setUserData(fields),
  startDialog: (dialogId: string, data?: Readonly<Record<string, unknown>>) => element().startDialog(dialogId, data),
  open: () => element().show(),
  close: () => element().hide(),
  toggle: () => element().toggle(),
  shutdown() {
    const widget = document.querySelector(CHAT_WIDGET_TAG);
    widget?.shutdown();
    widget?.remove();
  },
};

function install(): void {
  const existing = window.ChatWidget;
  if (existing?.loaded) return;
  defineChatWidget();
  const api = ((command: string, ...args: unknown[]) => {
    if (!Object.hasOwn(commands, command)) {
      console.warn(`ChatWidget: unknown command "${command}"`);
      return undefined;
    }
    return (commands[command as keyof typeof commands] as (...a: unknown[]) => unknown)(...args);
  }) as ChatWidgetApi;
  Object.assign(api, commands, { loaded: true });
  window.ChatWidget = api;
  const queued = existing?.q ?? [];
  for (const call of Array.from(queued)) {
    const [command, ...args] = Array.from(call);
    if (typeof command === 'string') api(command, ...args);
  }
}

// Wait for <body> when the script sits in <head> without async/defer.
if (document.body) install();
else document.addEventListener('DOMContentLoaded', install, { once: true });
