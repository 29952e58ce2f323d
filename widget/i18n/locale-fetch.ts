/**
 * The script tag's LocaleSource (catalog.ts): fetches `widget.<lang>.<hash>.json` from where
 * the widget's script came from. The build (vite.config.ts) puts the names of this build's
 * files in `__CHAT_WIDGET_LOCALES__`; the files are immutable, so the browser caches them for good.
 */
import type { LocaleSource } from './catalog.ts';

declare const __CHAT_WIDGET_LOCALES__: Readonly<Record<string, string>> | undefined;

export function fetchedLocales(scriptUrl: string): LocaleSource {
  const files = typeof __CHAT_WIDGET_LOCALES__ === 'object' ? __CHAT_WIDGET_LOCALES__ : {};
  return async (language) => {
    const file = files[language];
    if (!file) return undefined;
    const response = await fetch(new URL(file, scriptUrl || location.href), { credentials: 'omit' });
    if (!response.ok) throw new Error(`${response.status} for ${response.url}`);
    return (await response.json()) as Record<string, never>;
  };
}
