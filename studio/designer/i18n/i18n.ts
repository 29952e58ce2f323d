import { tableFor } from '../../i18n/catalogue.ts';
import de from './strings-de.ts';
import { en, type DesignerStrings } from './strings.ts';

/** Every language the designer speaks. The studio loads only at /studio, so they ship in its bundle. */
export const LOCALES: Readonly<Record<string, DesignerStrings>> = { en, de };

/** The strings for a locale (`de-CH` → German), English when the language has none. */
export function stringsFor(locale: string | undefined): DesignerStrings {
  return tableFor(LOCALES, locale, en);
}
