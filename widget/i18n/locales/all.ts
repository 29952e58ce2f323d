/**
 * Every shipped language's strings, for the npm package (which bundles them all), the
 * build (which writes one JSON file per language for the script tag) and tests.
 * To add a language: a file beside this one, listed here; widget/test/locales.test.ts
 * checks it has every key and every plural form the language needs.
 */
import { en, type WidgetStrings } from '../strings.ts';
import ar from './ar.ts';
import de from './de.ts';
import es from './es.ts';
import fr from './fr.ts';
import he from './he.ts';
import it from './it.ts';
import nl from './nl.ts';
import pl from './pl.ts';
import pt from './pt.ts';

export const LOCALES: Readonly<Record<string, WidgetStrings>> = { en, de, fr, es, it, pl, pt, nl, ar, he };

/** A LocaleSource (catalog.ts) over the bundled tables. */
export const bundledLocale = (language: string): Promise<WidgetStrings | undefined> =>
  Promise.resolve(LOCALES[language]);
