const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const ELLIPSIS = '…';

/** Bytes the text takes in UTF-8 (the vendors' limits on payload ids count bytes). */
export const utf8Bytes = (text: string) => Buffer.byteLength(text, 'utf8');

/**
 * The text cut to at most `max` UTF-16 code units (what the vendors count; `size` measures
 * otherwise, such as utf8Bytes), between whole graphemes (an emoji with its modifiers, a letter
 * with its combining marks is never split), with an ellipsis when anything was cut.
 */
export function truncate(text: string, max: number, size: (text: string) => number = (t) => t.length): string {
  if (size(text) <= max) return text;
  const space = max - size(ELLIPSIS);
  if (space < 0) return '';
  let kept = '';
  let used = 0;
  for (const { segment } of segmenter.segment(text)) {
    const more = size(segment);
    if (used + more > space) break;
    kept += segment;
    used += more;
  }
  return kept.trimEnd() + ELLIPSIS;
}

/**
 * Titles cut to `max` and made unique: a title equal to an earlier one (as cut, in any case, or in
 * `taken`, the titles already shown in the same message) gets " (2)", " (3)" … within the limit, so
 * a user answering by label always names one choice. Adds the titles to `taken`.
 */
export function uniqueTitles(titles: readonly string[], max: number, taken = new Set<string>()): string[] {
  return titles.map((title) => {
    const clean = title.replace(/\s+/g, ' ').trim() || '…';
    let shown = truncate(clean, max);
    for (let n = 2; taken.has(shown.toLowerCase()); n++) {
      const suffix = ` (${n})`;
      shown = truncate(clean, max - suffix.length) + suffix;
    }
    taken.add(shown.toLowerCase());
    return shown;
  });
}
