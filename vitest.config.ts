import { defineConfig } from 'vitest/config';

/** Unit, integration and store contract tests (Node), and the studio's pure modules. Browser tests run under web-test-runner and e2e/. */
export default defineConfig({
  test: {
    include: ['server/**/*.test.ts', 'shared/**/*.test.ts', 'studio/**/*.test.ts', 'demo/**/*.test.ts', 'scripts/**/*.test.ts'],
    globalSetup: ['scripts/vitest-global-setup.ts'],
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
