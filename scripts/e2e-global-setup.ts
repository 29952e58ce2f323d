/**
 * The end-to-end run's global setup: its temporary files (servers' data, bot files, browser profiles) go into one
 * folder, removed at the end. Screenshots are there to be looked at after the run, so they stay in the system's
 * temporary folder (e2e/screenshots.ts), unless E2E_SCREENSHOTS says where.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useRunTmpdir } from './test-tmpdir.ts';

export default function setup(): () => void {
  process.env.E2E_SCREENSHOTS ??= join(tmpdir(), 'chatbot-e2e-screenshots');
  return useRunTmpdir('chatbot-e2e-');
}
