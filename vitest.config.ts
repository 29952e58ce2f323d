import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/** Unit, integration and store contract tests (Node), and the studio's pure modules. Browser tests run under web-test-runner and e2e/. */
export default defineConfig({
  test: {
    include: ['server/**/*.test.ts', 'shared/**/*.test.ts', 'studio/**/*.test.ts', 'demo/**/*.test.ts', 'scripts/**/*.test.ts'],
    globalSetup: ['scripts/vitest-global-setup.ts'],
    pool: 'forks',
    // Vitest's default (one worker fewer than the cores) runs one file at a time on a 2-core machine, and most of this
    // stage's time is spent waiting on child servers, FerretDB and schemathesis rather than computing: two files at
    // a time roughly halve it there. Larger machines keep the default.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
