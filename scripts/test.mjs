#!/usr/bin/env node
// `npm test`: provisions, then runs every stage (typecheck, lint, build, size budget, Node
// tests incl. the store contract suite, the schemathesis run against the OpenAPI document on
// both stores, widget component tests in Chromium, end-to-end tests), prints how long each
// took and the ten slowest test files, and closes with one line: "N passed, N failed, N skipped".
// Any failing stage makes the exit code 1. Under CI=true nothing may be skipped.
//
// What runs side by side, on two cores: typecheck, lint and build (each one process); then the
// Node tests alone (their MongoDB-leg files have waits a loaded test server can outrun); then the
// schemathesis run beside the browser stages (neither has a timed wait the other can starve: the
// schemathesis legs wait on their own test server and generation, the browser stages on their
// own servers and Chromium). A stage that runs beside another prints its output when it ends.
import { AsyncLocalStorage } from 'node:async_hooks';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { failedTests } from './failed-tests.mjs';
import { fileDurations, slowestFiles } from './slowest-files.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);
const CI = process.env.CI === 'true';
const cache = path.join(root, '.cache');
mkdirSync(cache, { recursive: true });
const bin = (name) => path.join(root, 'node_modules', '.bin', name);

const counts = { passed: 0, failed: 0, skipped: 0 };
const stages = [];
/** Failed Vitest tests of every stage, printed again at the end. */
const failures = [];
/** Every Vitest file's wall time, for the ten slowest printed at the end. */
const fileTimes = [];
let failed = false;

/** Where a stage's output goes: straight through, or into a buffer printed when it ends (when it runs beside others). */
const sink = new AsyncLocalStorage();
const out = (text) => (sink.getStore() ? sink.getStore().push(text) : process.stdout.write(text));

function run(command, args, env = {}) {
  return new Promise((resolve) => {
    let stdout = '';
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      out(chunk);
    });
    child.stderr.on('data', (chunk) => out(chunk));
    child.on('close', (code) => resolve({ code: code ?? 1, stdout }));
  });
}

async function stage(name, action) {
  out(`\n=== ${name} ===\n`);
  const started = Date.now();
  let outcome;
  try {
    outcome = await action();
  } catch (error) {
    out(`${name}: ${error.message}\n`);
    outcome = 'failed';
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  stages.push({ name, outcome, seconds });
  if (outcome === 'failed') failed = true;
  return outcome;
}

/** Runs lanes (each a function running stages in order) side by side; each lane's output is printed whole when it ends. */
function sideBySide(...lanes) {
  return Promise.all(
    lanes.map(async (lane) => {
      const buffer = [];
      try {
        return await sink.run(buffer, lane);
      } finally {
        process.stdout.write(buffer.join(''));
      }
    }),
  );
}

function skip(what, why) {
  out(`\n!!! SKIPPED ${what}: ${why}\n\n`);
  return 'skipped';
}

function addVitestCounts(file) {
  if (!existsSync(file)) return false;
  const report = JSON.parse(readFileSync(file, 'utf8'));
  counts.passed += report.numPassedTests;
  counts.failed += report.numFailedTests;
  counts.skipped += report.numPendingTests + report.numTodoTests;
  failures.push(...failedTests(report, root));
  fileTimes.push(...fileDurations(report, root));
  return report.numTotalTests > 0;
}

function vitest(config, reportName, extra = []) {
  const report = path.join(cache, reportName);
  rmSync(report, { force: true });
  return run(bin('vitest'), [
    'run',
    '--config',
    config,
    ...extra,
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
  ]).then(({ code }) => {
    const ran = addVitestCounts(report);
    if (code !== 0) return 'failed';
    return ran ? 'passed' : (out(`${config}: no test ran\n`), 'failed');
  });
}

let provisioned = { chromium: false, mongo: false };
await stage('provision', async () => {
  const { code, stdout } = await run(process.execPath, ['scripts/provision.mjs']);
  const last = stdout.trim().split('\n').pop();
  try {
    provisioned = JSON.parse(last);
  } catch {
    /* the summary line is missing: treat everything as unavailable */
  }
  return code === 0 ? 'passed' : 'failed';
});

const passedIf = (promise) => promise.then(({ code }) => (code === 0 ? 'passed' : 'failed'));
let built = 'failed';
await sideBySide(
  () => stage('typecheck', () => passedIf(run(bin('tsc'), ['-p', 'tsconfig.json', '--noEmit']))),
  () =>
    stage('lint', async () => {
      const [lint, format] = [
        await run(bin('eslint'), ['.']),
        await run(bin('prettier'), ['--check', '.', '--log-level', 'warn']),
      ];
      return lint.code === 0 && format.code === 0 ? 'passed' : 'failed';
    }),
  async () => {
    built = await stage('build', () => passedIf(run('npm', ['run', '--silent', 'build'])));
  },
);
await stage('widget size budget', async () => {
  if (built !== 'passed') return skip('the size budget', 'the build failed');
  return passedIf(run(process.execPath, ['scripts/widget-size.mjs', '--check']));
});
await stage('unit, integration and store contract tests (vitest)', () =>
  vitest('vitest.config.ts', 'vitest-node.json', ['--project', 'node']),
);

const browserMissing = !provisioned.chromium && !existsSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium');
await sideBySide(
  () =>
    stage('API contract run (schemathesis, both stores)', () =>
      vitest('vitest.config.ts', 'vitest-alone.json', ['--project', 'alone']),
    ),
  async () => {
    await stage('widget component tests (web-test-runner, Chromium)', async () => {
      if (browserMissing) return CI ? 'failed' : skip('widget component tests', 'Chromium is not installed');
      const summary = path.join(cache, 'wtr-summary.json');
      rmSync(summary, { force: true });
      const { code } = await run(bin('web-test-runner'), ['--config', 'web-test-runner.config.mjs'], {
        WTR_SUMMARY_FILE: summary,
      });
      if (existsSync(summary)) {
        const result = JSON.parse(readFileSync(summary, 'utf8'));
        counts.passed += result.passed;
        counts.failed += result.failed;
        counts.skipped += result.skipped;
        if (result.passed + result.failed === 0) return 'failed';
      } else if (code === 0) {
        out('web-test-runner wrote no summary\n');
        return 'failed';
      }
      return code === 0 ? 'passed' : 'failed';
    });
    await stage('end-to-end tests (Playwright, Chromium)', async () => {
      if (browserMissing) return CI ? 'failed' : skip('end-to-end tests', 'Chromium is not installed');
      if (built !== 'passed') return skip('end-to-end tests', 'the build failed');
      return vitest('vitest.e2e.config.ts', 'vitest-e2e.json');
    });
  },
);

process.stdout.write('\nStage durations:\n');
for (const { name, outcome, seconds } of stages)
  process.stdout.write(`  ${outcome.padEnd(7)} ${seconds.padStart(6)} s  ${name}\n`);
if (CI && stages.some((s) => s.outcome === 'skipped')) {
  process.stderr.write('CI=true: a stage was skipped, which CI does not allow.\n');
  failed = true;
}
process.stdout.write(`\nThe ten slowest test files:\n${slowestFiles(fileTimes, 10).join('\n')}\n`);
// Under .ci/run: the time since the clone's run started, against its budget (a slow creep shows long before the limit).
if (process.env.CI_STARTED_AT) {
  const minutes = (Date.now() / 1000 - Number(process.env.CI_STARTED_AT)) / 60;
  const budget = Number(process.env.CI_BUDGET_MINUTES ?? 45);
  process.stdout.write(`\nCI so far: ${minutes.toFixed(1)} min (budget ${budget} min)\n`);
  if (minutes > budget) {
    process.stderr.write(
      `!!! CI went past its budget of ${budget} minutes: see what grew among the slowest files above.\n`,
    );
    failed = true;
  }
}
if (failures.length > 0) process.stdout.write(`\nFailed tests:\n${failures.map((line) => `  ${line}`).join('\n')}\n`);
process.stdout.write(`\n${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`);
process.exit(failed || counts.failed > 0 ? 1 : 0);
