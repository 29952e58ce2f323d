// Component tests for widget/: real Chromium, TypeScript compiled by esbuild on the fly.
// Run: npx wtr --config web-test-runner.config.mjs   (exits 1 on any failing test)
import { readFileSync, writeFileSync } from 'node:fs';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { defaultReporter } from '@web/test-runner';
import { chromeLauncher } from '@web/test-runner-chrome';

// Shared with the end-to-end tests: the same binary and flags everywhere.
const chromium = JSON.parse(readFileSync(new URL('./scripts/chromium.json', import.meta.url), 'utf8'));
const chromePath = process.env.CHROMIUM_PATH ?? chromium.path;

/** Adds up test results in a mocha-like suite tree. */
function countSuite(suite, totals) {
  for (const test of suite?.tests ?? []) {
    if (test.skipped) totals.skipped += 1;
    else if (test.passed) totals.passed += 1;
    else totals.failed += 1;
  }
  for (const child of suite?.suites ?? []) countSuite(child, totals);
}

/**
 * Writes {passed, failed, skipped} to $WTR_SUMMARY_FILE when a run ends, for the
 * test orchestrator's summary line. A test file that fails to load has no test
 * results, so each such session counts as one failure rather than vanishing.
 */
function summaryFileReporter() {
  const path = process.env.WTR_SUMMARY_FILE;
  return {
    onTestRunFinished({ sessions }) {
      if (!path) return;
      const totals = { passed: 0, failed: 0, skipped: 0 };
      for (const session of sessions) {
        const before = totals.passed + totals.failed + totals.skipped;
        countSuite(session.testResults, totals);
        const none = totals.passed + totals.failed + totals.skipped === before;
        if (session.passed === false && (none || session.errors?.length)) totals.failed += 1;
      }
      writeFileSync(path, `${JSON.stringify(totals)}\n`);
    },
  };
}

export default {
  files: 'widget/test/**/*.test.ts',
  // browser: engine.io-client maps its ws-based transport to the browser one through the
  // "browser" field. No 'development' condition (the runner's default): socket.io-parser
  // would then load its debug build, which imports the CommonJS-only 'debug' package.
  nodeResolve: { browser: true, exportConditions: ['browser'] },
  // Sources import each other with explicit `.ts` extensions, which the dev server serves as-is.
  plugins: [esbuildPlugin({ ts: true, target: 'es2022' })],
  browsers: [
    chromeLauncher({
      launchOptions: { executablePath: chromePath, headless: true, args: chromium.args },
    }),
  ],
  reporters: [defaultReporter(), summaryFileReporter()],
  testFramework: { config: { timeout: 5000 } },
  // Test files share one origin, hence one localStorage, where the widget keeps its session:
  // run them one at a time so one file's stored session never leaks into another's handshake.
  concurrency: 1,
  // A stalled file (e.g. chai printing a live DOM node) fails in a minute, not two.
  testsFinishTimeout: 60000,
};
