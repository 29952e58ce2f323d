import { html, nothing, type TemplateResult } from 'lit';
import { safeUrl } from './safe-url.ts';

/**
 * The safe markdown subset the bot may send: **bold**, *italic*, `code`,
 * [links](https://…), line breaks and backslash escapes. Output is Lit templates built from text
 * bindings only (never innerHTML), so markup in the text is shown, never parsed.
 * Links open in a new tab with rel=noopener; any scheme but http(s)/mailto stays text.
 * Through the script tag this is a chunk of its own, loaded the first time a bot message holds
 * markup (render/lazy.ts); plain text needs none of it.
 */
export function renderMarkdown(text: string, baseUrl?: string): TemplateResult {
  const lines = text.split('\n');
  return html`${lines.map((line, i) => html`${i > 0 ? html`<br />` : nothing}${inline(line, 0, baseUrl)}`)}`;
}

// A backslash escape comes first: the server escapes what users typed into templates
// (`\*`, `\[`, …), so their text shows as typed and never becomes markup.
const TOKEN =
  /\\([\\`*_[\]()])|`([^`]+)`|\*\*(.+?)\*\*|\*([^*\s](?:[^*]*[^*\s])?)\*|\[([^\]]+)\]\(((?:https?:\/\/|mailto:|\/)[^\s()]+)\)/;

/** Nesting is bounded so a hostile message cannot recurse deeply. */
function inline(text: string, depth: number, baseUrl: string | undefined): Array<TemplateResult | string> {
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
    else if (bold !== undefined) out.push(html`<strong>${inline(bold, depth + 1, baseUrl)}</strong>`);
    else if (italic !== undefined) out.push(html`<em>${inline(italic, depth + 1, baseUrl)}</em>`);
    else if (label !== undefined && href !== undefined) {
      const url = href.startsWith('mailto:') ? href : safeUrl(href, baseUrl);
      out.push(
        url ? html`<a href=${url} target="_blank" rel="noopener">${inline(label, depth + 1, baseUrl)}</a>` : whole,
      );
    }
    rest = rest.slice(match.index + whole.length);
  }
  return out;
}
