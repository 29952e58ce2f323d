#!/usr/bin/env node
// `npm test`: provisions, then runs every stage in order (typecheck, lint, Node
// tests incl. the store contract suite and the schemathesis run against the
// OpenAPI document, both on both stores, build, size budget,
// widget component tests in Chromium, end-to-end tests), prints how long each
// took, and closes with one line: "N passed, N failed, N skipped".
// Any failing stage makes the exit code 1. Under CI=true nothing may be skipped.
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

function run(command, args, env = {}) {
  return new Promise((resolve) => {
    let stdout = '';
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } });
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      process.stdout.write(chunk);
    });
    child.on('close', (code) => resolve({ code: code ?? 1, stdout }));
  });
}

async function stage(name, action) {
  process.stdout.write(`\n=== ${name} ===\n`);
  const started = Date.now();
  let outcome;
  try {
    outcome = await action();
  } catch (error) {
    process.stderr.write(`${name}: ${error.message}\n`);
    outcome = 'failed';
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  stages.push({ name, outcome, seconds });
  if (outcome === 'failed') failed = true;
  return outcome;
}

function skip(what, why) {
  process.stderr.write(`\n!!! SKIPPED ${what}: ${why}\n\n`);
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

function vitest(config, reportName) {
  const report = path.join(cache, reportName);
  rmSync(report, { force: true });
  return run(bin('vitest'), ['run', '--config', config, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`]).then(
    ({ code }) => {
      const ran = addVitestCounts(report);
      if (code !== 0) return 'failed';
      return ran ? 'passed' : (process.stderr.write(`${config}: no test ran\n`), 'failed');
    },
  );
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

await stage('typecheck', async () => ((await run(bin('tsc'), ['-p', 'tsconfig.json', '--noEmit'])).code === 0 ? 'passed' : 'failed'));
await stage('lint', async () => ((await run(bin('eslint'), ['.'])).code === 0 ? 'passed' : 'failed'));
await stage('unit, integration and store contract tests (vitest)', () => vitest('vitest.config.ts', 'vitest-node.json'));
const built = await stage('build', async () => ((await run('npm', ['run', '--silent', 'build'])).code === 0 ? 'passed' : 'failed'));
await stage('widget size budget', async () => {
  if (built !== 'passed') return skip('the size budget', 'the build failed');
  const { code } = await run(process.execPath, ['scripts/widget-size.mjs', '--check']);
  return code === 0 ? 'passed' : 'failed';
});

const browserMissing = !provisioned.chromium && !existsSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium');
await stage('widget component tests (web-test-runner, Chromium)', async () => {
  if (browserMissing) return CI ? 'failed' : skip('widget component tests', 'Chromium is not installed');
  const summary = path.join(cache, 'wtr-summary.json');
  rmSync(summary, { force: true });
  const { code } = await run(bin('web-test-runner'), ['--config', 'web-test-runner.config.mjs'], { WTR_SUMMARY_FILE: summary });
  if (existsSync(summary)) {
    const result = JSON.parse(readFileSync(summary, 'utf8'));
    counts.passed += result.passed;
    counts.failed += result.failed;
    counts.skipped += result.skipped;
    if (result.passed + result.failed === 0) return 'failed';
  } else if (code === 0) {
    process.stderr.write('web-test-runner wrote no summary\n');
    return 'failed';
  }
  return code === 0 ? 'passed' : 'failed';
});
await stage('end-to-end tests (Playwright, Chromium)', async () => {
  if (browserMissing) return CI ? 'failed' : skip('end-to-end tests', 'Chromium is not installed');
  if (built !== 'passed') return skip('end-to-end tests', 'the build failed');
  return vitest('vitest.e2e.config.ts', 'vitest-e2e.json');
});

process.stdout.write('\nStage durations:\n');
for (const { name, outcome, seconds } of stages) process.stdout.write(`  ${outcome.padEnd(7)} ${seconds.padStart(6)} s  ${name}\n`);
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
    process.stderr.write(`!!! CI went past its budget of ${budget} minutes: see what grew among the slowest files above.\n`);
    failed = true;
  }
}
if (failures.length > 0) process.stdout.write(`\nFailed tests:\n${failures.map((line) => `  ${line}`).join('\n')}\n`);
process.stdout.write(`\n${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`);
process.exit(failed || counts.failed > 0 ? 1 : 0);
