import { defineConfig } from 'vitest/config';

/** End-to-end tests: the built server as a process, Debian's Chromium through playwright-core. */
export default defineConfig({
  test: {
    include: ['e2e/**/*.test.ts'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
