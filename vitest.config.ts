import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * The schemathesis contract run: about 7,000 requests a store leg, minutes of the MongoDB-compatible test
 * server's CPU. Beside it, every other Mongo-leg file ran two to three times slower than alone, close to
 * the bounds its waits allow: it runs after them, on its own. Its two legs are files of their own and run
 * side by side: most of a leg's time is schemathesis' own case generation, single-threaded Python.
 */
const ALONE = [
  'server/api/management/test/schemathesis-sqlite.test.ts',
  'server/api/management/test/schemathesis-mongo.test.ts',
];

const shared = { pool: 'forks', testTimeout: 20_000, hookTimeout: 30_000 } as const;

/** Unit, integration and store contract tests (Node), and the studio's pure modules. Browser tests run under web-test-runner and e2e/. */
export default defineConfig({
  test: {
    // One MongoDB-compatible test server for the run, provided to both projects.
    globalSetup: ['scripts/vitest-global-setup.ts'],
    projects: [
      {
        test: {
          ...shared,
          name: 'node',
          include: [
            'server/**/*.test.ts',
            'shared/**/*.test.ts',
            'studio/**/*.test.ts',
            'demo/**/*.test.ts',
            'scripts/**/*.test.ts',
          ],
          exclude: [...configDefaults.exclude, ...ALONE],
          // Vitest's default (one worker fewer than the cores) runs one file at a time on a 2-core machine, and most of this
          // stage's time is spent waiting on child servers and FerretDB rather than computing: two files at
          // a time roughly halve it there. Larger machines keep the default.
          maxWorkers: Math.max(2, availableParallelism() - 1),
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          ...shared,
          name: 'alone',
          include: ALONE,
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
