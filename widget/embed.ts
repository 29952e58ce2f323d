/**
 * Script-tag entry: `<script src="https://chat.example.com/widget.js" async>`.
 * Registers `<chat-widget>` and installs `window.ChatWidget`, replaying any
 * calls the page queued before this script arrived (Intercom/Crisp style):
 *
 *   window.ChatWidget = window.ChatWidget || function () {
 *     (window.ChatWidget.q = window.ChatWidget.q || []).push(arguments) };
 *   ChatWidget('init', { user: { email }, locale: 'de' });
 */
import { CHAT_WIDGET_TAG, defineChatWidget, type ChatWidgetElement } from './index.ts';

export interface ChatWidgetInitOptions {
  /** What the page knows about the user; sent at connect time. */
  readonly user?: Readonly<Record<string, unknown>>;
  readonly locale?: string;
  /** Open the panel right away. */
  readonly open?: boolean;
  /** Chat server base URL; defaults to where this script was loaded from. */
  readonly serverUrl?: string;
}

/** `window.ChatWidget`: callable with a command name, or through its methods. */
export interface ChatWidgetApi {
  (command: string, ...args: unknown[]): void;
  init(options?: ChatWidgetInitOptions): ChatWidgetElement;
  open(): void;
  close(): void;
  toggle(): void;
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

function element(): ChatWidgetElement {
  let widget = document.querySelector(CHAT_WIDGET_TAG);
  if (!widget) {
    widget = document.createElement(CHAT_WIDGET_TAG);
    document.body.append(widget);
  }
  return widget;
}

function init(options: ChatWidgetInitOptions = {}): ChatWidgetElement {
  let widget = document.querySelector(CHAT_WIDGET_TAG);
  const isNew = !widget;
  widget ??= document.createElement(CHAT_WIDGET_TAG);
  // user and locale go into the handshake, so set them before the element connects.
  if (options.user) widget.user = options.user;
  if (options.locale) widget.locale = options.locale;
  const serverUrl = options.serverUrl ?? (widget.serverUrl || scriptServerUrl || location.origin);
  widget.serverUrl = serverUrl;
  if (options.open) widget.open = true;
  if (isNew) document.body.append(widget);
  return widget;
}

const commands = {
  init,
  open: () => element().show(),
  close: () => element().hide(),
  toggle: () => element().toggle(),
};

function install(): void {
  const existing = window.ChatWidget;
  if (existing?.loaded) return;
  defineChatWidget();
  const api = ((command: string, ...args: unknown[]) => {
    if (!Object.hasOwn(commands, command)) {
      console.warn(`ChatWidget: unknown command "${command}"`);
      return;
    }
    (commands[command as keyof typeof commands] as (...a: unknown[]) => void)(...args);
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
