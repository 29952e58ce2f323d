/**
 * Vite plugin for the widget's builds: Lit's `css` and `html` tagged templates reach the
 * bundle as written (the minifier leaves string contents alone), indentation and all.
 * This squeezes their whitespace at build time, which is what keeps the widget within its
 * size budget (scripts/widget-size.mjs) with space for features.
 * - css``: whitespace runs become one space, and none around `{ } ; : ,` or before `!`.
 * - html``: a whitespace run that holds a line break becomes one space; the browser renders
 *   any run as one space anyway (the widget's `white-space: pre*` text never comes from a
 *   template's own line breaks).
 * Template parts (`${…}`) are left as they are.
 */
import MagicString from 'magic-string';
import type { Plugin } from 'vite';

const TEMPLATE = /\b(css|html)`((?:[^`\\$]|\\.|\$(?!\{)|\$\{(?:[^{}]|\{[^{}]*\})*\})*)`/g;
const PART = /(\$\{(?:[^{}]|\{[^{}]*\})*\})/;

export function minifyCss(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .replace(/\s*([{};,])\s*/g, '$1')
    .replace(/([{;]\s*[\w-]+):\s+/g, '$1:')
    .replace(/\(\s*([\w-]+):\s+/g, '($1:')
    .replace(/\s+!/g, '!')
    .replace(/;}/g, '}')
    .trim();
}

export function minifyHtml(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ');
}

function squeeze(kind: string, body: string): string {
  const minify = kind === 'css' ? minifyCss : minifyHtml;
  return body
    .split(PART)
    .map((piece, index) => (index % 2 === 1 ? piece : minify(piece)))
    .join('');
}

export function minifyTemplates(): Plugin {
  return {
    name: 'chat-widget-minify-templates',
    apply: 'build',
    transform(code, id) {
      if (!/\/widget\/.*\.ts$/.test(id) || !/\b(css|html)`/.test(code)) return null;
      // Edited in place, so the source map still points at the lines as written.
      const out = new MagicString(code);
      for (const match of code.matchAll(TEMPLATE)) {
        const [, kind = '', body = ''] = match;
        const start = match.index + kind.length + 1;
        const squeezed = squeeze(kind, body);
        if (squeezed !== body) out.overwrite(start, start + body.length, squeezed);
      }
      return { code: out.toString(), map: out.generateMap({ hires: true, source: id }) };
    },
  };
}
