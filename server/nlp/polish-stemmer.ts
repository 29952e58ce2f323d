/**
 * A light Polish stemmer: strips the longest common inflectional suffix and
 * keeps a stem of at least three letters. Snowball has no Polish algorithm;
 * for matching a user's words against a bot's examples, folding the cases of
 * nouns and adjectives and the person endings of verbs covers most of what a
 * full morphological analyser would.
 */
const SUFFIXES = [
  'owaniami', 'owaniach', 'ościami', 'ościach', 'owanie', 'owania', 'owaniu', 'aniem', 'eniem', 'ością',
  // Verbal nouns (zamówienie, zamówienia, zamówieniem, zamówień → zamów).
  'ieniami', 'ieniach', 'ieniem', 'ieniom', 'ienia', 'ienie', 'ieniu', 'ień', 'aniami', 'aniach', 'ania', 'anie', 'aniu', 'eniami', 'eniach', 'enia', 'enie', 'eniu', 'eń',
  // Imperatives (anuluj, sprawdź).
  'ujcie', 'uj',
  'ujemy', 'ujecie', 'ujesz', 'iście', 'ości', 'ość', 'ować', 'ował', 'owała', 'owali',
  'ach', 'ami', 'ego', 'emu', 'ych', 'ymi', 'ich', 'imi', 'iej', 'owi', 'ową', 'owe', 'owy', 'owa', 'ami',
  'uje', 'ują', 'uję', 'amy', 'emy', 'imy', 'acie', 'ecie', 'icie', 'ają', 'asz', 'esz', 'isz', 'ysz',
  'ać', 'eć', 'ić', 'yć', 'ał', 'ała', 'ało', 'ały', 'ali', 'ił', 'iła', 'ili', 'ył', 'yła', 'yli',
  'ów', 'om', 'em', 'ie', 'ej', 'ym', 'im', 'ą', 'ę', 'y', 'i', 'a', 'o', 'u', 'e',
].sort((a, b) => b.length - a.length);

export function stemPolish(word: string): string {
  for (const suffix of SUFFIXES) {
    if (word.length - suffix.length >= 3 && word.endsWith(suffix)) return word.slice(0, -suffix.length);
  }
  return word;
}
