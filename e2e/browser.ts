import { existsSync, readFileSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

const settings = JSON.parse(readFileSync(new URL('../scripts/chromium.json', import.meta.url), 'utf8')) as {
  path: string;
  args: string[];
};

export const CHROMIUM = process.env.CHROMIUM_PATH ?? settings.path;

/** Flags that matter for a headless Chromium running as root on a closed network (scripts/chromium.json). */
export const CHROMIUM_ARGS = settings.args;

/** The browser every test uses; `extraArgs` (a bench's) come after the usual flags. */
export function launchBrowser(options: { extraArgs?: readonly string[] } = {}): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium is not installed at ${CHROMIUM}; run \`npm run provision\`.`);
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [...CHROMIUM_ARGS, ...(options.extraArgs ?? [])],
  });
}
