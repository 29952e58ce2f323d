#!/usr/bin/env node
// Run after `npm install` changes dependencies. The npm registry this project
// installs from lacks some platform-specific optional packages (e.g. rollup's
// Android and Windows builds). npm then writes a package-lock.json without
// them, and `npm ci` refuses that lock as out of sync. This adds the missing
// optional entries, with the os/cpu their names state, so `npm ci` skips them
// on other platforms exactly as it would with a complete lock.
import { readFileSync, writeFileSync } from 'node:fs';

const LOCK = 'package-lock.json';
const lock = JSON.parse(readFileSync(LOCK, 'utf8'));
const packages = lock.packages;
const platform =
  /-(android|darwin|freebsd|linux|openbsd|openharmony|win32|sunos|aix|netbsd)-(arm64|arm|x64|ia32|loong64|ppc64|riscv64|s390x|mips64el|wasm32)(?:-(gnu|musl|gnueabihf|musleabihf|eabi|msvc))?$/;

let added = 0;
for (const [where, entry] of Object.entries(packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const key = `node_modules/${name}`;
    const nested = `${where}/node_modules/${name}`;
    if (packages[key] || packages[nested]) continue;
    const match = platform.exec(name);
    if (!match) {
      process.stderr.write(
        `${name} is missing from the lock but its platform cannot be read from its name; left alone\n`,
      );
      continue;
    }
    const [, os, cpu, abi] = match;
    packages[key] = {
      version,
      ...(entry.dev ? { dev: true } : {}),
      optional: true,
      os: [os === 'win32' ? 'win32' : os],
      cpu: [cpu],
      ...(abi === 'musl' || abi === 'musleabihf'
        ? { libc: ['musl'] }
        : abi === 'gnu' || abi === 'gnueabihf'
          ? { libc: ['glibc'] }
          : {}),
    };
    added += 1;
  }
}
lock.packages = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
);
writeFileSync(LOCK, `${JSON.stringify(lock, null, 2)}\n`);
process.stdout.write(`${LOCK}: added ${added} missing optional platform entries\n`);
