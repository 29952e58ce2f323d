import { defineConfig } from 'vitest/config';

/** End-to-end tests: the built server as a process, Debian's Chromium through playwright-core. */
export default defineConfig({
  test: {
    include: ['e2e/**/*.test.ts'],
    globalSetup: ['scripts/e2e-global-setup.ts'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // A browser waits on a server in another process (and on the MongoDB-compatible test server): what
    // a page shows within 1 s on a quiet machine may take several on a loaded one. A poll still fails
    // when the thing never shows.
    expect: { poll: { timeout: 15_000 } },
  },
});
