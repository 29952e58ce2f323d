/** A character some markup below starts with (or the placeholder an escape stands aside as). */
const MARKUP = /[\\`*[\u{F0000}]/u;

/** The markup subset of bot texts (**bold**, *italic*, `code`, [label](url), \\-escapes) as plain text every channel shows. */
export function plainText(markup: string): string {
  // Most bot texts hold no markup: each replacement below would scan them for nothing.
  if (!MARKUP.test(markup)) return markup;
  // Escaped characters (a template's value, such as a username with "_") stand aside while the markup goes.
  const escaped: string[] = [];
  const held = markup.replace(
    /\\([\\`*_{}[\]()#+\-.!|>~<])/g,
    (_, char: string) => `\u{F0000}${escaped.push(char) - 1}\u{F0001}`,
  );
  return held
    .replace(/\[([^\]]*)\]\(([^)\s]+)\)/g, (_, label: string, url: string) =>
      label && label !== url ? `${label} (${url})` : url,
    )
    .replace(/\*\*([^*]+)\*\*/g, '$1')
    .replace(/(^|[^*])\*([^*\n]+)\*/g, '$1$2')
    .replace(/`([^`]+)`/g, '$1')
    .replace(/\u{F0000}(\d+)\u{F0001}/gu, (_, index: string) => escaped[Number(index)] ?? '');
}
