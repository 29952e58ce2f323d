import { t } from '../i18n/strings.ts';

/**
 * The sentence above the misses when a log holds more distinct inputs than are grouped
 * (INSIGHTS_MISSES_GROUPED): a cap of one reads as one input, not as "the 1 most frequent are".
 */
export function mostFrequentSentence(log: string, groupedAtMost: number, distinct: number): string {
  return t(groupedAtMost === 1 ? 'missesMostFrequentOne' : 'missesMostFrequent', { log, n: groupedAtMost, distinct });
}
