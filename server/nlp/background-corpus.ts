import { BACKGROUND_DE } from './background-de.ts';
import { BACKGROUND_EN } from './background-en.ts';

/**
 * The off-topic sentences calibration reads for a bot's locale (its language part): German for
 * `de`, English for every other locale. For a language without its own list the English one is
 * still read, stemmed as that language; its words then mostly share nothing with the bot's, so
 * it checks little beyond keyboard noise, and the held-out intents carry the calibration.
 */
export function backgroundFor(locale: string): readonly string[] {
  return locale.split('-')[0]?.toLowerCase() === 'de' ? BACKGROUND_DE : BACKGROUND_EN;
}
