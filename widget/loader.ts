/**
 * What `<script src="https://bot.example.com/widget.js" async>` loads: the part of the widget
 * on the host page's critical path, kept to a few KB (budget in scripts/widget-size.mjs).
 * It installs `window.ChatWidget` as a queue, draws a launcher that looks like the real one
 * once the page calls init, and loads the rest of the widget (embed.ts, built to
 * `widget.<hash>.js`) when the browser is idle or at the first open, whichever comes first.
 * The rest replays the queue (embed.ts) and takes the launcher's place; because it loads on
 * idle and not only on a click, unread messages and triggered dialogs still arrive.
 *
 * Pages with Trusted Types (`require-trusted-types-for 'script'`) run it as it is: it builds its
 * launcher with DOM calls (no innerHTML) and loads the rest with import(), which is no
 * Trusted Types sink (script-src still decides where from), so it needs no policy of its own.
 *
 * No imports from lit or the element: anything imported here lands on the critical path.
 */
import { INSTALLED_EVENT, type QueuedCall } from './loader-handover.ts';
import type { ChatWidgetApi, ChatWidgetInitOptions } from './page-api.ts';

/** Replaced at build time with the hashed name of the rest (vite.config.ts). */
declare const __CHAT_WIDGET_SCRIPT__: string;
/** Replaced at build time with each shipped language's `openChat` (widget/i18n/locales/): the full tables would cost critical-path bytes. */
declare const __CHAT_WIDGET_OPEN_LABELS__: Readonly<Record<string, string>>;
const CHAT_ICON = 'M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H9l-5 4v-4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2z';
const SVG = 'http://www.w3.org/2000/svg';
const COMMANDS = [
  'init',
  'on',
  'off',
  'sendEvent',
  'setUserData',
  'startDialog',
  'open',
  'close',
  'toggle',
  'shutdown',
] as const;

(() => {
  const existing = window.ChatWidget;
  if (existing?.loaded) return;
  const script = document.currentScript;
  const src = script instanceof HTMLScriptElement && script.src ? script.src : `${location.origin}/widget.js`;
  // Relative to this script, so a path prefix in front of the server (a reverse proxy) carries over.
  const restUrl = new URL(__CHAT_WIDGET_SCRIPT__, src).href;
  let loading = false;
  let launcher: HTMLElement | undefined;

  function loadRest(): void {
    if (loading) return;
    loading = true;
    // A module, fetched with CORS (the server allows any origin); its chunks load relative to it.
    import(/* @vite-ignore */ restUrl).catch((error: unknown) =>
      console.error(`ChatWidget: could not load ${restUrl}; the chat stays closed.`, error),
    );
  }

  function drawLauncher(options: ChatWidgetInitOptions): void {
    // In <head> without async the body is not there yet: draw once it is.
    if (!document.body)
      return void document.addEventListener('DOMContentLoaded', () => drawLauncher(options), { once: true });
    if (launcher || options.hideLauncher) return;
    launcher = document.createElement('chat-widget-launcher');
    const root = launcher.attachShadow({ mode: 'open' });
    const label =
      options.strings?.openChat ?? __CHAT_WIDGET_OPEN_LABELS__[(options.locale ?? 'en').slice(0, 2)] ?? 'Open chat';
    const { theme, position } = options;
    const place = typeof position === 'string' ? { side: position } : (position ?? {});
    // Anything but left or right: the element ignores it (and says so), so the stand-in does too.
    const side = place.side === 'left' || place.side === 'right' ? place.side : 'inset-inline-end';
    const px = (value: number | string | undefined) => (typeof value === 'number' ? `${value}px` : (value ?? '20px'));
    // The same box, colours and place as the element's launcher (widget/styles/), so the handover does not jump.
    const css =
      `:host{position:fixed;${side}:${px(place.x)};bottom:${px(place.y)};z-index:2147483000}` +
      'button{display:block;width:56px;height:56px;border:0;border-radius:50%;background:var(--chat-accent,#2563eb);color:var(--chat-accent-text,#fff);' +
      'box-shadow:0 4px 12px rgb(0 0 0/.2);cursor:pointer;padding:0}svg{width:24px;height:24px;fill:currentColor;vertical-align:middle}';
    const button = document.createElement('button');
    button.type = 'button';
    button.setAttribute('part', 'launcher');
    button.setAttribute('aria-label', label);
    button.addEventListener('click', () => api('open'));
    const icon = document.createElementNS(SVG, 'svg');
    icon.setAttribute('viewBox', '0 0 24 24');
    icon.setAttribute('aria-hidden', 'true');
    const path = icon.appendChild(document.createElementNS(SVG, 'path'));
    path.setAttribute('d', CHAT_ICON);
    button.append(icon);
    root.append(button);
    // A constructed sheet, as Lit uses: a host page's CSP without 'unsafe-inline' styles still lets it apply.
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    root.adoptedStyleSheets = [sheet];
    if (typeof theme === 'object' && theme.accent) launcher.style.setProperty('--chat-accent', theme.accent);
    if (typeof theme === 'object' && theme.accentText)
      launcher.style.setProperty('--chat-accent-text', theme.accentText);
    const dir = options.dir ?? (/^(ar|he|fa|ur)\b/.test(options.locale ?? '') ? 'rtl' : undefined);
    if (dir) launcher.setAttribute('dir', dir);
    document.body.append(launcher);
  }

  const queue: QueuedCall[] = Array.from(existing?.q ?? []);
  const api = ((command: string, ...args: unknown[]) => {
    const call: QueuedCall = [command, ...args];
    const result = new Promise((resolve) => (call.settle = resolve));
    queue.push(call);
    if (command === 'init') drawLauncher((args[0] ?? {}) as ChatWidgetInitOptions);
    if (
      command === 'open' ||
      command === 'toggle' ||
      (command === 'init' && (args[0] as ChatWidgetInitOptions | undefined)?.open)
    )
      loadRest();
    return result;
  }) as ChatWidgetApi;
  for (const name of COMMANDS)
    (api as unknown as Record<string, unknown>)[name] = (...args: unknown[]) => api(name, ...args);
  api.q = queue;
  window.ChatWidget = api;

  document.addEventListener(INSTALLED_EVENT, () => launcher?.remove(), { once: true });
  for (const [command, options] of queue.map((call) => Array.from(call))) {
    if (command === 'init') drawLauncher((options ?? {}) as ChatWidgetInitOptions);
    if (
      command === 'open' ||
      command === 'toggle' ||
      (command === 'init' && (options as ChatWidgetInitOptions | undefined)?.open)
    )
      loadRest();
  }
  // Idle, but not never: a busy page still gets its triggered dialogs within a few seconds.
  const idle = window.requestIdleCallback ?? ((run: () => void) => setTimeout(run, 1));
  const start = () => idle(loadRest, { timeout: 3000 });
  if (document.readyState === 'complete') start();
  else window.addEventListener('load', start, { once: true });
})();
