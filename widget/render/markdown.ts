import { html, nothing, type TemplateResult } from 'lit';

/**
 * The safe markdown subset the bot may send: **bold**, *italic*, `code`,
 * [links](https://…), line breaks and backslash escapes. Output is Lit templates built from text
 * bindings only (never innerHTML), so markup in the text is shown, never parsed.
 * Links open in a new tab with rel=noopener; any scheme but http(s)/mailto stays text.
 */
export function renderMarkdown(text: string): TemplateResult {
  const lines = text.split('\n');
  return html`${lines.map((line, i) => html`${i > 0 ? html`<br />` : nothing}${inline(line, 0)}`)}`;
}

// A backslash escape comes first: the server escapes what users typed into templates
// (`\*`, `\[`, …), so their text shows as typed and never becomes markup.
const TOKEN = /\\([\\`*_[\]()])|`([^`]+)`|\*\*(.+?)\*\*|\*([^*\s](?:[^*]*[^*\s])?)\*|\[([^\]]+)\]\(((?:https?:\/\/|mailto:)[^\s()]+)\)/;

/** Nesting is bounded so a hostile message cannot recurse deeply. */
function inline(text: string, depth: number): Array<TemplateResult | string> {
  const out: Array<TemplateResult | string> = [];
  let rest = text;
  while (rest) {
    const match = depth < 3 ? TOKEN.exec(rest) : null;
    if (!match) {
      out.push(rest);
      break;
    }
    if (match.index > 0) out.push(rest.slice(0, match.index));
    const [whole, escaped, code, bold, italic, label, href] = match;
    if (escaped !== undefined) out.push(escaped);
    else if (code !== undefined) out.push(html`<code>${code}</code>`);
    else if (bold !== undefined) out.push(html`<strong>${inline(bold, depth + 1)}</strong>`);
    else if (italic !== undefined) out.push(html`<em>${inline(italic, depth + 1)}</em>`);
    else if (label !== undefined && href !== undefined) out.push(html`<a href=${href} target="_blank" rel="noopener">${inline(label, depth + 1)}</a>`);
    rest = rest.slice(match.index + whole.length);
  }
  return out;
}

/** Only web addresses become links or image sources; `javascript:` and friends never do. */
export function safeUrl(url: string): string | null {
  return /^https?:\/\//i.test(url) || url.startsWith('/') ? url : null;
}
