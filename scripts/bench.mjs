#!/usr/bin/env node
// `npm run bench`: every benchmark in bench/, one after the other, then the widget size.
// Figures are printed, never asserted: speed goals live here, not in tests.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';

let failed = false;
for (const file of readdirSync('bench')
  .filter((f) => f.endsWith('.ts'))
  .sort()) {
  const { status } = spawnSync(process.execPath, ['--import', 'tsx', `bench/${file}`], { stdio: 'inherit' });
  if (status !== 0) failed = true;
}
if (!existsSync('dist/widget.js')) spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { stdio: 'inherit' });
spawnSync(process.execPath, ['scripts/widget-size.mjs'], { stdio: 'inherit' });
process.exit(failed ? 1 : 0);
