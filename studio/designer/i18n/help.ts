import { tableFor } from '../../i18n/catalogue.ts';
import helpDe from './help-de.ts';

/** A language's help texts, keyed by the English description the server's schema carries. */
export type HelpTexts = Readonly<Record<string, string>>;

/** Every language but English has a table: the server writes the schema's descriptions in English. */
const HELP: Readonly<Record<string, HelpTexts>> = { de: helpDe };

/** The help texts for a locale (`de-CH` → German); none (the server's English) when the language has none. */
export function helpFor(locale: string | undefined): HelpTexts {
  return tableFor(HELP, locale, {});
}
