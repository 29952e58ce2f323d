#!/usr/bin/env node
// Prints the size of dist/widget.js, raw and gzipped. With --check, exits 1 when
// the gzipped size is over the budget: a build check, not a timed test.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

export const BUDGET_GZIP_BYTES = 30 * 1024;
const file = 'dist/widget.js';
const raw = readFileSync(file);
const gzipped = gzipSync(raw, { level: 9 }).length;
const verdict = gzipped <= BUDGET_GZIP_BYTES ? 'within' : 'OVER';
process.stdout.write(`${file}: ${raw.length} bytes, ${gzipped} gzipped (${verdict} the ${BUDGET_GZIP_BYTES}-byte budget)\n`);
if (process.argv.includes('--check') && gzipped > BUDGET_GZIP_BYTES) process.exit(1);
