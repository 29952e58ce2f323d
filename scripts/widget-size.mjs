#!/usr/bin/env node
// Prints the widget's sizes: the loader (dist/widget.js, on the host page's critical path)
// and the rest (the hashed script it loads), raw, gzip and Brotli, and the largest language file
// (widget.<lang>.<hash>.json, loaded only for that language). With --check, exits 1 when
// the loader is over 4 KB gzipped or the whole widget over 30 KB: a build check, not a timed test.
import { readFileSync } from 'node:fs';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export const LOADER_BUDGET_GZIP_BYTES = 4 * 1024;
export const BUDGET_GZIP_BYTES = 30 * 1024;

const manifest = JSON.parse(readFileSync('dist/widget-manifest.json', 'utf8'));
function sizes(file) {
  const raw = readFileSync(`dist/${file}`);
  return {
    raw: raw.length,
    gzip: gzipSync(raw, { level: 9 }).length,
    br: brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
}
const loader = sizes(manifest.loader);
const rest = sizes(manifest.script);
const total = { raw: loader.raw + rest.raw, gzip: loader.gzip + rest.gzip, br: loader.br + rest.br };
// Languages but English load only on pages that ask for one, one file each: shown, not budgeted.
const locales = Object.entries(manifest.locales ?? {}).map(([language, file]) => ({ language, file, ...sizes(file) }));
const largest = locales.sort((a, b) => b.gzip - a.gzip)[0];
const verdict = (bytes, budget) => `${bytes <= budget ? 'within' : 'OVER'} the ${budget}-byte gzip budget`;
const line = (name, s) => `${name.padEnd(34)} ${String(s.raw).padStart(7)} raw ${String(s.gzip).padStart(6)} gzip ${String(s.br).padStart(6)} br`;
process.stdout.write(
  [
    `${line(`loader  dist/${manifest.loader}`, loader)}  (${verdict(loader.gzip, LOADER_BUDGET_GZIP_BYTES)})`,
    line(`rest    dist/${manifest.script}`, rest),
    `${line('whole widget', total)}  (${verdict(total.gzip, BUDGET_GZIP_BYTES)})`,
    ...(largest ? [`${line(`largest of ${locales.length} languages (${largest.language})`, largest)}  (fetched only on a page in that language)`] : []),
  ].join('\n') + '\n',
);
if (process.argv.includes('--check') && (loader.gzip > LOADER_BUDGET_GZIP_BYTES || total.gzip > BUDGET_GZIP_BYTES)) process.exit(1);
