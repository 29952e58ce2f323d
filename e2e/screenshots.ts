import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';

/** Where the browser tests leave the screenshots they take, to look at after a run: $E2E_SCREENSHOTS, else a folder in the temp dir. */
export const SCREENSHOT_DIR = process.env.E2E_SCREENSHOTS ?? path.join(tmpdir(), 'chatbot-e2e-screenshots');

/** A screenshot of the page as a visitor sees it (animations finished), kept as `<name>.png` and returned for pixel checks. */
export async function screenshot(page: Page, name: string): Promise<Buffer> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  return page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), animations: 'disabled' });
}
