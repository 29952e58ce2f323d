/**
 * Where the widget's strings for a language come from. English is built in (strings.ts);
 * every other language is loaded when a widget first needs it, from the source the entry
 * point installed: the script tag fetches `widget.<lang>.<hash>.json` from the chat server
 * (locale-fetch.ts), the npm package and tests read the bundled tables (locales/all.ts).
 * This keeps the script tag's download the same size however many languages ship.
 */
import { en, languageOf, type WidgetStrings } from './strings.ts';

/** Resolves the strings of a language (`fr`), or undefined when it has none. */
export type LocaleSource = (language: string) => Promise<Partial<WidgetStrings> | undefined>;

let source: LocaleSource = () => Promise.resolve(undefined);
const loaded = new Map<string, Promise<Partial<WidgetStrings> | undefined>>();

export function setLocaleSource(next: LocaleSource): void {
  source = next;
  loaded.clear();
}

/** The strings for a locale (`de-CH` → `de`), loaded once per language; English on any failure. */
export function loadStrings(locale: string | undefined): Promise<Partial<WidgetStrings> | undefined> {
  const language = languageOf(locale);
  if (language === 'en') return Promise.resolve(en);
  let pending = loaded.get(language);
  if (!pending) {
    pending = source(language).catch((error: unknown) => {
      console.warn(`ChatWidget: the "${language}" strings could not be loaded, so the chat speaks English.`, error);
      loaded.delete(language);
      return undefined;
    });
    loaded.set(language, pending);
  }
  return pending;
}
