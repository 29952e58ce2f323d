/**
 * The page API, shared by both ways in: `window.ChatWidget` (embed.ts, the script tag)
 * and `ChatWidget` exported by the npm package (package.ts). Each drives the page's one
 * `<chat-widget>`, creating it on first use.
 */
import type { BotEvent } from '../shared/protocol.ts';
import type { CommandResult, Identity } from './controllers/connection.ts';
import type { ChatWidgetElement, ColorScheme, MessageHookPayload, Theme } from './elements/chat-widget.ts';
import type { WidgetStrings } from './i18n/strings.ts';
import { CHAT_WIDGET_TAG } from './define.ts';

export interface ChatWidgetInitOptions {
  /** What the page knows about the user (e.g. email, page, authToken); saved before the first dialog runs. */
  readonly user?: Readonly<Record<string, unknown>>;
  /** Widget language: `en` (default), `de`, `fr`, `es`, `it`, `pl`, `pt`, `nl`, `ar`, `he`; anything else falls back to English. */
  readonly locale?: string;
  /** Open the panel right away. */
  readonly open?: boolean;
  /**
   * `'light'` (default), `'dark'`, or `'auto'` to follow the visitor's system (`prefers-color-scheme`);
   * or colours, radius and font, set as CSS custom properties over either scheme, with `scheme` beside them.
   */
  readonly theme?: ColorScheme | (Theme & { readonly scheme?: ColorScheme });
  /** No launcher button: the page opens the chat itself (`open()`), e.g. from its own button. */
  readonly hideLauncher?: boolean;
  /** Which side the launcher sits on (default: the reading direction's end), and how far from the side (`x`) and bottom (`y`): px numbers or CSS lengths. */
  readonly position?:
    'left' | 'right' | { readonly side?: 'left' | 'right'; readonly x?: number | string; readonly y?: number | string };
  /** Header title; default the bot's name from its definition. */
  readonly title?: string;
  /** Header picture (http(s) URL); default the bot's avatar from its definition. */
  readonly avatarUrl?: string;
  /** Overrides for any of the widget's strings. */
  readonly strings?: Partial<WidgetStrings>;
  /** `rtl` or `ltr`; by default derived from the locale. */
  readonly dir?: 'rtl' | 'ltr';
  /** Identity verification: your user id and HMAC-SHA256(BOT_IDENTITY_SECRET, userId) as hex. */
  readonly userId?: string;
  readonly userHash?: string;
  /**
   * A phone number your site verified (E.164, `+4915112345678`), signed with the user id: `userHash`
   * is then HMAC-SHA256(BOT_IDENTITY_SECRET, userId + "\n" + userPhone). With BOT_IDENTITY_LINK_PHONE
   * the chat goes on with that number's WhatsApp conversation (docs/widget.md).
   */
  readonly userPhone?: string;
  /**
   * Chat server base URL, e.g. `https://bot.example.com`. Script tag: defaults to where the
   * script was loaded from. npm package: required (its `init` type says so), even when the chat
   * server serves the page itself (`location.origin` then).
   */
  readonly serverUrl?: string;
}

export type BotEventListener = (payload: Readonly<Record<string, unknown>>, event: BotEvent) => void;

/** What each of the widget's own hooks passes its listener. */
export interface WidgetHookPayloads {
  readonly unreadCountChange: { readonly count: number };
  readonly open: Record<string, never>;
  readonly close: Record<string, never>;
  readonly message: MessageHookPayload;
}
export type WidgetHook = keyof WidgetHookPayloads;

/**
 * The widget's own hooks. These names belong to the widget: a bot event of the same name
 * reaches only `bot:<name>` listeners. Every bot event reaches `bot:<name>`, and `<name>` too
 * when it is not one of these.
 */
export const WIDGET_HOOKS: readonly WidgetHook[] = ['unreadCountChange', 'open', 'close', 'message'];

/** The page API: callable with a command name (`ChatWidget('open')`), or through its methods (`ChatWidget.open()`). */
export interface ChatWidgetApi {
  (command: string, ...args: unknown[]): unknown;
  /** Adds the launcher (once) and applies the options; calling it again updates them. */
  init(options?: ChatWidgetInitOptions): ChatWidgetElement;
  /** Runs `listener` on one of the widget's hooks (WIDGET_HOOKS), or whenever the bot sends the event `name` (or `bot:name`) to the page. */
  on<H extends WidgetHook>(name: H, listener: (payload: WidgetHookPayloads[H]) => void): void;
  on(name: string, listener: BotEventListener): void;
  /** Removes one listener, or every listener of `name` when none is given. */
  off(name: string, listener?: BotEventListener): void;
  /** A page event (a click, a filled field): the bot definition decides whether it saves data or starts a dialog. */
  sendEvent(name: string, payload?: Readonly<Record<string, unknown>>): Promise<CommandResult>;
  /** Saves fields into the user's data. */
  setUserData(fields: Readonly<Record<string, unknown>>): Promise<CommandResult>;
  /** Starts a dialog of the bot; `data` becomes its variable `pageData`. */
  startDialog(dialogId: string, data?: Readonly<Record<string, unknown>>): Promise<CommandResult>;
  open(): void;
  close(): void;
  toggle(): void;
  /** Forgets the user on this device and removes the widget; a later init() starts a new user. */
  shutdown(): void;
  /** Script tag only: calls made before the script loaded; emptied once replayed. */
  q?: ArrayLike<unknown>[];
  /** Script tag only: set once the script has installed the API, so a second copy leaves it alone. */
  loaded?: true;
}

/**
 * Builds the API; `defaultServerUrl` is used when init() names no server. Without either (the
 * npm package), init() says so in the console and adds nothing: no launcher that cannot work,
 * no connection attempts against the page's own origin.
 */
export function createChatWidgetApi(defaultServerUrl: string): ChatWidgetApi {
  const listeners = new Map<string, ((...args: never[]) => void)[]>();
  const warned = new Set<string>();

  /** Runs the listeners of `name`; false when there are none. */
  function run(name: string, ...args: unknown[]): boolean {
    const registered = listeners.get(name) ?? [];
    for (const listener of registered) {
      try {
        (listener as (...a: unknown[]) => void)(...args);
      } catch (error) {
        console.error(`ChatWidget: a listener for "${name}" threw`, error);
      }
    }
    return registered.length > 0;
  }

  function onBotEvent(event: Event): void {
    const detail = (event as CustomEvent<BotEvent>).detail;
    const heard = run(`bot:${detail.name}`, detail.payload, detail);
    if (
      (WIDGET_HOOKS as readonly string[]).includes(detail.name)
        ? heard
        : run(detail.name, detail.payload, detail) || heard
    )
      return;
    // Not an error: the page simply does not care about this event. Say so once.
    if (!warned.has(detail.name))
      console.info(`ChatWidget: the bot sent the event "${detail.name}" and no listener is registered for it.`);
    warned.add(detail.name);
  }

  function element(): ChatWidgetElement {
    return document.querySelector(CHAT_WIDGET_TAG) ?? init();
  }

  function init(options: ChatWidgetInitOptions = {}): ChatWidgetElement {
    let widget = document.querySelector(CHAT_WIDGET_TAG);
    const isNew = !widget;
    widget ??= document.createElement(CHAT_WIDGET_TAG);
    const serverUrl = options.serverUrl || widget.serverUrl || defaultServerUrl;
    if (!serverUrl) {
      if (!warned.has(' serverUrl')) {
        console.error(
          "ChatWidget: init() needs serverUrl, the chat server's address, e.g. ChatWidget.init({ serverUrl: 'https://bot.example.com' }). The chat does not start without it.",
        );
      }
      warned.add(' serverUrl');
      return widget;
    }
    applyOptions(widget, options, isNew);
    widget.serverUrl = serverUrl;
    if (options.open) widget.open = true;
    if (isNew) {
      widget.addEventListener('chat-widget-event', onBotEvent);
      widget.addEventListener('chat-widget-toggle', (e) =>
        run((e as CustomEvent<{ open: boolean }>).detail.open ? 'open' : 'close', {}),
      );
      widget.addEventListener('chat-widget-unread', (e) => run('unreadCountChange', (e as CustomEvent).detail));
      widget.addEventListener('chat-widget-message', (e) => run('message', (e as CustomEvent).detail));
      document.body.append(widget);
    }
    return widget;
  }

  const commands = {
    init,
    on(name: string, listener: (...args: never[]) => void) {
      if (typeof listener === 'function') listeners.set(name, [...(listeners.get(name) ?? []), listener]);
    },
    off(name: string, listener?: (...args: never[]) => void) {
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

  const api = ((command: string, ...args: unknown[]) => {
    if (!Object.hasOwn(commands, command)) {
      console.warn(`ChatWidget: unknown command "${command}"`);
      return undefined;
    }
    return (commands[command as keyof typeof commands] as (...a: unknown[]) => unknown)(...args);
  }) as ChatWidgetApi;
  return Object.assign(api, commands);
}

/** `value` when it is one of `allowed`; else undefined, and the console says what would do. */
function checked<T extends string>(option: string, value: T, allowed: readonly T[]): T | undefined {
  if (allowed.includes(value)) return value;
  console.warn(`ChatWidget: init ${option} "${value}" is not one of ${allowed.join(', ')}; it is ignored.`);
  return undefined;
}

/** Sets what init() was given on the element; what it was not given keeps its value. */
function applyOptions(widget: ChatWidgetElement, options: ChatWidgetInitOptions, isNew: boolean): void {
  // user, locale and identity go into the handshake, so set them before the element connects.
  if (options.user) {
    widget.user = { ...widget.user, ...options.user };
    // Already connected: the handshake has gone, so the new facts travel as user data.
    if (!isNew) void widget.setUserData(options.user);
  }
  if (options.locale) widget.locale = options.locale;
  if (options.userId && options.userHash)
    widget.identity = {
      userId: options.userId,
      userHash: options.userHash,
      ...(options.userPhone ? { phone: options.userPhone } : {}),
    } satisfies Identity;
  if (options.strings) widget.strings = { ...widget.strings, ...options.strings };
  const { theme, position } = options;
  const scheme = typeof theme === 'string' ? theme : theme?.scheme;
  if (scheme) widget.colorScheme = checked('theme', scheme, ['light', 'dark', 'auto']) ?? widget.colorScheme;
  if (typeof theme === 'object') {
    const { scheme: _, ...colours } = theme;
    widget.theme = { ...widget.theme, ...colours };
  }
  if (options.hideLauncher !== undefined) widget.hideLauncher = options.hideLauncher;
  const side = typeof position === 'string' ? position : position?.side;
  if (side) widget.position = checked('position', side, ['left', 'right']) ?? widget.position;
  if (typeof position === 'object') {
    for (const [axis, value] of [
      ['x', position.x],
      ['y', position.y],
    ] as const) {
      if (value !== undefined)
        widget.style.setProperty(`--chat-offset-${axis}`, typeof value === 'number' ? `${value}px` : value);
    }
  }
  if (options.title !== undefined) widget.chatTitle = options.title;
  if (options.avatarUrl !== undefined) widget.avatarUrl = options.avatarUrl;
  if (options.dir) widget.setAttribute('dir', options.dir);
}
