import { tableFor } from '../../i18n/catalogue.ts';
import helpDe from './help-de.ts';
import helpEn from './help-en.ts';

/** A language's help texts, keyed by the English description the server's schema carries. */
export type HelpTexts = Readonly<Record<string, string>>;

/** The studio's own texts per language; English rewords only what names a stored value, the rest is the server's. */
const HELP: Readonly<Record<string, HelpTexts>> = { de: helpDe };

/** The help texts for a locale (`de-CH` → German); the studio's English when the language has none. */
export function helpFor(locale: string | undefined): HelpTexts {
  return tableFor(HELP, locale, helpEn);
}
