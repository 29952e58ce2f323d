#!/usr/bin/env node
// Prints the widget's sizes: the loader (dist/widget.js, on the host page's critical path)
// and the rest (the hashed module it imports), raw, gzip and Brotli; then what loads only when needed:
// each chunk (widget.<name>.<hash>.js, when a message first needs it) and the largest language file
// (widget.<lang>.<hash>.json, only for that language). With --check, exits 1 when the loader is
// over 4 KB gzipped, what every page loads (loader and rest) over 30 KB, or loader, rest and every
// chunk together over 40 KB: a build check, not a timed test.
import { readFileSync } from 'node:fs';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export const LOADER_BUDGET_GZIP_BYTES = 4 * 1024;
export const BUDGET_GZIP_BYTES = 30 * 1024;
/** Everything the script tag can ever load but languages: the chunks may not grow without bound either. */
export const WITH_CHUNKS_BUDGET_GZIP_BYTES = 40 * 1024;

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
const add = (a, b) => ({ raw: a.raw + b.raw, gzip: a.gzip + b.gzip, br: a.br + b.br });
const total = add(loader, rest);
const chunks = Object.entries(manifest.chunks ?? {}).map(([name, file]) => ({ name, file, ...sizes(file) }));
const everything = chunks.reduce(add, total);
// Languages but English load only on pages that ask for one, one file each: shown, not budgeted.
const locales = Object.entries(manifest.locales ?? {}).map(([language, file]) => ({ language, file, ...sizes(file) }));
const largest = locales.sort((a, b) => b.gzip - a.gzip)[0];
const verdict = (bytes, budget) => `${bytes <= budget ? 'within' : 'OVER'} the ${budget}-byte gzip budget`;
const line = (name, s) =>
  `${name.padEnd(34)} ${String(s.raw).padStart(7)} raw ${String(s.gzip).padStart(6)} gzip ${String(s.br).padStart(6)} br`;
process.stdout.write(
  [
    `${line(`loader  dist/${manifest.loader}`, loader)}  (${verdict(loader.gzip, LOADER_BUDGET_GZIP_BYTES)})`,
    line(`rest    dist/${manifest.script}`, rest),
    `${line('whole widget', total)}  (${verdict(total.gzip, BUDGET_GZIP_BYTES)})`,
    ...chunks.map((c) => `${line(`chunk   dist/${c.file}`, c)}  (loaded when a message first needs it)`),
    `${line('with every chunk', everything)}  (${verdict(everything.gzip, WITH_CHUNKS_BUDGET_GZIP_BYTES)})`,
    ...(largest
      ? [
          `${line(`largest of ${locales.length} languages (${largest.language})`, largest)}  (fetched only on a page in that language)`,
        ]
      : []),
  ].join('\n') + '\n',
);
const over =
  loader.gzip > LOADER_BUDGET_GZIP_BYTES ||
  total.gzip > BUDGET_GZIP_BYTES ||
  everything.gzip > WITH_CHUNKS_BUDGET_GZIP_BYTES;
if (process.argv.includes('--check') && over) process.exit(1);
